// Order throughput of the execution core: orders/s across 1,000 accounts, each fan-out one
// intent per account (a leader's fill copied to 1,000 followers), (a) to the loopback ccxt fake
// exchange through the real ccxt client — the fake in a child process with the venue's
// per-account order limit enforced — and (b) to paper accounts; on PostgreSQL and PGlite. The
// peer, in the same run on the same accounts: the path orders took before the core (intent row,
// send, settle in a transaction of its own, one order at a time per owner). A measurement,
// never a test: nothing asserts times.
import { availableParallelism } from 'node:os';
import { applyFill } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { type Clock, systemClock } from '../packages/server/src/common/clock.js';
import type { Database } from '../packages/server/src/db/database.js';
import { exchangeAccounts, users } from '../packages/server/src/db/schema/index.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import {
  createCcxtExchangeClient,
  createCcxtMarketCache,
} from '../packages/server/src/exchange/ccxt/index.js';
import type { ExchangeClient } from '../packages/server/src/exchange/exchange-client.js';
import { createExchangeClientFactory } from '../packages/server/src/exchange/exchange-client-factory.js';
import type { PriceSource } from '../packages/server/src/exchange/paper/price-source.js';
import {
  createExecutionRepository,
  type ExecutionRepository,
} from '../packages/server/src/execution/execution.repository.js';
import {
  type AccountClients,
  clientOrderIdOf,
  createAccountClientCache,
  type ExecutionCore,
  type OrderIntent,
  type OrderOwner,
} from '../packages/server/src/execution/index.js';
import { writePaperBalances } from '../packages/server/src/modules/accounts/account-records.service.js';
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

const ACCOUNTS = Number(process.env.BENCH_ORDER_ACCOUNTS ?? 1000);
/** Measured fan-outs per case (one order per account each), after one warm-up fan-out. */
const FAN_OUTS = Number(process.env.BENCH_ORDER_FAN_OUTS ?? 3);
/** The old path is slow: one fan-out of it is enough for its rate (BENCH_ORDER_PEER_FAN_OUTS=0: none). */
const PEER_FAN_OUTS = Number(process.env.BENCH_ORDER_PEER_FAN_OUTS ?? 1);
const SYMBOL = 'ETH/USDT:USDT';
/** 0.02 ETH at the fake's 2,000: above Binance's 20 USDT minimum notional. */
const AMOUNT = 0.02;
const PRICE = 2000;
/** Which cases run (comma lists): BENCH_ORDER_DATABASES=pg,lite; BENCH_ORDER_TARGETS=live,paper. */
const DATABASES = (process.env.BENCH_ORDER_DATABASES ?? 'pg,lite').split(',');
const TARGETS = (process.env.BENCH_ORDER_TARGETS ?? 'live,paper').split(',');
/**
 * The figures to hold the core to (issue 21): the core before the order lifecycle, on this
 * bench's PostgreSQL case. Its code is not in this tree, so it cannot run beside today's here;
 * these are its recorded runs.
 */
const BEFORE_LIFECYCLE = {
  live: '1,315',
  paper: '2,631',
  sameSession:
    '1,221 live and 2,645–2,769 paper back to back with this tree in an earlier session; 1,488–1,928 paper beside 1,296–1,493 of this tree on a slower machine on 2026-11-29',
} as const;
/** BENCH_ORDER_PROFILE=<dir>: writes a V8 CPU profile of each measured core run there. */
const PROFILE_TO = process.env.BENCH_ORDER_PROFILE;

// ── accounts and clients ──────────────────────────────────────────────────────────────────────

interface Seeded {
  readonly live: number[];
  readonly paper: number[];
}

export async function seedAccounts(db: Database, clock: Clock, run: string): Promise<Seeded> {
  const now = clock.now();
  const [user] = await db
    .insert(users)
    .values({
      username: `orders-${run}@example.com`,
      passwordHash: 'bench-no-login',
      invitationCode: `O${run.toUpperCase()}`.slice(0, 8),
      dateJoined: now,
    })
    .returning({ id: users.id });
  const userId = user?.id ?? 0;
  const common = {
    userId,
    exchange: 'binance' as const,
    accountType: 'classic' as const,
    positionMode: 'net' as const,
    defaultLeverage: 2,
    createdAt: now,
    updatedAt: now,
  };
  const insert = async (values: (typeof exchangeAccounts.$inferInsert)[]) =>
    (await db.insert(exchangeAccounts).values(values).returning({ id: exchangeAccounts.id })).map(
      (row) => row.id,
    );
  const live = await insert(
    Array.from({ length: ACCOUNTS }, (_, i) => ({
      ...common,
      name: `live ${i}`,
      apiKeyEncrypted: secretBox.encrypt(`${run}-key-${i}`),
      apiSecretEncrypted: secretBox.encrypt(`${run}-secret-${i}`),
    })),
  );
  const paper = await insert(
    Array.from({ length: ACCOUNTS }, (_, i) => ({
      ...common,
      name: `paper ${i}`,
      isPaper: true,
      paperBalance: '1000000',
    })),
  );
  return { live, paper };
}

