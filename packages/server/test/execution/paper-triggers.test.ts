// The paper exchange as a whole adapter: resting reduce-only stop-loss and take-profit orders
// are triggered by the market feed's candles themselves (stop first when a candle reaches both,
// a gap fills at the open), whoever reads the account next.
import type { Exchange, Timeframe } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { exchangeAccounts, users } from '../../src/db/schema/index.js';
import type { ExchangeClient } from '../../src/exchange/exchange-client.js';
import { feedPriceSource, type PriceSource } from '../../src/exchange/paper/price-source.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import type { MarketCandle } from '../../src/market/market.types.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { testPaperClient } from '../helpers/paper-client.js';
import { createTestDatabase } from '../helpers/test-database.js';

const BTC = 'BTC/USDT:USDT';
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 20, 8, 0, 0);
const SLIPPAGE = 2 / 10_000;

/** 1m candles the test writes: [open, high, low, close] from T0 on; the price is the last close. */
class ScriptedMarket implements PriceSource {
  rows: [number, number, number, number][] = [];
  constructor(private readonly clock: ManualClock) {}
  private candles(): MarketCandle[] {
    const nowMs = this.clock.now().getTime();
    return this.rows
      .map(([open, high, low, close], i) => ({
        timestamp: T0 + i * MINUTE,
        open,
        high,
        low,
        close,
        volume: 1,
      }))
      .filter((c) => c.timestamp <= nowMs);
  }
  async lastPrice(): Promise<number> {
    return this.candles().at(-1)?.close ?? 100;
  }
  async recentCandles(_e: Exchange, _s: string, timeframe: Timeframe): Promise<MarketCandle[]> {
    if (timeframe !== '1m') throw new Error(`unexpected timeframe ${timeframe}`);
    return this.candles();
  }
}

let database: DatabaseHandle;
let userId: number;
const clock = new ManualClock(T0);
const market = new ScriptedMarket(clock);

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'triggers@example.com',
      passwordHash: 'x',
      invitationCode: 'TRIG01',
      dateJoined: clock.now(),
    })
    .returning();
  userId = user!.id;
});
afterAll(async () => {
  await database.close();
});

