// Behind a reverse proxy (TRUST_PROXY = the proxy's addresses) the client's address comes from
// X-Forwarded-For: a webhook allowlist and the sign-in limit see the real client. Without it, or
// from a peer that is not a listed proxy, the header is ignored, so no client can pick its own
// address.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.js';
import { createConfig, TV_IP, webhookUser } from '../webhooks/webhook-flows.js';

const PROXY = '10.1.2.3';
const behindProxy = useTestApp({
  env: { MARKET_DATA: 'simulated', TRUST_PROXY: `127.0.0.1, 10.0.0.0/8` },
  config: { authIpRatePerMinute: 2 },
});
const direct = useTestApp({ env: { MARKET_DATA: 'simulated' } });

async function alertFrom(app: FastifyInstance, path: string, peer: string, forwardedFor?: string) {
  const res = await app.inject({
    method: 'POST',
    url: path,
    remoteAddress: peer,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    payload: JSON.stringify({ action: 'buy', amount: 100 }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

describe('webhook allowlists behind a trusted proxy', () => {
  it("allows TradingView's address relayed by the proxy, refuses another one", async () => {
    const { token, accountId } = await webhookUser(behindProxy.app, 'proxy');
    const { path } = await createConfig(behindProxy.app, token, accountId, {
      ip_allowlist: [TV_IP],
    });
    const relayed = await alertFrom(behindProxy.app, path, PROXY, TV_IP);
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(202);
    const other = await alertFrom(behindProxy.app, path, PROXY, '198.51.100.7');
    expect(other.body.reason).toBe('ip_not_allowed');
  });

  it('ignores the header from a peer that is not a listed proxy', async () => {
    const { token, accountId } = await webhookUser(behindProxy.app, 'spoof');
    const { path } = await createConfig(behindProxy.app, token, accountId, {
      ip_allowlist: [TV_IP],
    });
    const spoofed = await alertFrom(behindProxy.app, path, '198.51.100.7', TV_IP);
    expect(spoofed.body.reason).toBe('ip_not_allowed');
  });

  it('ignores the header when no proxy is configured (the default)', async () => {
    const { token, accountId } = await webhookUser(direct.app, 'direct');
    const { path } = await createConfig(direct.app, token, accountId, { ip_allowlist: [TV_IP] });
    const spoofed = await alertFrom(direct.app, path, '127.0.0.1', TV_IP);
    expect(spoofed.body.reason).toBe('ip_not_allowed');
    expect((await alertFrom(direct.app, path, TV_IP)).status).toBe(202);
  });
});

describe('the sign-in limit behind a trusted proxy', () => {
  const login = (forwardedFor: string) =>
    behindProxy.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: 'nobody@example.com', password: 'whatever1', email_code: '123456' },
    });

  it('counts each client behind the proxy on its own', async () => {
    for (let i = 0; i < 2; i++) expect((await login('203.0.113.1')).statusCode).toBe(400);
    expect((await login('203.0.113.1')).statusCode).toBe(429);
    // Another client through the same proxy is not locked out by the first.
    expect((await login('203.0.113.2')).statusCode).toBe(400);
  });
});
