// Copy trading fan-out: one leader fill copied to 1,000 paper followers through the copy engine
// and the execution core (intent row, paper fill, settlement, receipt), PGlite in memory. Prints
// p50/p99/last from the leader's PositionChanged event to each follower's settled order, and CPU
// per follower. A measurement, never a test.
import { PGlite } from '@electric-sql/pglite';
import { ManualClock } from '../packages/server/src/common/clock.js';
import { createSecretBox } from '../packages/server/src/common/secret-box.js';
import { openPglite } from '../packages/server/src/db/client.js';
import { copyRelations, exchangeAccounts, users } from '../packages/server/src/db/schema/index.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import type { PriceSource } from '../packages/server/src/exchange/paper/price-source.js';
import {
  createAccountClientCache,
  createExecutionCore,
} from '../packages/server/src/execution/index.js';
import { createCopyEngine } from '../packages/server/src/modules/copy-trading/copy-engine.js';
import { createExchangeClientFactory } from '../packages/server/src/modules/exchange-accounts/exchange-client-factory.js';

const FOLLOWERS = Number(process.env.BENCH_COPY_FOLLOWERS ?? 1000);
const SYMBOL = 'BTC/USDT:USDT';

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function benchCopy(): Promise<string[]> {
  const handle = await openPglite(await PGlite.create(), { migrate: true });
  try {
    const db = handle.db;
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 8, 0, 0));
    const prices: PriceSource = {
      recentCandles: async () => [],
      lastPrice: async () => 50_000,
    };
    const clients = createAccountClientCache({
      secretBox: createSecretBox('bench-secret-key-0123456789-abcdefghijkl'),
      factory: createExchangeClientFactory({
        db,
        clock,
        prices,
        paperSlippageBps: 2,
        createLiveClient: () => {
          throw new Error('paper only');
        },
      }),
    });
    const events = createInProcessEventBus({ clock });
    const execution = createExecutionCore({ db, clock, clients, events });
    const now = clock.now();
    const [leader, follower] = await db
      .insert(users)
      .values(
        ['leader', 'follower'].map((name) => ({
          username: `copy-${name}@example.com`,
          email: `copy-${name}@example.com`,
          passwordHash: 'x',
          invitationCode: `COPY${name.toUpperCase()}`,
          dateJoined: now,
        })),
      )
      .returning();
    const paper = (userId: number, name: string) => ({
      userId,
      name,
      exchange: 'binance' as const,
      accountType: 'classic' as const,
      positionMode: 'net' as const,
      defaultLeverage: 5,
      isPaper: true,
      paperBalance: '10000',
      createdAt: now,
      updatedAt: now,
    });
    const [leaderAccount] = await db
      .insert(exchangeAccounts)
      .values(paper(leader!.id, 'leader'))
      .returning();
    const followerAccounts = await db
      .insert(exchangeAccounts)
      .values(Array.from({ length: FOLLOWERS }, (_, i) => paper(follower!.id, `follower ${i}`)))
      .returning();
    await db.insert(copyRelations).values(
      followerAccounts.map((account) => ({
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
        leaderEquityLast: '10000',
        createdAt: now,
        updatedAt: now,
      })),
    );
    const engine = createCopyEngine({
      db,
      clock,
      execution,
      events,
      operationLog: { record: async () => undefined },
      square: { adjustCopyFigures: async () => undefined },
      reconcileIntervalMs: 3_600_000,
    });
    engine.start();
    await engine.idle();

    let leaderAt = 0;
    const done: number[] = [];
    events.subscribe('PositionChanged', (event) => {
      const at = performance.now();
      if (event.payload.accountId === leaderAccount!.id) leaderAt = at;
      else if (event.payload.owner.kind === 'copy') done.push(at);
    });
    const cpu = process.cpuUsage();
    await execution.submit({
      accountId: leaderAccount!.id,
      symbol: SYMBOL,
      owner: { kind: 'manual', id: leader!.id },
      key: 'benchleader',
      size: { kind: 'target', amount: 0.2 },
      action: 'manual',
    });
    while (leaderAt === 0 || done.length < FOLLOWERS) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (leaderAt !== 0 && performance.now() - leaderAt > 120_000) break;
    }
    await engine.idle();
    const used = process.cpuUsage(cpu);
    await engine.stop();
    const delays = done.map((at) => at - leaderAt).sort((a, b) => a - b);
    const relations = await db.select({ id: copyRelations.id }).from(copyRelations);
    let failed = 0;
    for (const relation of relations) {
      const intents = await execution.intentsOf({ kind: 'copy', id: relation.id });
      failed += intents.filter((intent) => intent.status === 'failed').length;
    }
    return [
      `one leader fill → ${FOLLOWERS} paper followers (copy engine + execution core + paper fills, PGlite in memory)`,
      `  followers filled: ${done.length}/${FOLLOWERS}; failed orders: ${failed}`,
      `  leader event → follower order settled: p50 ${percentile(delays, 50).toFixed(0)} ms, p99 ${percentile(delays, 99).toFixed(0)} ms, last ${(delays.at(-1) ?? 0).toFixed(0)} ms  (goal p99 ≤ 50 ms on loopback for paper)`,
      `  CPU per follower: ${((used.user + used.system) / 1000 / FOLLOWERS).toFixed(2)} ms`,
      '  ccxt against a loopback fake exchange: not measured yet',
    ];
  } finally {
    await handle.close();
  }
}
