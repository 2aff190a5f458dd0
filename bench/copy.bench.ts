// Copy trading fan-out: one leader change copied to 1,000 followers through the copy engine and
// the execution core (receipt reads, intent rows, the follower's order, settlement, receipts and
// figures), (a) to paper followers and (b) to live followers on the loopback fake exchange
// through the real ccxt client (the fake in a process of its own, the venue's per-account order
// limit enforced); on PostgreSQL and PGlite. Two changes each: the first order of every follower
// (leverage set at the venue; the clients were built and their markets loaded when the engine
// started, as the engine does: 'cold') and the leader adding to its position
// ('warm', the steady state). Prints p50/p99/last from the leader's PositionChanged event to each
// follower's settled order, and CPU per follower. Beside them, in the same run, the floors no
// implementation on this machine can go under: the followers' ccxt clients alone sending one
// order each to the fake, and the rows a change must write for every paper follower written by
// hand in one set-based transaction. A measurement, never a test.

import pg from 'pg';
import { systemClock } from '../packages/server/src/common/clock.js';
import { createLeases } from '../packages/server/src/common/leases.js';
import type { Database } from '../packages/server/src/db/database.js';
import { copyRelations, exchangeAccounts, users } from '../packages/server/src/db/schema/index.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import {
  createCcxtExchangeClient,
  createCcxtMarketCache,
} from '../packages/server/src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../packages/server/src/exchange/exchange-client-factory.js';
import type { PriceSource } from '../packages/server/src/exchange/paper/price-source.js';
import {
  createAccountClientCache,
  type ExecutionCore,
} from '../packages/server/src/execution/index.js';
import { writePaperBalances } from '../packages/server/src/modules/accounts/account-records.service.js';
import { createCopyEngine } from '../packages/server/src/modules/copy-trading/copy-engine.js';
import {
  type BenchDatabase,
  benchCore,
  type FakeProcess,
  openBenchPglite,
  openBenchPostgres,
  postgresCpuMs,
  secretBox,
  startFakeProcess,
  startProfile,
} from './bench-support.js';

const FOLLOWERS = Number(process.env.BENCH_COPY_FOLLOWERS ?? 1000);
/** Which cases run (comma lists): BENCH_COPY_DATABASES=pg,lite; BENCH_COPY_TARGETS=paper,live. */
const DATABASES = (process.env.BENCH_COPY_DATABASES ?? 'pg,lite').split(',');
const TARGETS = (process.env.BENCH_COPY_TARGETS ?? 'paper,live').split(',');
const SYMBOL = 'ETH/USDT:USDT';
/** The fake exchange's ETH price; the paper feed answers the same. */
const PRICE = 2000;
/** Leader sizes of the two changes: × 100 / 10,000 → 0.02 then 0.04 ETH per follower. */
const LEADER_SIZES = [2, 4] as const;
/** A change not copied to every follower within this long is reported as such. */
const DEADLINE_MS = 180_000;

/** BENCH_COPY_PROFILE=<dir>: writes a V8 CPU profile of each change there. */
const PROFILE_TO = process.env.BENCH_COPY_PROFILE;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const fixedPrice: PriceSource = { lastPrice: async () => PRICE, recentCandles: async () => [] };

