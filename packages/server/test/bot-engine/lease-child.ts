import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { testExecutionCore } from '../helpers/execution-core.js';
// One engine worker for the two-worker lease test: PostgreSQL at DATABASE_URL (shared with
// another worker), live bots on the ccxt fake at FAKE_URL, a clock running CLOCK_SPEED× from
// CLOCK_START_MS (wall time T0_MS). Reports the bots it drives every 200 ms as a JSON line.

import type { Clock } from '../../src/common/clock.js';
import { createLeases, workerHolderId } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { openDatabase } from '../../src/db/client.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createBotEngine } from '../../src/workers/bot-engine/index.js';
import { operationLogWriter, ruleSetsOn } from '../helpers/bot-engine-with-core.js';
import { LEASE_TEST_SECRET } from './lease-test-secret.js';

const env = process.env;
const speed = Number(env.CLOCK_SPEED);
const startMs = Number(env.CLOCK_START_MS);
const t0 = Number(env.T0_MS);
const clock: Clock = { now: () => new Date(startMs + (Date.now() - t0) * speed) };
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: '' });
const db = database.db;
const feed = createMarketFeed({
  mode: 'simulated',
  clock,
  fundingRates: createMemoryFundingRatesRepository(),
});
const core = testExecutionCore({
  db,
  clock,
  events: createInProcessEventBus({ clock }),
  clients: createAccountClientCache({
    secretBox: createSecretBox(LEASE_TEST_SECRET),
    factory: createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db,
      clock,
      prices: feedPriceSource(feed),
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({ ...options, urlsOverride: env.FAKE_URL, timeoutMs: 2000 }),
    }),
  }),
});
const engine = createBotEngine({
  db,
  clock,
  feed,
  execution: core,
  writeLog: operationLogWriter(db, clock),
  pollIntervalMs: 100,
  leases: createLeases({ db, holderId: workerHolderId(database.kind) }),
  ruleSets: ruleSetsOn(db),
});
await engine.start();
const report = setInterval(() => {
  process.stdout.write(`${JSON.stringify({ running: engine.runningBotIds(), at: Date.now() })}\n`);
}, 200);
process.on('SIGTERM', () => {
  clearInterval(report);
  void engine
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
