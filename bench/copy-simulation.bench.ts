// The copy simulator over HTTP (GET /api/strategy-square/strategies/{id}/copy-simulation/): a
// public strategy with a year of recorded fills (an order every 20 minutes on BTC and ETH, every
// fifth in two partial fills) and hourly balance snapshots, on PostgreSQL and PGlite, through the
// app's inject. Cold: a new (amount, mode, period, venue) each request, so the answer is computed
// (fills read, the replay through the copy engine's decision); warm: the same request again, kept
// until the leader's next fill. Goal: ≤ 300 ms cold. A measurement, never a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app.js';
import { systemClock } from '../packages/server/src/common/clock.js';
import { createServices } from '../packages/server/src/composition.js';
import { type Config, loadConfig } from '../packages/server/src/config.js';
import type { Database } from '../packages/server/src/db/database.js';
import {
  balanceSnapshots,
  exchangeAccounts,
  executionFills,
  executionOrders,
  strategyShareSettings,
  users,
} from '../packages/server/src/db/schema/index.js';
import { type BenchDatabase, openBenchPglite, openBenchPostgres } from './bench-support.js';

const DATABASES = (process.env.BENCH_COPY_SIM_DATABASES ?? 'pg,lite').split(',');
const DAY_MS = 86_400_000;
const ORDER_EVERY_MS = 20 * 60_000;
const COLD_RUNS = Number(process.env.BENCH_COPY_SIM_RUNS ?? 12);
const WARM_RUNS = 50;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Deterministic pseudo-random numbers (a bench must be repeatable). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function seed(db: Database): Promise<{ accountId: number; fills: number }> {
  const now = Date.now();
  const run = Math.random().toString(36).slice(2, 8);
  const [user] = await db
    .insert(users)
    .values({
      username: `copysim-${run}@example.com`,
      passwordHash: 'bench-no-login',
      invitationCode: `S${run}`.toUpperCase(),
      dateJoined: new Date(now - 400 * DAY_MS),
    })
    .returning();
  const [account] = await db
    .insert(exchangeAccounts)
    .values({
      userId: user!.id,
      name: 'A year of fills',
      exchange: 'binance',
      accountType: 'classic',
      positionMode: 'net',
      defaultLeverage: 3,
      isPaper: true,
      paperBalance: '100000',
      createdAt: new Date(now - 400 * DAY_MS),
      updatedAt: new Date(now),
    })
    .returning();
  const accountId = account!.id;
  await db.insert(strategyShareSettings).values({
    accountId,
    userId: user!.id,
    name: 'A year of fills',
    isPublic: true,
    createdAt: new Date(now - 365 * DAY_MS),
    updatedAt: new Date(now),
  });
  const next = random(7);
  const symbols = [
    { symbol: 'BTC/USDT:USDT', price: 60_000, max: 1.5, step: 0.001 },
    { symbol: 'ETH/USDT:USDT', price: 3_000, max: 20, step: 0.01 },
  ];
  const held = new Map<string, number>();
  const orders: (typeof executionOrders.$inferInsert)[] = [];
  const fillsOf: { order: number; rows: Omit<typeof executionFills.$inferInsert, 'orderId'>[] }[] =
    [];
  let index = 0;
  for (let at = now - 365 * DAY_MS; at < now - 60_000; at += ORDER_EVERY_MS, index++) {
    const market = symbols[index % 2]!;
    market.price *= 1 + (next() - 0.5) * 0.01;
    const target = Math.round(((next() * 2 - 1) * market.max) / market.step) * market.step;
    const size = held.get(market.symbol) ?? 0;
    const delta = Number((target - size).toFixed(6));
    if (delta === 0) continue;
    held.set(market.symbol, target);
    const side = delta > 0 ? 'buy' : 'sell';
    const amount = Math.abs(delta);
    const price = Number(market.price.toFixed(2));
    const time = new Date(at);
    orders.push({
      accountId,
      symbol: market.symbol,
      ownerKind: 'bot',
      ownerId: 1,
      idempotencyKey: `bench-${index}`,
      clientOrderId: `bench${index}`,
      action: 'bench',
      side,
      type: 'market',
      amount: String(amount),
      status: 'filled',
      filledAmount: String(amount),
      averagePrice: String(price),
      createdAt: time,
      updatedAt: time,
    });
    const parts = index % 5 === 0 ? [amount / 2, amount - amount / 2] : [amount];
    fillsOf.push({
      order: orders.length - 1,
      rows: parts.map((part, leg) => ({
        accountId,
        venueTradeId: `t${index}-${leg}`,
        symbol: market.symbol,
        side,
        amount: String(Number(part.toFixed(8))),
        price: String(price),
        feeCost: String(((part * price * 5) / 10_000).toFixed(8)),
        feeCurrency: 'USDT',
        feeQuote: String(((part * price * 5) / 10_000).toFixed(8)),
        filledAt: new Date(at + leg * 1_000),
        createdAt: new Date(at + leg * 1_000),
      })),
    });
  }
  let fills = 0;
  for (let start = 0; start < orders.length; start += 1_000) {
    const ids = await db
      .insert(executionOrders)
      .values(orders.slice(start, start + 1_000))
      .returning({ id: executionOrders.id });
    const rows = fillsOf
      .slice(start, start + 1_000)
      .flatMap((entry, i) => entry.rows.map((row) => ({ ...row, orderId: ids[i]!.id })));
    fills += rows.length;
    await db.insert(executionFills).values(rows);
  }
  const snapshots: (typeof balanceSnapshots.$inferInsert)[] = [];
  for (let at = now - 365 * DAY_MS; at < now; at += 3_600_000) {
    snapshots.push({
      accountId,
      takenAt: new Date(at),
      equity: String((100_000 + (next() - 0.5) * 2_000).toFixed(2)),
      dailyPnl: '0',
    });
  }
  for (let start = 0; start < snapshots.length; start += 2_000) {
    await db.insert(balanceSnapshots).values(snapshots.slice(start, start + 2_000));
  }
  return { accountId, fills };
}

