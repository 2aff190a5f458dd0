import type { FastifyInstance } from 'fastify';
import type { OrderRequest } from '../../src/exchange/exchange-client.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { call, type TestAppOptions } from '../helpers/test-app.js';

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

/**
 * The app's own paper clients (on a simulated feed of the test's clock), with every order first
 * shown to `beforeOrder`, which may hold it back (as a slow exchange would) before it is sent.
 */
export function observedPaperClients(
  beforeOrder: (accountId: number, request: OrderRequest) => Promise<void> | void,
): TestAppOptions['exchangeClientFactory'] {
  return ({ database, clock, config }) => {
    const marketFeed = createMarketFeed({
      mode: 'simulated',
      clock,
      candles: createCandlesRepository(database.db),
      fundingRates: createMemoryFundingRatesRepository(),
    });
    const factory = testClientFactory({ config, db: database.db, clock, marketFeed });
    return (account) => {
      const client = factory(account);
      return Object.assign(Object.create(client), {
        createOrder: async (request: OrderRequest) => {
          await beforeOrder(account.id, request);
          return client.createOrder(request);
        },
      });
    };
  };
}

/** A signal once it is final (filled, failed, ignored or refused), read as its owner does. */
export async function settledSignal(
  app: FastifyInstance,
  token: string,
  id: unknown,
): Promise<{ status: string; reason: string | null }> {
  for (let i = 0; i < 400; i++) {
    const res = await call<{ status: string; reason: string | null }>(
      app,
      'GET',
      `/api/webhook-trading/signals/${id}/`,
      { token },
    );
    if (['filled', 'failed', 'ignored', 'refused'].includes(res.body.status)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`signal ${id} did not settle`);
}