/** Paper fills at a fixed price (the feed's lookup is not what is measured here). */
const fixedPrice: PriceSource = {
  lastPrice: async () => PRICE,
  recentCandles: async () => [],
};

export function accountClients(db: Database, clock: Clock, fakeUrl: string): AccountClients {
  // As the server does: one market list per venue for every account.
  const marketCache = createCcxtMarketCache();
  return createAccountClientCache({
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
          urlsOverride: fakeUrl,
          timeoutMs: 30_000,
          marketCache,
        }),
    }),
  });
}

// ── the two paths ─────────────────────────────────────────────────────────────────────────────

/** One fan-out: an intent per account (owner: one copy relation per account). */
function fanOut(accounts: readonly number[], ownerBase: number, key: string, sell: boolean) {
  return accounts.map(
    (accountId, i): OrderIntent => ({
      accountId,
      symbol: SYMBOL,
      owner: { kind: 'copy', id: ownerBase + i },
      key,
      size: { kind: 'delta', amount: sell ? -AMOUNT : AMOUNT },
      action: sell ? 'sell' : 'buy',
      referencePrice: PRICE,
    }),
  );
}

interface Measured {
  readonly orders: number;
  readonly failed: number;
  readonly ms: number;
  readonly fanOutMs: number[];
  readonly firstError?: string;
}

export async function throughCore(
  core: ExecutionCore,
  accounts: readonly number[],
  ownerBase: number,
  run: string,
  fanOuts: number,
): Promise<Measured> {
  let orders = 0;
  let failed = 0;
  let firstError: string | undefined;
  const fanOutMs: number[] = [];
  for (let round = 0; round < fanOuts; round++) {
    const started = performance.now();
    const results = await core.submitMany(
      fanOut(accounts, ownerBase, `${run}f${round}`, round % 2 === 1),
    );
    fanOutMs.push(performance.now() - started);
    for (const result of results) {
      if (result.status === 'fulfilled' && result.value.status === 'filled') orders++;
      else {
        failed++;
        firstError ??=
          result.status === 'rejected' ? String(result.reason) : `status ${result.value.status}`;
      }
    }
  }
  return {
    orders,
    failed,
    ms: fanOutMs.reduce((a, b) => a + b, 0),
    fanOutMs,
    ...(firstError ? { firstError } : {}),
  };
}

/**
 * The path before the core, as the bot trader ran it: per order, the intent row written (one
 * round trip), the order sent, then settled in a transaction of its own (intent updated,
 * position read and written); each owner one order at a time, the owners side by side.
 */
async function oldPathOrder(
  repo: ExecutionRepository,
  client: ExchangeClient,
  accountId: number,
  owner: OrderOwner,
  key: string,
  sell: boolean,
  clock: Clock,
): Promise<void> {
  const clientOrderId = clientOrderIdOf(owner, key);
  const side = sell ? ('sell' as const) : ('buy' as const);
  const [row] = await repo.insertIntents([
    {
      accountId,
      symbol: SYMBOL,
      ownerKind: owner.kind,
      ownerId: owner.id,
      idempotencyKey: key,
      clientOrderId,
      action: side,
      side,
      type: 'market',
      amount: String(AMOUNT),
      createdAt: clock.now(),
      updatedAt: clock.now(),
    },
  ]);
  if (!row) throw new Error('intent not written');
  const order = await client.createOrder({
    symbol: SYMBOL,
    side,
    type: 'market',
    amount: AMOUNT,
    clientOrderId,
  });
  await repo.transaction(async (tx) => {
    const [intent = row] = await tx.lockIntents([row.id]);
    const [held] = await tx.lockPositions([{ accountId, symbol: SYMBOL, owner }]);
    const applied = applyFill(
      {
        size: new Decimal(held?.size ?? 0),
        entryPrice: new Decimal(held?.entryPrice ?? 0),
        entryFee: new Decimal(held?.entryFee ?? 0),
      },
      {
        amount: new Decimal(order.filled).times(sell ? -1 : 1),
        price: new Decimal(order.averagePrice ?? 0),
        fee: new Decimal(order.fee),
      },
    );
    const now = clock.now();
    await tx.saveIntents([
      {
        ...intent,
        status: order.filled > 0 ? 'filled' : 'rejected',
        exchangeOrderId: order.id,
        filledAmount: String(order.filled),
        averagePrice: order.averagePrice === null ? null : String(order.averagePrice),
        fee: String(order.fee),
        updatedAt: now,
      },
    ]);
    await tx.upsertPositions([
      {
        accountId,
        symbol: SYMBOL,
        ownerKind: owner.kind,
        ownerId: owner.id,
        size: applied.position.size.toString(),
        entryPrice: applied.position.entryPrice.toString(),
        entryFee: applied.position.entryFee.toString(),
        realizedPnl: new Decimal(held?.realizedPnl ?? 0).plus(applied.realizedPnl).toString(),
        openedAt: held?.openedAt ?? now,
        updatedAt: now,
      },
    ]);
  });
}

