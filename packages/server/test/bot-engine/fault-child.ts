import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
// The bot engine in a process of its own, for the SIGKILL fault test: a file-backed PGlite in
// DATA_DIR, live bots on the ccxt fake at FAKE_URL, a clock running CLOCK_SPEED× from CLOCK_START_MS
// (wall time T0_MS), so candles close every second. SETUP=1 creates the accounts and bots.

import type { Clock } from '../../src/common/clock.js';
import { createLeases, workerHolderId } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { openDatabase } from '../../src/db/client.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { seedLiveBots } from './live-bots.fixture.js';

const env = process.env;
const speed = Number(env.CLOCK_SPEED);
const startMs = Number(env.CLOCK_START_MS);
const t0 = Number(env.T0_MS);
const clock: Clock = { now: () => new Date(startMs + (Date.now() - t0) * speed) };
const database = await openDatabase({ databaseUrl: undefined, dataDir: env.DATA_DIR ?? '' });
const db = database.db;
const secretBox = createSecretBox('fault-test-secret-key-0123456789-abcdefgh');
const feed = createMarketFeed({
  mode: 'simulated',
  clock,
  fundingRates: createMemoryFundingRatesRepository(),
});

if (env.SETUP === '1') {
  await seedLiveBots(db, secretBox, clock, {
    count: Number(env.BOT_COUNT),
    label: 'fault',
    parameters: { fast_period: 2, slow_period: 4 },
  });
}

const engine = createBotEngineWithCore({
  db,
  clock,
  feed,
  // One process owns the embedded database: a restart takes its bots' leases back at once.
  leases: createLeases({ db, holderId: workerHolderId(database.kind) }),
  pollIntervalMs: 100,
  clients: createAccountClientCache({
    secretBox,
    factory: createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db,
      clock,
      prices: feedPriceSource(feed),
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({ ...options, urlsOverride: env.FAKE_URL, timeoutMs: 1000 }),
    }),
  }),
});
await engine.start();
process.stdout.write(`${JSON.stringify({ running: engine.runningBotIds() })}\n`);
const keepAlive = setInterval(() => {}, 1000);
process.on('SIGTERM', () => {
  clearInterval(keepAlive);
  void engine
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
