// Request log lines carry neither secrets nor personal data from the URL: the webhook key (a
// path segment) is redacted and query strings are dropped (issue: attack run, item 4).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, webhookUser } from '../webhooks/webhook-flows.js';

const lines: string[] = [];
const ctx = useTestApp({
  env: { NODE_ENV: 'development', MARKET_DATA: 'simulated' },
  logStream: { write: (line) => lines.push(line) },
});

/** The logged request URLs of the lines written since `from`. */
const loggedUrls = (from: number) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line) as { req?: { url?: string } })
    .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));

describe('request log lines', () => {
  it('redact the webhook key in the URL', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'logkey');
    const { path } = await createConfig(ctx.app, token, accountId);
    const key = path.split('/').filter(Boolean).at(-1) ?? '';
    expect(key).toMatch(/^[0-9a-f]{64}$/);

    const from = lines.length;
    const accepted = await postAlert(ctx.app, path, { action: 'buy', amount: 50 });
    expect(accepted.status).toBe(202);
    const unknown = await postAlert(ctx.app, `/api/webhook-trading/hook/${'e'.repeat(64)}/`, '{}');
    expect(unknown.status).toBe(404);

    const log = lines.slice(from).join('');
    expect(log).not.toContain(key);
    expect(log).not.toContain('e'.repeat(64));
    expect(loggedUrls(from)).toContain('/api/webhook-trading/hook/[redacted]/');
  });

  it('drop the query string, such as the dev outbox address', async () => {
    const from = lines.length;
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/dev/outbox/?to=private.person%40example.com',
    });
    expect(res.statusCode).toBe(200);
    const log = lines.slice(from).join('');
    expect(log).not.toContain('private.person');
    expect(log).not.toContain('?to=');
    expect(loggedUrls(from)).toContain('/api/dev/outbox/');
  });
});
