import type { RuleSet, Timeframe } from '@quantsquare/contracts';
import { and, eq } from 'drizzle-orm';
import { ManualClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  bots,
  botTrades,
  exchangeAccounts,
  executionOrders,
  operationLogs,
  paperOrders,
  userStrategies,
  users,
} from '../../src/db/schema/index.js';
import {
  createExchangeClientFactory,
  type LiveClientConstructor,
} from '../../src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import type { BotClients, BotEngine, BotOrderAction } from '../../src/workers/bot-engine/index.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

export const SLIPPAGE_BPS = 2;
export const ETH = 'ETH/USDT:USDT';

export interface BotFixture {
  readonly database: DatabaseHandle;
  readonly clock: ManualClock;
  readonly feed: MarketFeed;
  readonly clients: BotClients;
  readonly userId: number;
  newEngine(): BotEngine;
  paperAccount(options?: { leverage?: number; balance?: string }): Promise<number>;
  liveAccount(options: {
    apiKey: string;
    apiSecret: string;
    leverage?: number;
    /** Default binance; okx wants `apiPassword`. */
    exchange?: 'binance' | 'okx';
    apiPassword?: string;
  }): Promise<number>;
  bot(options: BotOptions): Promise<number>;
  ordersOf(botId: number): Promise<BotOrder[]>;
  tradesOf(botId: number): Promise<(typeof botTrades.$inferSelect)[]>;
  logsOf(botId: number): Promise<(typeof operationLogs.$inferSelect)[]>;
  paperOrderCount(accountId: number): Promise<number>;
  botRow(botId: number): Promise<typeof bots.$inferSelect>;
  close(): Promise<void>;
}

/** A bot's order as the execution core keeps it, with the candle and action of its key. */
export type BotOrder = Omit<typeof executionOrders.$inferSelect, 'reduceOnly' | 'action'> & {
  readonly action: BotOrderAction;
  readonly candleTimeMs: number;
  /** 1 or 0, as the bots' own order table had it. */
  readonly reduceOnly: number;
};

export interface BotOptions {
  readonly accountId: number;
  readonly symbol?: string;
  readonly timeframe?: Timeframe;
  readonly strategyType?: string;
  readonly parameters?: Record<string, number>;
  readonly tradeAmount?: string;
  readonly stopLossPercent?: string | null;
  readonly takeProfitPercent?: string | null;
  readonly status?: 'running' | 'stopped' | 'created';
}

