// A copy-engine process for the copy SIGKILL test: the execution core and the copy engine on
// DATABASE_URL (else a file-backed PGlite in DATA_DIR), live Binance accounts on the ccxt fake at
// FAKE_URL. SETUP=1 writes a leader account and FOLLOWERS follower accounts (one API key each)
// with their relations (copy-fault-plan.ts), starts the engine and has the leader open its
// position: the engine fans the change out, CONCURRENCY relations at a time. SETUP=0 is the
// restart: the engine's start-up heal (engine.start() → tick) with a short timer; with REDELIVER=1
// the leader's change is delivered again (three times) before it. Either way the process prints
// every follower's copied size each POLL_MS ({"sizes": {relationId: size}}) until SIGTERM.
import { systemClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { openDatabase } from '../../src/db/client.js';
import { copyRelations, exchangeAccounts, users } from '../../src/db/schema/index.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache, createExecutionCore } from '../../src/execution/index.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { createCopyEngine } from '../../src/modules/copy-trading/copy-engine.js';
import { createExchangeClientFactory } from '../../src/modules/exchange-accounts/exchange-client-factory.js';
import { createOperationLogRepository } from '../../src/modules/operation-log/operation-log.repository.js';
import { createOperationLog } from '../../src/modules/operation-log/operation-log.service.js';
import { createLeases } from '../../src/workers/leases.js';
import {
  COPY_SYMBOL,
  copyAmountOf,
  followerApiKey,
  LEADER_API_KEY,
  LEADER_EQUITY,
  LEADER_SIZE,
} from './copy-fault-plan.js';

const env = process.env;
const print = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const clock = systemClock;
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
const db = database.db;
const secretBox = createSecretBox('copy-fault-test-secret-key-0123456789-abc');
const feed = createMarketFeed({ mode: 'simulated', clock });
const events = createInProcessEventBus({ clock });
const stderrLog = {
  info: () => undefined,
  warn: () => undefined,
  error: (details: object, message: string) => {
    const err = (details as { err?: unknown }).err;
    process.stderr.write(`${message}: ${err instanceof Error ? err.message : ''}\n`);
  },
};

const execution = createExecutionCore({
  db,
  clock,
  events,
  log: stderrLog,
  clients: createAccountClientCache({
    secretBox,
    factory: createExchangeClientFactory({
      db,
      clock,
      prices: feedPriceSource(feed),
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({ ...options, urlsOverride: env.FAKE_URL, timeoutMs: 10_000 }),
    }),
  }),
});
const engine = createCopyEngine({
  db,
  clock,
  execution,
  events,
  operationLog: createOperationLog({ repo: createOperationLogRepository(db), clock }),
  square: { adjustCopyFigures: async () => undefined },
  log: stderrLog,
  // The same worker restarted (as the embedded database's one worker always is): it takes its
  // relations' leases back at once. Another process would wait for them to expire.
  leases: createLeases({ db, holderId: 'copy-fault-worker' }),
  concurrency: Number(env.CONCURRENCY ?? 4),
  // The first process copies on the leader's event alone; the restart's timer retries misses.
  reconcileIntervalMs: env.SETUP === '1' ? 10 * 60_000 : 1_000,
});

async function setup() {
  const now = clock.now();
  const account = async (label: string, apiKey: string) => {
    const [user] = await db
      .insert(users)
      .values({
        username: `${label}@example.com`,
        passwordHash: 'x',
        invitationCode: label.toUpperCase().replace(/[^A-Z0-9]/g, ''),
        dateJoined: now,
      })
      .returning();
    const [row] = await db
      .insert(exchangeAccounts)
      .values({
        userId: user!.id,
        name: label,
        exchange: 'binance',
        accountType: 'classic',
        positionMode: 'net',
        defaultLeverage: 2,
        apiKeyEncrypted: secretBox.encrypt(apiKey),
        apiSecretEncrypted: secretBox.encrypt(`${apiKey}-secret`),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { userId: user!.id, accountId: row!.id };
  };
  const leader = await account('copyleader', LEADER_API_KEY);
  const followers = Number(env.FOLLOWERS);
  for (let i = 0; i < followers; i++) {
    const follower = await account(`copyfollower${i}`, followerApiKey(i));
    await db.insert(copyRelations).values({
      followerUserId: follower.userId,
      followerAccountId: follower.accountId,
      leaderUserId: leader.userId,
      leaderAccountId: leader.accountId,
      copyAmount: String(copyAmountOf(i)),
      copyMode: 'normal',
      status: 'active',
      feePaid: '100',
      entryDistancePercent: 1,
      leaderEquityBase: String(LEADER_EQUITY),
      leaderEquityStart: String(LEADER_EQUITY),
      leaderEquityPeak: String(LEADER_EQUITY),
      leaderEquityLast: String(LEADER_EQUITY),
      leaderStartBook: {},
      createdAt: now,
      updatedAt: now,
    });
  }
  return leader;
}

const leader = env.SETUP === '1' ? await setup() : undefined;
const relations = await db.select().from(copyRelations);
if (env.REDELIVER === '1' && relations[0]) {
  // The leader's change delivered again after the restart, three times, before the timer's heal
  // (the event path reconciles no intents first: only the orders' keys keep it from re-buying).
  const leaderAccountId = relations[0].leaderAccountId;
  await Promise.all([1, 2, 3].map(() => engine.leaderChanged(leaderAccountId, COPY_SYMBOL)));
}
engine.start();
print({ ready: relations.map((r) => r.id) });
if (leader) {
  // The leader's trade: its PositionChanged fans out to every follower.
  await execution.submit({
    accountId: leader.accountId,
    symbol: COPY_SYMBOL,
    owner: { kind: 'manual', id: leader.userId },
    key: 'lead1',
    size: { kind: 'target', amount: LEADER_SIZE },
    action: 'manual',
  });
  print({ leader: true });
}

let polling = true;
const poll = (async () => {
  while (polling) {
    const sizes: Record<number, string> = {};
    for (const relation of relations) {
      const position = await execution.position({
        accountId: relation.followerAccountId,
        symbol: COPY_SYMBOL,
        owner: { kind: 'copy', id: relation.id },
      });
      sizes[relation.id] = position.size;
    }
    print({ sizes });
    await new Promise((resolve) => setTimeout(resolve, Number(env.POLL_MS ?? 200)));
  }
})();

process.on('SIGTERM', () => {
  polling = false;
  void poll
    .then(() => engine.stop())
    .then(() => execution.idle())
    .then(() => events.close())
    .then(() => database.close())
    .then(() => process.exit(0));
});
