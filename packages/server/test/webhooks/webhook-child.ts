import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
// A server process for the webhook SIGKILL test: the whole app on DATABASE_URL (or a file-backed
// PGlite in DATA_DIR), paper accounts on the simulated feed, listening on a free port. SETUP=1
// registers a user with a paper account and a webhook configuration and prints them. HANG=1:
// every order reaches the paper exchange (filled there), then its answer never comes back — the
// process is killed between the intent and the fill.

import { systemClock } from '../../src/common/clock.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { buildStandaloneApp } from '../helpers/standalone-app.js';

const env = process.env;
const print = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const config = loadConfig(
  {
    NODE_ENV: 'test',
    SECRET_KEY: 'webhook-child-secret-key-0123456789-abcdef',
    JWT_SECRET: 'webhook-child-jwt-secret-0123456789-abcdefgh',
    DATA_DIR: env.DATA_DIR ?? '',
    WEB_DIST_DIR: `${env.DATA_DIR}/no-web`,
    MARKET_DATA: 'simulated',
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  },
  { generateSecret: false },
);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const clock = systemClock;
const marketFeed = createMarketFeed({
  mode: 'simulated',
  clock,
  candles: createCandlesRepository(database.db),
  fundingRates: createMemoryFundingRatesRepository(),
});
const paper = testClientFactory({ config, db: database.db, clock, marketFeed });
const app = await buildStandaloneApp({
  config,
  db: database.db,
  databaseKind: database.kind,
  clock,
  logger: false,
  marketFeed,
  exchangeClientFactory: (account) => {
    const client = paper(account);
    if (env.HANG !== '1') return client;
    return Object.assign(Object.create(client), {
      createOrder: async (request: Parameters<typeof client.createOrder>[0]) => {
        await client.createOrder(request);
        print({ placed: request.clientOrderId });
        return new Promise<never>(() => {});
      },
    });
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

if (env.SETUP === '1') {
  const inject = async (method: 'POST', url: string, body: object, token?: string) => {
    const res = await app.inject({
      method,
      url,
      payload: body,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const session = await inject('POST', '/api/auth/register/', {
    email: 'sigkill-webhook@example.com',
    password: 'correct horse battery',
    password2: 'correct horse battery',
  });
  const token = String(session.access);
  const account = await inject(
    'POST',
    '/api/auth/apis/',
    { name: 'Paper', exchange: 'binance', is_paper: true, default_leverage: 5 },
    token,
  );
  const created = await inject(
    'POST',
    '/api/webhook-trading/configs/',
    { name: 'Kill', exchange_api: account.id, symbol: 'BTCUSDT.P', leverage: 4 },
    token,
  );
  print({
    ready: true,
    port,
    token,
    path: new URL(String(created.webhook_url)).pathname,
    configId: created.id,
  });
} else {
  print({ ready: true, port });
}

const keepAlive = setInterval(() => {}, 1000);
process.on('SIGTERM', () => {
  clearInterval(keepAlive);
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