/** A fresh database, a ManualClock on the simulated feed, and the engine's real clients. */
export async function createBotFixture(
  startMs: number,
  createLiveClient: LiveClientConstructor = () => {
    throw new Error('no live client in this test');
  },
): Promise<BotFixture> {
  const database = await createTestDatabase();
  const db = database.db;
  const clock = new ManualClock(startMs);
  const feed = createMarketFeed({
    mode: 'simulated',
    clock,
    fundingRates: createMemoryFundingRatesRepository(),
  });
  const secretBox = createSecretBox(TEST_SECRET_KEY);
  const clients = createAccountClientCache({
    secretBox,
    factory: createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db,
      clock,
      prices: feedPriceSource(feed),
      paperSlippageBps: SLIPPAGE_BPS,
      createLiveClient,
    }),
  });
  const [user] = await db
    .insert(users)
    .values({
      username: 'bots@example.com',
      passwordHash: 'x',
      invitationCode: 'BOTS01',
      dateJoined: clock.now(),
    })
    .returning();
  const userId = user!.id;
  let symbolCounter = 0;
  const account = async (values: Partial<typeof exchangeAccounts.$inferInsert>) => {
    const [row] = await db
      .insert(exchangeAccounts)
      .values({
        userId,
        name: `Account ${++symbolCounter}`,
        exchange: 'binance',
        accountType: 'classic',
        positionMode: 'net',
        defaultLeverage: 2,
        createdAt: clock.now(),
        updatedAt: clock.now(),
        ...values,
      })
      .returning();
    return row!.id;
  };
  return {
    database,
    clock,
    feed,
    clients,
    userId,
    newEngine: () =>
      createBotEngineWithCore({ db, clock, feed, clients, pollIntervalMs: 3_600_000 }),
    paperAccount: (options = {}) =>
      account({
        isPaper: true,
        paperBalance: options.balance ?? '1000000',
        defaultLeverage: options.leverage ?? 2,
      }),
    liveAccount: (options) =>
      account({
        isPaper: false,
        exchange: options.exchange ?? 'binance',
        defaultLeverage: options.leverage ?? 2,
        apiKeyEncrypted: secretBox.encrypt(options.apiKey),
        apiSecretEncrypted: secretBox.encrypt(options.apiSecret),
        ...(options.apiPassword === undefined
          ? {}
          : { apiPasswordEncrypted: secretBox.encrypt(options.apiPassword) }),
        apiKeyMasked: '****',
      }),
    async bot(options) {
      const [row] = await db
        .insert(bots)
        .values({
          userId,
          exchangeAccountId: options.accountId,
          symbol: options.symbol ?? ETH,
          timeframe: options.timeframe ?? '1m',
          strategyType: options.strategyType ?? 'ma_cross',
          strategyParameters: options.parameters ?? { fast_period: 3, slow_period: 8 },
          tradeAmount: options.tradeAmount ?? '1000',
          stopLossPercentage: options.stopLossPercent ?? null,
          takeProfitPercentage: options.takeProfitPercent ?? null,
          status: options.status ?? 'running',
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning();
      return row!.id;
    },
    async ordersOf(botId) {
      const rows = await db
        .select()
        .from(executionOrders)
        .where(and(eq(executionOrders.ownerKind, 'bot'), eq(executionOrders.ownerId, botId)))
        .orderBy(executionOrders.id);
      return rows.map((row) => ({
        ...row,
        action: row.action as BotOrderAction,
        candleTimeMs: Number(/^c(\d+)/.exec(row.idempotencyKey)?.[1] ?? 0) * 1000,
        reduceOnly: row.reduceOnly ? 1 : 0,
      }));
    },
    tradesOf: (botId) =>
      db.select().from(botTrades).where(eq(botTrades.botId, botId)).orderBy(botTrades.id),
    logsOf: (botId) =>
      db
        .select()
        .from(operationLogs)
        .where(eq(operationLogs.botId, botId))
        .orderBy(operationLogs.id),
    async paperOrderCount(accountId) {
      const rows = await db
        .select({ id: paperOrders.id })
        .from(paperOrders)
        .where(eq(paperOrders.accountId, accountId));
      return rows.length;
    },
    async botRow(botId) {
      const [row] = await db.select().from(bots).where(eq(bots.id, botId));
      return row!;
    },
    close: () => database.close(),
  };
}

/** Moves the clock a candle at a time (1m), polling at each close, until `isDone` or `max`. */
export async function runCandles(
  fixture: BotFixture,
  engine: BotEngine,
  max: number,
  isDone: () => Promise<boolean> = async () => false,
): Promise<number> {
  for (let k = 1; k <= max; k++) {
    fixture.clock.advanceSeconds(60);
    await engine.tick();
    if (await isDone()) return k;
  }
  return max;
}

/** Two polls per one-minute candle, `count` candles: mid-candle (paper SL/TP) and at the close. */
export async function runHalfCandles(
  fixture: BotFixture,
  engine: BotEngine,
  count: number,
): Promise<void> {
  for (let k = 0; k < count; k++) {
    fixture.clock.advanceSeconds(30);
    await engine.tick();
    fixture.clock.advanceSeconds(30);
    await engine.tick();
  }
}

/** A bot's round trip as the backtest's trades are compared with it. */
export interface RoundTrip {
  readonly side: string;
  readonly entryTime: number;
  readonly exitTime: number;
  readonly entryPrice: number;
  readonly exitPrice: number;
  readonly reason: string;
  readonly pnlSign: number;
}

/**
 * The bot's round trips from its filled orders (the candle each acted on) and its trade rows.
 * A market order fills at the next candle's open; a resting protective order inside the candle
 * that reached it. A last exit that fills beyond `lastOpenMs` (an open the backtest has not got,
 * where it ends the trade as end_of_data instead) is left out.
 */
export async function roundTripsOf(
  fixture: BotFixture,
  botId: number,
  lastOpenMs: number,
): Promise<RoundTrip[]> {
  const minute = 60_000;
  const orders = (await fixture.ordersOf(botId)).filter((o) => o.status === 'filled');
  const trades = await fixture.tradesOf(botId);
  const trips: RoundTrip[] = [];
  let entry: BotOrder | undefined;
  for (const order of orders) {
    if (order.action === 'open_long' || order.action === 'open_short') {
      entry = order;
      continue;
    }
    const trade = trades[trips.length];
    if (!entry || !trade) throw new Error('an exit without an entry');
    const isResting = order.action === 'stop_loss' || order.action === 'take_profit';
    const hitCandle = Math.floor(trade.closedAt.getTime() / minute) * minute;
    trips.push({
      side: trade.side,
      entryTime: entry.candleTimeMs + minute,
      exitTime: isResting ? hitCandle : order.candleTimeMs + minute,
      entryPrice: Number(entry.averagePrice),
      exitPrice: Number(order.averagePrice),
      reason: trade.reason,
      pnlSign: Math.sign(Number(trade.pnl)),
    });
    entry = undefined;
  }
  if (trips.at(-1) && trips.at(-1)!.exitTime > lastOpenMs) trips.pop();
  return trips;
}

/** Saves a rule set for the fixture's user; answers its strategy type (`custom:<id>`). */
export async function insertRuleSet(
  fixture: BotFixture,
  name: string,
  rules: RuleSet,
  protections: { trailingStopPct?: string } = {},
): Promise<string> {
  const now = fixture.clock.now();
  const [stored] = await fixture.database.db
    .insert(userStrategies)
    .values({ userId: fixture.userId, name, rules, ...protections, createdAt: now, updatedAt: now })
    .returning();
  return `custom:${stored!.id}`;
}
