import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  exchangeAccounts,
  strategyMetrics,
  strategyShareSettings,
  strategyTrades,
  users,
} from '../../src/db/schema/index.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import type { ExchangePosition, ExchangeTrade } from '../../src/exchange/exchange-client.js';
import { createMetricsRepository } from '../../src/modules/square/metrics.repository.js';
import { createMetricsService } from '../../src/modules/square/metrics.service.js';
import { createReadModelRepository } from '../../src/modules/square/read-model.repository.js';
import { createSquareMetricsJob } from '../../src/modules/square/square.module.js';
import { scriptedClient } from '../helpers/exchange-doubles.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { BTC, seedEquity } from './square-fixture.js';

const HOUR_MS = 3_600_000;
const quiet = { warn: () => undefined, error: () => undefined };
const start = new Date('2026-02-01T00:00:00Z');
const clock = new ManualClock(start);
const bus = createInProcessEventBus({ clock });

let database: DatabaseHandle;
let accountId: number;
let userId: number;
// What the (scripted) exchange answers at the current mark.
const state = { equity: 0, unrealized: 0 };

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'flows@example.com',
      passwordHash: 'x',
      invitationCode: 'FLOWS1',
      dateJoined: start,
    })
    .returning();
  userId = user!.id;
  const [account] = await database.db
    .insert(exchangeAccounts)
    .values({
      userId,
      name: 'Live',
      exchange: 'binance',
      accountType: 'classic',
      positionMode: 'net',
      defaultLeverage: 1,
      createdAt: start,
      updatedAt: start,
    })
    .returning();
  accountId = account!.id;
  await database.db.insert(strategyShareSettings).values({
    accountId,
    userId,
    name: 'Live one',
    isPublic: true,
    publishedAt: start,
    createdAt: start,
    updatedAt: start,
  });
});
afterAll(async () => {
  await bus.close();
  await database.close();
});

describe('deposits and withdrawals inferred from hourly wallet marks', () => {
  it('keeps the time-weighted return and P&L to what trading earned', async () => {
    const job = createSquareMetricsJob({
      db: database.db,
      clock,
      events: bus,
      log: quiet,
      exchangeTimeoutMs: 5_000,
      clientFor: () => ({
        ...scriptedClient('binance', {
          balance: { USDT: { total: state.equity, free: 0, used: 0 } },
        }),
        fetchPositions: async (): Promise<ExchangePosition[]> =>
          state.unrealized === 0
            ? []
            : [
                {
                  symbol: BTC,
                  side: 'long',
                  amount: 1,
                  entryPrice: 100,
                  markPrice: 100 + state.unrealized,
                  unrealizedPnl: state.unrealized,
                  leverage: 1,
                },
              ],
      }),
    });
    const readModel = createReadModelRepository(database.db);
    const fill = (side: 'buy' | 'sell', price: number, atMs: number) =>
      readModel.recordFill(`flow-${side}-${atMs}`, {
        accountId,
        userId,
        symbol: BTC,
        owner: { kind: 'manual', id: userId },
        clientOrderId: `c-${atMs}`,
        exchangeOrderId: `x-${atMs}`,
        side,
        amount: 1,
        price,
        fee: 0,
        reduceOnly: side === 'sell',
        filledAtMs: atMs,
      });
    // hour: equity, unrealised P&L; a long opened at 100 before h1 gains 100 by h1; 10,000 is
    // deposited before h3; the long closes at 200 before h4 (+100 realised); a new long is up 201
    // at h5; 5,000 is withdrawn before h6.
    const hours: [number, number][] = [
      [10_000, 0],
      [10_100, 100],
      [10_100, 100],
      [20_100, 100],
      [20_100, 0],
      [20_301, 201],
      [15_301, 201],
    ];
    const equity: number[] = [];
    for (const [h, [e, u]] of hours.entries()) {
      const at = start.getTime() + h * HOUR_MS;
      if (h === 1) await fill('buy', 100, at - HOUR_MS / 2);
      if (h === 4) await fill('sell', 200, at - HOUR_MS / 2);
      if (h === 5) await fill('buy', 200, at - HOUR_MS / 2);
      clock.set(new Date(at));
      state.equity = e;
      state.unrealized = u;
      await job.markAll(new Date(at));
      equity.push(e);
    }
    await seedEquity(database, clock, accountId, equity);
    const service = createMetricsService({
      repo: createMetricsRepository(database.db),
      clock,
      events: bus,
    });
    await service.refreshAccount(accountId);

    const rows = await database.db.select().from(strategyMetrics);
    const total = rows.find((r) => r.period === 'total')!;
    // +1% (h1) and +1% (h5) of trading: 2.01%, not the 53% the balance grew.
    expect(total.returnPercent).toBeCloseTo(2.01, 6);
    expect(Number(total.pnl)).toBeCloseTo(301, 6);
    expect(total.maxDrawdown).toBe(0);
    expect(total.tradesCount).toBe(3);
    expect(total.winRate).toBe(100);
    expect(total.isNew).toBe(true);
    expect(total.rankSharpe).toBeNull();
  });
});

