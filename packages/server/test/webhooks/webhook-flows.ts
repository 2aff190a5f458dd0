import type { FastifyInstance } from 'fastify';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';

export const TV_IP = '52.89.214.238';

/** A user with a paper account: their token and the account id. */
export async function webhookUser(app: FastifyInstance, prefix = 'wh') {
  const session = await registerEmail(app, uniqueEmail(prefix));
  const accountId = await createPaperAccount(app, session.access);
  return { token: session.access, accountId, userId: Number(session.user.id) };
}

export async function createConfig(
  app: FastifyInstance,
  token: string,
  accountId: number,
  overrides: Record<string, unknown> = {},
) {
  const res = await call<{ id: number; webhook_url: string } & Record<string, unknown>>(
    app,
    'POST',
    '/api/webhook-trading/configs/',
    {
      token,
      body: { name: 'TV BTC', exchange_api: accountId, symbol: 'BTCUSDT.P', ...overrides },
    },
  );
  if (res.status !== 201) throw new Error(`config create failed: ${JSON.stringify(res.body)}`);
  const url = new URL(res.body.webhook_url);
  return { id: res.body.id, path: url.pathname, body: res.body };
}

/** Posts an alert as TradingView does (text/plain by default) from `ip`. */
export async function postAlert(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: { ip?: string; contentType?: string } = {},
) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await app.inject({
    method: 'POST',
    url: path,
    remoteAddress: options.ip ?? TV_IP,
    headers: { 'content-type': options.contentType ?? 'text/plain; charset=utf-8' },
    payload,
  });
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(res.body);
  } catch {
    // not JSON
  }
  return { status: res.statusCode, body: parsed, raw: res.body };
}