async function seed(db: Database, target: 'paper' | 'live') {
  const now = systemClock.now();
  const run = Math.random().toString(36).slice(2, 8);
  const [leader, follower] = await db
    .insert(users)
    .values(
      ['leader', 'follower'].map((name) => ({
        username: `copy-${name}-${run}@example.com`,
        passwordHash: 'bench-no-login',
        invitationCode: `C${name[0]}${run}`.toUpperCase(),
        dateJoined: now,
      })),
    )
    .returning();
  const common = {
    exchange: 'binance' as const,
    accountType: 'classic' as const,
    positionMode: 'net' as const,
    defaultLeverage: 5,
    createdAt: now,
    updatedAt: now,
  };
  const [leaderAccount] = await db
    .insert(exchangeAccounts)
    .values({
      ...common,
      userId: leader!.id,
      name: 'leader',
      isPaper: true,
      paperBalance: '10000',
    })
    .returning();
  const followers = await db
    .insert(exchangeAccounts)
    .values(
      Array.from({ length: FOLLOWERS }, (_, i) => ({
        ...common,
        userId: follower!.id,
        name: `follower ${i}`,
        ...(target === 'paper'
          ? { isPaper: true, paperBalance: '10000' }
          : {
              apiKeyEncrypted: secretBox.encrypt(`${run}-key-${i}`),
              apiSecretEncrypted: secretBox.encrypt(`${run}-secret-${i}`),
            }),
      })),
    )
    .returning();
  const relations = await db
    .insert(copyRelations)
    .values(
      followers.map((account) => ({
        followerUserId: follower!.id,
        followerAccountId: account.id,
        leaderUserId: leader!.id,
        leaderAccountId: leaderAccount!.id,
        copyAmount: '100',
        copyMode: 'normal' as const,
        feePaid: '100',
        entryDistancePercent: 1,
        leaderEquityBase: '10000',
        leaderEquityStart: '10000',
        leaderEquityPeak: '10000',
        leaderEquityTrough: '10000',
        leaderEquityLast: '10000',
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: copyRelations.id });
  return {
    leaderUserId: leader!.id,
    leaderAccountId: leaderAccount!.id,
    relations,
    followerAccountIds: followers.map((account) => account.id),
  };
}

/**
 * The floor under the live figure: every follower's ccxt client sends one order straight to the
 * fake, all at once, with nothing of ours around it. Wall time to the last acknowledgement.
 */
async function clientsAlone(
  execution: ExecutionCore,
  accountIds: readonly number[],
): Promise<{ orders: number; ms: number }> {
  const clients = await Promise.all(
    accountIds.map(async (id) => execution.clientOf(await execution.account(id))),
  );
  const run = Math.random().toString(36).slice(2, 8);
  const started = performance.now();
  const sent = await Promise.allSettled(
    clients.map((client, i) =>
      client.createOrder({
        symbol: SYMBOL,
        side: 'buy',
        type: 'market',
        amount: 0.02,
        clientOrderId: `qbalone${run}${i}`,
      }),
    ),
  );
  return {
    orders: sent.filter((result) => result.status === 'fulfilled').length,
    ms: performance.now() - started,
  };
}

/**
 * The floor under any implementation that keeps every follower's copy durable: the rows one
 * leader change writes for every paper follower (the intent, the paper order, its fill, the
 * paper position, the balance, the owner's position, the intent marked filled, the receipt,
 * the relation's figures), each table in ONE set-based statement and all in one transaction,
 * with no reads, no maths and no events. Wall time and the database's CPU for it.
 */
async function durableFloor(
  url: string,
  seeded: Awaited<ReturnType<typeof seed>>,
  round: number,
): Promise<{ wallMs: number; databaseCpuMs: number | null }> {
  const accounts = seeded.followerAccountIds;
  const relations = seeded.relations.map((r) => r.id);
  const key = `floor${round}`;
  const clientIds = relations.map((id) => `${key}r${id}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cpuBefore = postgresCpuMs();
    const started = performance.now();
    await client.query('begin');
    const intents = await client.query<{ id: number }>(
      `insert into execution_orders (account_id, symbol, owner_kind, owner_id, idempotency_key,
         client_order_id, action, side, type, amount, created_at, updated_at)
       select u.a, $4, 'copy', u.r, $5, u.c, 'copy', 'buy', 'market', 0.02, now(), now()
       from unnest($1::integer[], $2::integer[], $3::text[]) as u(a, r, c)
       returning id`,
      [accounts, relations, clientIds, SYMBOL, key],
    );
    const orders = await client.query<{ id: number }>(
      `insert into paper_orders (account_id, client_order_id, symbol, side, type, status, amount,
         filled, average_price, reduce_only, fee, created_at, filled_at)
       select u.a, u.c, $3, 'buy', 'market', 'closed', 0.02, 0.02, $4, false, 0.016, now(), now()
       from unnest($1::integer[], $2::text[]) as u(a, c)
       returning id`,
      [accounts, clientIds, SYMBOL, PRICE],
    );
    await client.query(
      `insert into paper_fills (account_id, order_id, symbol, side, amount, price, fee,
         realized_pnl, created_at)
       select u.a, u.o, $3, 'buy', 0.02, $4, 0.016, 0, now()
       from unnest($1::integer[], $2::integer[]) as u(a, o)`,
      [accounts, orders.rows.map((row) => row.id), SYMBOL, PRICE],
    );
    await client.query(
      `insert into paper_positions (account_id, symbol, side, amount, entry_price, leverage, updated_at)
       select u.a, $2, 'long', 0.02, $3, 5, now() from unnest($1::integer[]) as u(a)
       on conflict (account_id, symbol, side) do update set
         amount = paper_positions.amount + excluded.amount,
         entry_price = excluded.entry_price, updated_at = excluded.updated_at`,
      [accounts, SYMBOL, PRICE],
    );
    await client.query(
      `update exchange_accounts set paper_balance = paper_balance - 0.016, updated_at = now()
       from unnest($1::integer[]) as u(a) where exchange_accounts.id = u.a`,
      [accounts],
    );
    await client.query(
      `insert into execution_positions (account_id, symbol, owner_kind, owner_id, size,
         entry_price, entry_fee, opened_at, updated_at)
       select u.a, $3, 'copy', u.r, 0.02, $4, 0.016, now(), now()
       from unnest($1::integer[], $2::integer[]) as u(a, r)
       on conflict (account_id, symbol, owner_kind, owner_id) do update set
         size = execution_positions.size + excluded.size, entry_price = excluded.entry_price,
         entry_fee = execution_positions.entry_fee + excluded.entry_fee,
         updated_at = excluded.updated_at`,
      [accounts, relations, SYMBOL, PRICE],
    );
    await client.query(
      `update execution_orders set status = 'filled', filled_amount = 0.02, average_price = $2,
         fee = 0.016, updated_at = now()
       where id = any($1::integer[])`,
      [intents.rows.map((row) => row.id), PRICE],
    );
    await client.query(
      `insert into copy_receipts (relation_id, change_key, symbol, leader_size, leader_size_delta,
         leader_price, leader_filled_at, target_size, follower_size_delta, follower_price,
         slippage_bps, delay_ms, status, relation_pnl, created_at, updated_at)
       select u.r, $2, $3, 2, 2, $4, now(), 0.02, 0.02, $4, 0, 1, 'copied', -0.016, now(), now()
       from unnest($1::integer[]) as u(r)`,
      [relations, key, SYMBOL, PRICE],
    );
    await client.query(
      `update copy_relations set total_profit_loss = total_profit_loss - 0.016,
         total_copied_trades = total_copied_trades + 1, updated_at = now()
       where id = any($1::integer[])`,
      [relations],
    );
    await client.query('commit');
    const wallMs = performance.now() - started;
    const cpuAfter = postgresCpuMs();
    return {
      wallMs,
      databaseCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    };
  } finally {
    await client.end();
  }
}

async function benchCase(
  database: BenchDatabase,
  target: 'paper' | 'live',
  fake: FakeProcess | null,
): Promise<string[]> {
  const db = database.handle.db;
  const clock = systemClock;
  // As the server does: one market list per venue for every account.
  const marketCache = createCcxtMarketCache();
  const clients = createAccountClientCache({
    secretBox,
    factory: createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db,
      clock,
      prices: fixedPrice,
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({
          ...options,
          urlsOverride: fake?.url ?? 'http://127.0.0.1:9',
          timeoutMs: 60_000,
          marketCache,
        }),
    }),
  });
  const events = createInProcessEventBus({ clock });
  const execution: ExecutionCore = benchCore({ db, clock, clients, events });
  const seeded = await seed(db, target);
  const engine = createCopyEngine({
    db,
    clock,
    execution,
    events,
    leases: createLeases({ db }),
    operationLog: { record: async () => undefined },
    square: { adjustCopyFigures: async () => undefined },
    reconcileIntervalMs: 3_600_000,
  });
  engine.start();
  await engine.idle();
  const before = fake ? await fake.stats() : null;

  const lines: string[] = [];
  let warmP99Ms: number | null = null;
  for (const [index, size] of LEADER_SIZES.entries()) {
    let leaderAt = 0;
    const done: number[] = [];
    const off = events.subscribe('PositionChanged', (event) => {
      const at = performance.now();
      if (event.payload.accountId === seeded.leaderAccountId) leaderAt = at;
      else if (event.payload.owner.kind === 'copy') done.push(at);
    });
    const profiling = PROFILE_TO ? await startProfile() : null;
    const cpu = process.cpuUsage();
    await execution.submit({
      accountId: seeded.leaderAccountId,
      symbol: SYMBOL,
      owner: { kind: 'manual', id: seeded.leaderUserId },
      key: `benchleader${index}`,
      size: { kind: 'target', amount: size },
      action: 'manual',
    });
    while (leaderAt === 0 || done.length < FOLLOWERS) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (leaderAt !== 0 && performance.now() - leaderAt > DEADLINE_MS) break;
    }
    await engine.idle();
    const used = process.cpuUsage(cpu);
    if (profiling)
      await profiling.stopTo(
        `${PROFILE_TO}/copy-${target}-${database.label}-${index === 0 ? 'cold' : 'warm'}.cpuprofile`,
      );
    off();
    const delays = done.map((at) => at - leaderAt).sort((a, b) => a - b);
    if (index === LEADER_SIZES.length - 1 && done.length === FOLLOWERS) {
      warmP99Ms = percentile(delays, 99);
    }
    lines.push(
      `  ${index === 0 ? 'cold (first order of each follower: leverage set)' : 'warm (the leader adds)'}: ${done.length}/${FOLLOWERS} copied; p50 ${percentile(delays, 50).toFixed(0)} ms, p99 ${percentile(delays, 99).toFixed(0)} ms, last ${(delays.at(-1) ?? 0).toFixed(0)} ms; CPU ${((used.user + used.system) / 1000 / FOLLOWERS).toFixed(2)} ms per follower`,
    );
  }
  await engine.stop();
  const after = fake ? await fake.stats() : null;
  let failed = 0;
  for (const relation of seeded.relations) {
    const intents = await execution.intentsOf({ kind: 'copy', id: relation.id });
    failed += intents.filter((intent) => intent.status !== 'filled').length;
  }
  const venue =
    target === 'live' && before && after
      ? `; the fake saw ${after.orders - before.orders} orders, ${after.rateLimitRejections - before.rateLimitRejections} rate-limit rejections`
      : '';
  // The floors, after the engine's figures (they add orders and rows of their own).
  if (target === 'live') {
    const alone = await clientsAlone(execution, seeded.followerAccountIds);
    lines.push(
      `  ccxt clients alone (one order per follower straight to the fake: no engine, no core, no database): ${alone.orders}/${FOLLOWERS} in ${alone.ms.toFixed(0)} ms`,
    );
  }
  if (target === 'paper' && database.url) {
    // Two rounds, as the engine ran two changes (the second one updates what the first made).
    await durableFloor(database.url, seeded, 0);
    const floor = await durableFloor(database.url, seeded, 1);
    lines.push(
      `  durable floor (the same rows, one set-based statement per table, one transaction, no reads, no maths): ${floor.wallMs.toFixed(0)} ms${floor.databaseCpuMs === null ? '' : `, ${floor.databaseCpuMs} ms of PostgreSQL CPU`}`,
    );
    lines.push(
      warmP99Ms === null
        ? '  warm p99 / floor: not measured (the warm change did not reach every follower)'
        : `  warm p99 / floor: ${(warmP99Ms / floor.wallMs).toFixed(1)}× (goal ≤ 2.5×)`,
    );
  }
  return [
    `${target === 'paper' ? 'paper followers' : 'ccxt followers (loopback fake Binance)'} on ${database.label}: ${failed} orders not filled${venue}`,
    ...lines,
  ];
}

export async function benchCopy(): Promise<string[]> {
  const lines = [
    `one leader change → ${FOLLOWERS} followers, from the leader's PositionChanged to each follower's settled order (goal p99 ≤ 50 ms for paper, ≤ 250 ms for ccxt)`,
  ];
  const fake = TARGETS.includes('live') ? await startFakeProcess() : null;
  try {
    for (const [open, name] of [
      [() => openBenchPostgres('qs_bench_copy'), 'pg'],
      [openBenchPglite, 'lite'],
    ] as const) {
      if (!DATABASES.includes(name)) continue;
      for (const target of ['paper', 'live'] as const) {
        if (!TARGETS.includes(target)) continue;
        const database = await open();
        try {
          lines.push(...(await benchCase(database, target, fake)));
        } catch (error) {
          lines.push(`${target} on ${database.label}: failed — ${String(error)}`);
        } finally {
          await database.drop();
        }
      }
    }
  } finally {
    await fake?.stop();
  }
  return lines;
}