async function benchOn(bench: BenchDatabase): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-copysim-bench-'));
  const config: Config = Object.freeze({
    ...loadConfig(
      {
        NODE_ENV: 'test',
        SECRET_KEY: 'bench-secret-key-0123456789-abcdefghijkl',
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
        MARKET_DATA: 'simulated',
      },
      { generateSecret: false },
    ),
    authIpRatePerMinute: 1_000_000,
  });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const { db, kind } = bench.handle;
  const seeded = await seed(db);
  const services = await createServices({
    config,
    db,
    databaseKind: kind,
    clock: systemClock,
    log: quiet,
  });
  const app = await buildApp({
    config,
    db,
    databaseKind: kind,
    logger: false,
    services,
  });
  await app.ready();
  const lines = [`${bench.label}: ${seeded.fills.toLocaleString('en')} fills over 365 days`];
  try {
    const get = async (query: string) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: `/api/strategy-square/strategies/${seeded.accountId}/copy-simulation/?${query}`,
        headers: { 'accept-language': 'en' },
      });
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return { elapsed, cpuMs, body: res.json() as { trades: number; leader_changes: number } };
    };
    await get('copy_amount=99&days=7'); // warms the code paths (JIT), not measured
    for (const days of [7, 30, 90]) {
      const cold: number[] = [];
      const coldCpu: number[] = [];
      let changes = 0;
      let trades = 0;
      for (let run = 0; run < COLD_RUNS; run++) {
        const venue = ['binance', 'okx', 'paper'][run % 3];
        const mode = run % 2 === 0 ? 'normal' : 'reverse';
        const { elapsed, cpuMs, body } = await get(
          `copy_amount=${1_000 + run}&copy_mode=${mode}&days=${days}&exchange=${venue}`,
        );
        cold.push(elapsed);
        coldCpu.push(cpuMs);
        changes = body.leader_changes;
        trades = Math.max(trades, body.trades);
      }
      const warm: number[] = [];
      for (let run = 0; run < WARM_RUNS; run++) {
        warm.push(
          (await get(`copy_amount=1000&copy_mode=normal&days=${days}&exchange=binance`)).elapsed,
        );
      }
      cold.sort((a, b) => a - b);
      coldCpu.sort((a, b) => a - b);
      warm.sort((a, b) => a - b);
      lines.push(
        `  ${String(days).padStart(2)} days (${changes.toLocaleString('en')} leader changes, up to ${trades.toLocaleString('en')} simulated orders): ` +
          `cold p50 ${ms(percentile(cold, 50))}, max ${ms(cold.at(-1) ?? 0)} ` +
          `(this process's CPU p50 ${ms(percentile(coldCpu, 50))}); ` +
          `warm (kept) p50 ${ms(percentile(warm, 50))}`,
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return lines;
}

export async function benchCopySimulation(): Promise<string[]> {
  const lines = [
    'goal: a strategy with a year of fills answers within 300 ms (cold)',
    `load average at the start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} on ${availableParallelism()} CPUs`,
  ];
  for (const which of DATABASES) {
    const bench =
      which === 'lite' ? await openBenchPglite() : await openBenchPostgres('qs_copysim');
    try {
      lines.push(...(await benchOn(bench)));
    } finally {
      await bench.drop();
    }
  }
  return lines;
}
