import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { testExecutionCore } from '../helpers/execution-core.js';
// An engine process for the owners fault test: a bot (ma_cross on 1m) and a `manual` owner trading
// one account and symbol: live on the ccxt fake of EXCHANGE (binance or okx) at FAKE_URL, or a
// paper account (EXCHANGE=paper); a file-backed PGlite in DATA_DIR, a
// clock running CLOCK_SPEED× from CLOCK_START_MS (wall time T0_MS). SETUP=1 creates the account
// and the bot. The manual owner submits the targets of MANUAL_TARGETS under keys m1, m2, … from
// the first one on every start (a restart repeats the keys: nothing may be sent twice).
// KILL_AT_STEP / KILL_DELAY_MS: the process kills itself that long into that step's submit, or,
// with KILL_DELAY_MS=answer, the moment the venue has answered that step's order and before the
// core settles it (the order is then on its way whatever the machine's load).

import type { Clock } from '../../src/common/clock.js';
import { createLeases, workerHolderId } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { openDatabase } from '../../src/db/client.js';
import { bots, exchangeAccounts, users } from '../../src/db/schema/index.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import {
  createExchangeClientFactory,
  type ExchangeClientFactory,
} from '../../src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createBotEngine } from '../../src/workers/bot-engine/index.js';
import { operationLogWriter, ruleSetsOn } from '../helpers/bot-engine-with-core.js';

export const OWNERS_API_KEY = 'owners-key-1';
export const MANUAL_TARGETS = [0.05, -0.02, 0, 0.04, -0.05, 0.03, 0, -0.01];
export const MANUAL_ROUNDS = 4;

const env = process.env;
const speed = Number(env.CLOCK_SPEED);
const startMs = Number(env.CLOCK_START_MS);
const t0 = Number(env.T0_MS);
const clock: Clock = { now: () => new Date(startMs + (Date.now() - t0) * speed) };
const database = await openDatabase({ databaseUrl: undefined, dataDir: env.DATA_DIR ?? '' });
const db = database.db;
const secretBox = createSecretBox('owners-test-secret-key-0123456789-abcdef');
const feed = createMarketFeed({
  mode: 'simulated',
  clock,
  fundingRates: createMemoryFundingRatesRepository(),
});

if (env.SETUP === '1') {
  const now = clock.now();
  const [user] = await db
    .insert(users)
    .values({
      username: 'owners@example.com',
      passwordHash: 'x',
      invitationCode: 'OWN001',
      dateJoined: now,
    })
    .returning();
  const isPaper = env.EXCHANGE === 'paper';
  const [account] = await db
    .insert(exchangeAccounts)
    .values({
      userId: user!.id,
      name: 'Owners',
      exchange: env.EXCHANGE === 'okx' ? 'okx' : 'binance',
      accountType: 'classic',
      positionMode: 'net',
      defaultLeverage: 2,
      ...(isPaper
        ? { isPaper: true, paperBalance: '100000' }
        : {
            apiKeyEncrypted: secretBox.encrypt(OWNERS_API_KEY),
            apiSecretEncrypted: secretBox.encrypt('owners-secret'),
            apiPasswordEncrypted: secretBox.encrypt('owners-passphrase'),
          }),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await db.insert(bots).values({
    userId: user!.id,
    exchangeAccountId: account!.id,
    symbol: 'ETH/USDT:USDT',
    timeframe: '1m',
    strategyType: 'ma_cross',
    strategyParameters: { fast_period: 2, slow_period: 4 },
    tradeAmount: '100',
    status: 'running',
    createdAt: now,
    updatedAt: now,
  });
}

const [user] = await db.select().from(users);
const [account] = await db.select().from(exchangeAccounts);
/** Set at the step KILL_AT_STEP when KILL_DELAY_MS is `answer`. */
let dieOnManualAnswer = false;

/** The factory's clients, but a manual order's answer kills the process once it is armed. */
function killingAfterAnswer(factory: ExchangeClientFactory): ExchangeClientFactory {
  return (account) => {
    const client = factory(account);
    return new Proxy(client, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'createOrder' || typeof value !== 'function') return value;
        return async (...args: Parameters<typeof client.createOrder>) => {
          const answer = await value.apply(target, args);
          if (dieOnManualAnswer && args[0].clientOrderId?.startsWith('qm')) {
            process.kill(process.pid, 'SIGKILL');
          }
          return answer;
        };
      },
    });
  };
}

const core = testExecutionCore({
  db,
  clock,
  events: createInProcessEventBus({ clock }),
  clients: createAccountClientCache({
    secretBox,
    factory: killingAfterAnswer(
      createExchangeClientFactory({
        paperBalances: writePaperBalances,
        db,
        clock,
        prices: feedPriceSource(feed),
        paperSlippageBps: 2,
        createLiveClient: (options) =>
          createCcxtExchangeClient({ ...options, urlsOverride: env.FAKE_URL, timeoutMs: 1000 }),
      }),
    ),
  }),
});
const engine = createBotEngine({
  db,
  clock,
  feed,
  execution: core,
  writeLog: operationLogWriter(db, clock),
  pollIntervalMs: 100,
  // One process owns the embedded database: a restart takes its bots' leases back at once.
  leases: createLeases({ db, holderId: workerHolderId(database.kind) }),
  ruleSets: ruleSetsOn(db),
});
const manual = { kind: 'manual' as const, id: user!.id };
// A restart settles the manual owner's orders that were in flight, before anything new.
await core.reconcileIntents(manual);
await engine.start();
process.stdout.write(`${JSON.stringify({ running: engine.runningBotIds() })}\n`);

let stopping = false;
const manualLoop = (async () => {
  let n = 0;
  for (let round = 0; round < MANUAL_ROUNDS && !stopping; round++) {
    for (const target of MANUAL_TARGETS) {
      if (stopping) break;
      n += 1;
      // Fault injection: die KILL_DELAY_MS into the submit of step KILL_AT_STEP (mid-flight).
      if (env.KILL_AT_STEP !== undefined && n === Number(env.KILL_AT_STEP)) {
        if (env.KILL_DELAY_MS === 'answer') dieOnManualAnswer = true;
        else setTimeout(() => process.kill(process.pid, 'SIGKILL'), Number(env.KILL_DELAY_MS ?? 0));
      }
      try {
        await core.submit({
          accountId: account!.id,
          symbol: 'ETH/USDT:USDT',
          owner: manual,
          key: `m${n}`,
          size: { kind: 'target', amount: target },
          action: 'manual',
        });
      } catch (error) {
        process.stderr.write(
          `manual m${n}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
      process.stdout.write(`${JSON.stringify({ manual: n })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
})();

const keepAlive = setInterval(() => {}, 1000);
process.on('SIGTERM', () => {
  stopping = true;
  clearInterval(keepAlive);
  void manualLoop
    .then(() => engine.stop())
    // As the server shuts down: live orders get their drain time to become final.
    .then(() => core.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