async function throughOldPath(
  db: Database,
  clients: AccountClients,
  accounts: readonly number[],
  ownerBase: number,
  run: string,
  clock: Clock,
): Promise<Measured> {
  const repo = createExecutionRepository(db);
  const byId = new Map((await repo.accounts(accounts)).map((row) => [row.id, row]));
  let orders = 0;
  let failed = 0;
  let firstError: string | undefined;
  const fanOutMs: number[] = [];
  for (let round = 0; round < PEER_FAN_OUTS; round++) {
    const started = performance.now();
    await Promise.all(
      accounts.map(async (accountId, i) => {
        const account = byId.get(accountId);
        if (!account) return;
        try {
          await oldPathOrder(
            repo,
            clients(account),
            accountId,
            { kind: 'manual', id: ownerBase + i },
            `${run}o${round}`,
            round % 2 === 1,
            clock,
          );
          orders++;
        } catch (error) {
          failed++;
          firstError ??= String(error);
        }
      }),
    );
    fanOutMs.push(performance.now() - started);
  }
  return {
    orders,
    failed,
    ms: fanOutMs.reduce((a, b) => a + b, 0),
    fanOutMs,
    ...(firstError ? { firstError } : {}),
  };
}

/**
 * The floor under the live figure: the same accounts' ccxt clients sending one fan-out straight
 * to the fake, with no intent, book or database (what the exchange client alone costs).
 */
async function throughClientsAlone(
  core: ExecutionCore,
  accounts: readonly number[],
  run: string,
): Promise<Measured & { cpuUs: number }> {
  const clients = await Promise.all(
    accounts.map(async (id) => core.clientOf(await core.account(id))),
  );
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let orders = 0;
  let failed = 0;
  let firstError: string | undefined;
  await Promise.all(
    clients.map(async (client, i) => {
      try {
        await client.createOrder({
          symbol: SYMBOL,
          side: 'buy',
          type: 'market',
          amount: AMOUNT,
          clientOrderId: `qbench${run}a${i}`,
        });
        orders++;
      } catch (error) {
        failed++;
        firstError ??= String(error);
      }
    }),
  );
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    orders,
    failed,
    ms,
    fanOutMs: [ms],
    cpuUs: (cpu.user + cpu.system) / Math.max(orders, 1),
    ...(firstError ? { firstError } : {}),
  };
}

// ── the run ───────────────────────────────────────────────────────────────────────────────────

const rate = (m: Measured) => (m.ms > 0 ? (m.orders / m.ms) * 1000 : 0);
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function describe(m: Measured): string {
  const failures = m.failed > 0 ? `; ${m.failed} FAILED (${m.firstError})` : '';
  return `${m.orders} orders in ${m.ms.toFixed(0)} ms: ${rate(m).toFixed(0)} orders/s (a fan-out to ${ACCOUNTS} accounts: median ${median(m.fanOutMs).toFixed(0)} ms)${failures}`;
}

