// A copy-engine process for the copy fault tests: the execution core and the copy engine on
// DATABASE_URL (else a file-backed PGlite in DATA_DIR), live Binance accounts on the ccxt fake at
// FAKE_URL. SETUP=1 writes a leader account and FOLLOWERS follower accounts (one API key each)
// with their relations (copy-fault-seed.ts), starts the engine and has the leader open its
// position: the engine fans the change out, CONCURRENCY relations at a time. SETUP=0 is the
// restart: the engine's start-up heal (engine.start() → tick) with a short timer; with REDELIVER=1
// the leader's change is delivered again (three times) before it. Either way the process prints
// every follower's copied size each POLL_MS ({"sizes": {relationId: size}}) until SIGTERM.
// For the two-process lease tests (copy-leases*.test.ts): HOLDER_ID, LEASE_TTL_MS, LEASE_RENEW_MS
// and RECONCILE_MS set the worker's leases and timer, EXCHANGE_TIMEOUT_MS its ccxt timeout;
// REDIS_URL (with EVENT_PREFIX) puts the events on Redis, heard by every process; COMMANDS=1
// reads JSON lines on stdin — {"lead": size, "key": k} has the leader trade to `size` here,
// {"changed": true} delivers the leader's change to this engine by hand — and each report also
// says the relations whose leases this process holds ("held") and every copy order it submitted
// ("submitted": [relation id, key]).
import { createInterface } from 'node:readline';
import { systemClock } from '../../src/common/clock.js';
import { copyLease, createLeases } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { openDatabase } from '../../src/db/client.js';
import { copyRelations } from '../../src/db/schema/index.js';
import { createInProcessEventBus, createRedisEventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import type { ExecutionCore } from '../../src/execution/index.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createCopyEngine } from '../../src/modules/copy-trading/copy-engine.js';
import { createOperationLogRepository } from '../../src/modules/operation-log/operation-log.repository.js';
import { createOperationLog } from '../../src/modules/operation-log/operation-log.service.js';
import { testExecutionCore } from '../helpers/execution-core.js';
import { COPY_SYMBOL, LEADER_SIZE } from './copy-fault-plan.js';
import { COPY_TEST_SECRET, seedCopyRelations } from './copy-fault-seed.js';

const env = process.env;
const print = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const clock = systemClock;
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
const db = database.db;
const secretBox = createSecretBox(COPY_TEST_SECRET);
const feed = createMarketFeed({
  mode: 'simulated',
  clock,
  fundingRates: createMemoryFundingRatesRepository(),
});
const stderrLog = {
  info: () => undefined,
  warn: () => undefined,
  error: (details: object, message: string) => {
    const err = (details as { err?: unknown }).err;
    process.stderr.write(`${message}: ${err instanceof Error ? err.message : ''}\n`);
  },
};

const events = env.REDIS_URL
  ? await createRedisEventBus({
      url: env.REDIS_URL,
      clock,
      log: stderrLog,
      ...(env.EVENT_PREFIX ? { prefix: env.EVENT_PREFIX } : {}),
    })
  : createInProcessEventBus({ clock });

const execution = testExecutionCore({
  db,
  clock,
  events,
  log: stderrLog,
  clients: createAccountClientCache({
    secretBox,
    factory: createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db,
      clock,
      prices: feedPriceSource(feed),
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({
          ...options,
          urlsOverride: env.FAKE_URL,
          timeoutMs: Number(env.EXCHANGE_TIMEOUT_MS ?? 10_000),
        }),
    }),
  }),
});
// The copy orders this process submits (the engine's only way to the venue), in order.
const submitted: [number, string][] = [];
const countedExecution: ExecutionCore = Object.assign(Object.create(execution), {
  submit: (intent: Parameters<ExecutionCore['submit']>[0]) => {
    if (intent.owner.kind === 'copy') submitted.push([intent.owner.id, intent.key]);
    return execution.submit(intent);
  },
});
const leases = createLeases({
  db,
  // The same worker restarted (as the embedded database's one worker always is): it takes its
  // relations' leases back at once. Another process would wait for them to expire.
  holderId: env.HOLDER_ID ?? 'copy-fault-worker',
  ...(env.LEASE_TTL_MS ? { ttlMs: Number(env.LEASE_TTL_MS) } : {}),
});
const engine = createCopyEngine({
  db,
  clock,
  execution: countedExecution,
  events,
  operationLog: createOperationLog({ repo: createOperationLogRepository(db), clock }),
  square: { adjustCopyFigures: async () => undefined },
  log: stderrLog,
  leases,
  ...(env.LEASE_RENEW_MS ? { leaseRenewMs: Number(env.LEASE_RENEW_MS) } : {}),
  concurrency: Number(env.CONCURRENCY ?? 4),
  // The first process copies on the leader's event alone; the restart's timer retries misses.
  reconcileIntervalMs: env.RECONCILE_MS
    ? Number(env.RECONCILE_MS)
    : env.SETUP === '1'
      ? 10 * 60_000
      : 1_000,
});

const leader =
  env.SETUP === '1'
    ? await seedCopyRelations(db, secretBox, clock, Number(env.FOLLOWERS))
    : undefined;
const relations = await db.select().from(copyRelations);
if (env.REDELIVER === '1' && relations[0]) {
  // The leader's change delivered again after the restart, three times, before the timer's heal
  // (the event path reconciles no intents first: only the orders' keys keep it from re-buying).
  const leaderAccountId = relations[0].leaderAccountId;
  await Promise.all([1, 2, 3].map(() => engine.leaderChanged(leaderAccountId, COPY_SYMBOL)));
}
engine.start();
// On Redis: the engine hears no event before its subscriptions are confirmed.
if ('ready' in events) await events.ready();
print({ ready: relations.map((r) => r.id) });

/** The leader's trade to `size`: its PositionChanged fans out to every follower. */
async function lead(size: number, key: string) {
  const first = relations[0];
  const account =
    leader ?? (first && { accountId: first.leaderAccountId, userId: first.leaderUserId });
  if (!account) throw new Error('no relation, no leader');
  await execution.submit({
    accountId: account.accountId,
    symbol: COPY_SYMBOL,
    owner: { kind: 'manual', id: account.userId },
    key,
    size: { kind: 'target', amount: size },
    action: 'manual',
  });
}

if (leader) {
  await lead(LEADER_SIZE, 'lead1');
  print({ leader: true });
}
if (env.COMMANDS === '1') {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as { lead?: number; key?: string; changed?: boolean };
    const done =
      command.lead !== undefined
        ? lead(command.lead, command.key ?? `lead-${command.lead}`).then(() => ({
            led: command.key,
          }))
        : engine
            .leaderChanged(relations[0]?.leaderAccountId ?? 0, COPY_SYMBOL)
            .then(() => ({ changed: true }));
    void done.then(print, (error: unknown) =>
      process.stderr.write(`command ${line} failed: ${String(error)}\n`),
    );
  });
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
    const held = relations.map((r) => r.id).filter((id) => leases.isHeld(copyLease(id)));
    print({ sizes, held, submitted });
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