describe("a live account's own trade history", () => {
  it('imports fills the platform did not make, once, and never a fill it knows', async () => {
    const now = new Date('2026-03-01T10:00:00Z');
    clock.set(now);
    const readModel = createReadModelRepository(database.db);
    const trade = (
      id: string,
      orderId: string,
      minutesAgo: number,
      side: 'buy' | 'sell',
    ): ExchangeTrade => ({
      id,
      orderId,
      symbol: BTC,
      side,
      amount: 0.5,
      price: 40_000,
      feeCost: 0,
      feeCurrency: 'USDT',
      fee: 4,
      timestamp: now.getTime() - minutesAgo * 60_000,
    });
    // The bot's fill came over the bus; the exchange lists it too, with a manual trade and one
    // too recent to import yet.
    await readModel.recordFill('bus-event-1', {
      accountId,
      userId,
      symbol: BTC,
      owner: { kind: 'bot', id: 9 },
      clientOrderId: 'qs9',
      exchangeOrderId: 'order-bot',
      side: 'buy',
      amount: 0.5,
      price: 40_000,
      fee: 4,
      reduceOnly: false,
      filledAtMs: now.getTime() - 180 * 60_000,
    });
    const history = [
      trade('t1', 'order-bot', 180, 'buy'),
      trade('t2', 'order-manual', 120, 'sell'),
      trade('t3', 'order-recent', 5, 'buy'),
    ];
    const job = createSquareMetricsJob({
      db: database.db,
      clock,
      events: bus,
      log: quiet,
      exchangeTimeoutMs: 5_000,
      clientFor: () => ({
        ...scriptedClient('binance', {}),
        fetchMyTrades: async (_symbol: string, sinceMs?: number) =>
          history.filter((t) => sinceMs === undefined || t.timestamp >= sinceMs),
      }),
    });
    const march = () =>
      database.db
        .select()
        .from(strategyTrades)
        .where(and(eq(strategyTrades.accountId, accountId), eq(strategyTrades.symbol, BTC)))
        .orderBy(asc(strategyTrades.filledAt));
    const orderIds = async () =>
      (await march())
        .filter((t) => t.filledAt >= new Date('2026-03-01'))
        .map((t) => t.exchangeOrderId);

    await job.markAll(now);
    expect(await orderIds()).toEqual(['order-bot', 'order-manual']);
    const manual = (await march()).find((t) => t.exchangeOrderId === 'order-manual')!;
    expect(manual).toMatchObject({ ownerKind: 'manual', ownerId: userId, side: 'sell' });

    // Next hour: the recent one is imported; nothing twice; a late bus event of an imported
    // order is not counted again.
    clock.set(new Date(now.getTime() + HOUR_MS));
    await job.markAll(clock.now());
    await readModel.recordFill('late-bus-event', {
      accountId,
      userId,
      symbol: BTC,
      owner: { kind: 'webhook', id: 3 },
      clientOrderId: 'w3',
      exchangeOrderId: 'order-manual',
      side: 'sell',
      amount: 0.5,
      price: 40_000,
      fee: 4,
      reduceOnly: false,
      filledAtMs: now.getTime() - 120 * 60_000,
    });
    expect(await orderIds()).toEqual(['order-bot', 'order-manual', 'order-recent']);
  });
});