async function benchDatabase(
  database: BenchDatabase,
  fake: FakeProcess,
  run: string,
): Promise<string[]> {
  const db = database.handle.db;
  const clock = systemClock;
  const seeded = await seedAccounts(db, clock, run);
  const clients = accountClients(db, clock, fake.url);
  const events = createInProcessEventBus({ clock });
  const core = benchCore({ db, clock, clients, events });
  const lines: string[] = [`  ${database.label}`];
  for (const [target, accounts] of [
    ['live', seeded.live],
    ['paper', seeded.paper],
  ] as const) {
    if (!TARGETS.includes(target)) continue;
    // Warm-up, not counted: ccxt loads its markets, leverage is set, plans are cached.
    const warm = await throughCore(core, accounts, 0, `${run}w`, 1);
    const before = await fake.stats();
    const profiling = PROFILE_TO ? await startProfile() : null;
    const cpuBefore = process.cpuUsage();
    const databaseCpuBefore = database.url ? postgresCpuMs() : null;
    const measured = await throughCore(core, accounts, 0, run, FAN_OUTS + 1);
    const cpu = process.cpuUsage(cpuBefore);
    const databaseCpuAfter = database.url ? postgresCpuMs() : null;
    if (profiling) await profiling.stopTo(`${PROFILE_TO}/orders-${target}-${run}.cpuprofile`);
    const middle = await fake.stats();
    const peer = await throughOldPath(db, clients, accounts, ACCOUNTS, run, clock);
    const alone = target === 'live' ? await throughClientsAlone(core, accounts, run) : null;
    const after = await fake.stats();
    const perOrderUs = (ms: number) => ((ms * 1000) / Math.max(measured.orders, 1)).toFixed(0);
    lines.push(
      `    ${target === 'live' ? 'live (ccxt → fake)' : 'paper'}:`,
      `      execution core:  ${describe(measured)}`,
      ...(peer.orders > 0
        ? [
            `      old order path:  ${describe(peer)}  → core ${(rate(measured) / rate(peer)).toFixed(1)}×`,
          ]
        : []),
      `      CPU per order through the core: ${perOrderUs((cpu.user + cpu.system) / 1000)} µs in this process${target === 'live' ? `, ${perOrderUs(middle.cpuMs - before.cpuMs)} µs in the fake's` : ''}${databaseCpuBefore !== null && databaseCpuAfter !== null ? `, ${perOrderUs(databaseCpuAfter - databaseCpuBefore)} µs in PostgreSQL's` : ''}`,
    );
    if (alone) {
      // What an order costs outside the core: the ccxt client's own work, the fake's and the
      // database's. At that cost the machine's CPUs bound the rate even if the core were free.
      const fakeUs = ((middle.cpuMs - before.cpuMs) * 1000) / Math.max(measured.orders, 1);
      const databaseUs =
        databaseCpuBefore !== null && databaseCpuAfter !== null
          ? ((databaseCpuAfter - databaseCpuBefore) * 1000) / Math.max(measured.orders, 1)
          : 0;
      const cpus = availableParallelism();
      const outside = alone.cpuUs + fakeUs + databaseUs;
      lines.push(
        `      exchange clients alone (lean requests; no core, no database): ${describe(alone)}; ${alone.cpuUs.toFixed(0)} µs CPU per order`,
        `      ceiling on this machine if the core cost nothing: ${cpus} CPUs ÷ (${alone.cpuUs.toFixed(0)} µs client + ${fakeUs.toFixed(0)} µs fake${databaseUs > 0 ? ` + ${databaseUs.toFixed(0)} µs PostgreSQL` : ''}) = ${((cpus * 1e6) / outside).toFixed(0)} orders/s; one process ≤ ${(1e6 / alone.cpuUs).toFixed(0)} orders/s (the client's own CPU)`,
      );
    }
    if (warm.failed > 0) lines.push(`      warm-up: ${warm.failed} FAILED (${warm.firstError})`);
    if (target === 'live') {
      lines.push(
        `      fake exchange: ${after.orders - before.orders} orders received, ${middle.lookups - before.lookups} other requests during the core's run (its trades of each order), ${after.rateLimitRejections - before.rateLimitRejections} rate-limit rejections`,
      );
    }
  }
  await core.idle();
  await events.close();
  return lines;
}

export async function benchOrders(log: (line: string) => void = () => {}): Promise<string[]> {
  const fake = await startFakeProcess();
  const lines = [
    `orders through the execution core: ${ACCOUNTS} accounts, fan-outs of one ${AMOUNT} ETH market order per account (submitMany; ${FAN_OUTS + 1} measured after a warm-up), intent + send + settle + position + events`,
    `  fake exchange: binanceusdm over loopback HTTP to a child process (lean requests, ccxt parsing), ${fake.limit.limit} orders per ${fake.limit.windowMs / 1000} s per account enforced; old path: ${PEER_FAN_OUTS} fan-out, intent insert, send, settle in its own transaction, per order`,
    `  the core before the order lifecycle (b5e60a3), PostgreSQL: ${BEFORE_LIFECYCLE.live} live and ${BEFORE_LIFECYCLE.paper} paper orders/s on a quiet day; ${BEFORE_LIFECYCLE.sameSession} (see docs/architecture.md)`,
  ];
  try {
    for (const [open, run] of [
      [() => openBenchPostgres('qs_bench_orders'), 'pg'],
      [openBenchPglite, 'lite'],
    ] as const) {
      if (!DATABASES.includes(run)) continue;
      const database = await open();
      try {
        const part = await benchDatabase(database, fake, run);
        for (const line of part) log(line);
        lines.push(...part);
      } finally {
        await database.drop();
      }
    }
  } finally {
    await fake.stop();
  }
  return lines;
}