async function paperClient(prices: PriceSource = market): Promise<ExchangeClient> {
  const [row] = await database.db
    .insert(exchangeAccounts)
    .values({
      userId,
      name: 'Paper',
      exchange: 'binance',
      accountType: 'classic',
      isPaper: true,
      positionMode: 'net',
      defaultLeverage: 10,
      paperBalance: '100000',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  return testPaperClient({
    paperBalances: writePaperBalances,
    db: database.db,
    clock,
    prices,
    accountId: row!.id,
    exchange: 'binance',
    slippageBps: 2,
  });
}

let counter = 0;
const id = () => `trig${++counter}`;

/** A long of 1 BTC bought at the first candle's open, protected at `stop` and `take`. */
async function protectedLong(client: ExchangeClient, stop: number, take: number) {
  await client.createOrder({
    symbol: BTC,
    side: 'buy',
    type: 'market',
    amount: 1,
    clientOrderId: id(),
  });
  const sl = await client.createOrder({
    symbol: BTC,
    side: 'sell',
    type: 'stop_market',
    amount: 1,
    triggerPrice: stop,
    reduceOnly: true,
    clientOrderId: id(),
  });
  const tp = await client.createOrder({
    symbol: BTC,
    side: 'sell',
    type: 'take_profit_market',
    amount: 1,
    triggerPrice: take,
    reduceOnly: true,
    clientOrderId: id(),
  });
  return { sl, tp };
}

describe('paper resting orders triggered by the feed', () => {
  it('fills the stop first when one candle reaches both levels; the target expires', async () => {
    clock.set(new Date(T0));
    market.rows = [
      [100, 100.5, 99.5, 100],
      [100, 111, 94, 105],
      [105, 106, 104, 105],
    ];
    const client = await paperClient();
    const { sl, tp } = await protectedLong(client, 95, 110);
    expect((await client.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual([sl.id, tp.id]);
    clock.set(new Date(T0 + 2 * MINUTE + 30_000));
    expect(await client.fetchOpenOrders(BTC)).toEqual([]);
    const stop = await client.fetchOrderByClientId(BTC, sl.clientOrderId ?? '');
    expect(stop).toMatchObject({ status: 'closed', filled: 1, filledAtMs: T0 + MINUTE });
    expect(stop?.averagePrice).toBeCloseTo(95 * (1 - SLIPPAGE), 9);
    const target = await client.fetchOrderByClientId(BTC, tp.clientOrderId ?? '');
    expect(target).toMatchObject({ status: 'canceled', filled: 0 });
    expect(await client.fetchPositions([BTC])).toEqual([]);
  });

  it('fills at the open when a candle gaps beyond the stop', async () => {
    clock.set(new Date(T0));
    market.rows = [
      [100, 100.5, 99.5, 100],
      [90, 92, 89, 91],
    ];
    const client = await paperClient();
    const { sl } = await protectedLong(client, 95, 110);
    clock.set(new Date(T0 + 2 * MINUTE));
    const [trade] = (await client.fetchMyTrades(BTC)).filter((t) => t.side === 'sell');
    expect(trade?.price).toBeCloseTo(90 * (1 - SLIPPAGE), 9);
    expect((await client.fetchOrderByClientId(BTC, sl.clientOrderId ?? ''))?.filledAtMs).toBe(
      T0 + MINUTE,
    );
  });

  it('fills a take-profit at its level inside the candle that reaches it', async () => {
    clock.set(new Date(T0));
    market.rows = [
      [100, 100.5, 99.5, 100],
      [100, 104, 99, 103],
      [103, 112, 102, 111],
    ];
    const client = await paperClient();
    const { tp } = await protectedLong(client, 95, 110);
    clock.set(new Date(T0 + MINUTE + 30_000));
    expect(await client.fetchOpenOrders(BTC)).toHaveLength(2);
    clock.set(new Date(T0 + 3 * MINUTE));
    const balance = await client.fetchBalance();
    const target = await client.fetchOrderByClientId(BTC, tp.clientOrderId ?? '');
    expect(target).toMatchObject({ status: 'closed', filledAtMs: T0 + 2 * MINUTE });
    expect(target?.averagePrice).toBeCloseTo(110 * (1 - SLIPPAGE), 9);
    expect(balance.USDT?.used).toBe(0);
  });

  it('does not gap-fill an order placed inside a candle: its part before the order is unseen', async () => {
    clock.set(new Date(T0));
    market.rows = [[100, 100.5, 99.5, 100]];
    const client = await paperClient();
    clock.set(new Date(T0 + 30_000));
    market.rows = [
      [100, 100.5, 99.5, 100],
      [94, 96, 93, 95],
    ];
    // Placed mid-candle 0; candle 1 (after it) opens below the stop: a gap at candle 1's open.
    const { sl } = await protectedLong(client, 99, 120);
    clock.set(new Date(T0 + 2 * MINUTE));
    const stop = await client.fetchOrderByClientId(BTC, sl.clientOrderId ?? '');
    expect(stop?.averagePrice).toBeCloseTo(94 * (1 - SLIPPAGE), 9);
    expect(stop?.filledAtMs).toBe(T0 + MINUTE);
  });
});

describe('marketable-limit IOC orders', () => {
  it('fill at the market within their cap and cancel beyond it', async () => {
    clock.set(new Date(T0));
    market.rows = [[100, 100, 100, 100]];
    const client = await paperClient();
    const filled = await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'limit',
      timeInForce: 'IOC',
      price: 100.1,
      amount: 0.5,
      clientOrderId: id(),
    });
    expect(filled).toMatchObject({ status: 'closed', filled: 0.5 });
    expect(filled.averagePrice).toBeCloseTo(100 * (1 + SLIPPAGE), 9);
    const expired = await client.createOrder({
      symbol: BTC,
      side: 'sell',
      type: 'limit',
      timeInForce: 'IOC',
      price: 100,
      amount: 0.5,
      clientOrderId: id(),
    });
    expect(expired).toMatchObject({ status: 'canceled', filled: 0 });
    expect((await client.fetchPositions([BTC]))[0]?.amount).toBe(0.5);
  });
});

describe('on the simulated feed', () => {
  it('triggers a stop inside the 1m candle whose low reaches it', async () => {
    clock.set(new Date(T0));
    const feed = createMarketFeed({
      mode: 'simulated',
      clock,
      fundingRates: createMemoryFundingRatesRepository(),
    });
    const client = await paperClient(feedPriceSource(feed));
    const price = await feedPriceSource(feed).lastPrice('binance', BTC);
    await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'market',
      amount: 0.01,
      clientOrderId: id(),
    });
    const stop = price * 0.9995;
    const sl = await client.createOrder({
      symbol: BTC,
      side: 'sell',
      type: 'stop_market',
      amount: 0.01,
      triggerPrice: stop,
      reduceOnly: true,
      clientOrderId: id(),
    });
    let order = await client.fetchOrderByClientId(BTC, sl.clientOrderId ?? '');
    for (let minutes = 0; order?.status === 'open' && minutes < 24 * 60; minutes += 30) {
      clock.advanceSeconds(30 * 60);
      order = await client.fetchOrderByClientId(BTC, sl.clientOrderId ?? '');
    }
    expect(order?.status).toBe('closed');
    const at = order?.filledAtMs ?? 0;
    const series = await feed.series({
      exchange: 'binance',
      symbol: BTC,
      timeframe: '1m',
      closedCount: 1000,
    });
    const candle = series.closed.find((c) => c.timestamp === at);
    const earlier = series.closed.filter((c) => c.timestamp > T0 && c.timestamp < at);
    expect(candle && candle.low <= stop).toBe(true);
    expect(earlier.every((c) => c.low > stop)).toBe(true);
    expect(order?.averagePrice).toBeCloseTo(Math.min(candle!.open, stop) * (1 - SLIPPAGE), 6);
    await feed.stop();
  });
});
