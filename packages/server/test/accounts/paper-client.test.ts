import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { exchangeAccounts, users } from '../../src/db/schema/index.js';
import { ExchangeAdapterError, type ExchangeClient } from '../../src/exchange/exchange-client.js';
import { createPaperDesk } from '../../src/exchange/paper/paper-desk.js';
import { createPaperExchangeClient } from '../../src/exchange/paper/paper-exchange-client.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { FixedPrices } from '../helpers/exchange-doubles.js';
import { testPaperClient } from '../helpers/paper-client.js';
import { createTestDatabase } from '../helpers/test-database.js';

const BTC = 'BTC/USDT:USDT';
const ETH = 'ETH/USDT:USDT';
const SLIPPAGE_BPS = 2;
const FEE_RATE = 0.0005;

let database: DatabaseHandle;
let userId: number;
const clock = new ManualClock(Date.UTC(2026, 0, 15, 8, 0, 0));
const prices = new FixedPrices();

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'paper@example.com',
      passwordHash: 'x',
      invitationCode: 'PAPER1',
      dateJoined: clock.now(),
    })
    .returning();
  userId = user!.id;
});
afterAll(async () => {
  await database.close();
});

async function paperAccount(
  options: { positionMode?: 'hedge' | 'net'; balance?: string; leverage?: number } = {},
) {
  const [row] = await database.db
    .insert(exchangeAccounts)
    .values({
      userId,
      name: 'Paper',
      exchange: 'binance',
      accountType: 'classic',
      isPaper: true,
      positionMode: options.positionMode ?? 'hedge',
      defaultLeverage: options.leverage ?? 10,
      paperBalance: options.balance ?? '10000',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  return row!.id;
}

const clientFor = (accountId: number): ExchangeClient =>
  testPaperClient({
    paperBalances: writePaperBalances,
    db: database.db,
    clock,
    prices,
    accountId,
    exchange: 'binance',
    slippageBps: SLIPPAGE_BPS,
  });

let orderCounter = 0;
const market = (side: 'buy' | 'sell', amount: number, extra: Record<string, unknown> = {}) => ({
  symbol: BTC,
  side,
  type: 'market' as const,
  amount,
  clientOrderId: `order-${++orderCounter}`,
  ...extra,
});

async function expectAdapterError(work: Promise<unknown>, kind: string): Promise<void> {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExchangeAdapterError);
  expect((error as ExchangeAdapterError).kind).toBe(kind);
}

describe('paper client fills', () => {
  it('fills a market buy at the feed price plus slippage and charges the 0.05% fee', async () => {
    prices.set(BTC, 50_000);
    const client = clientFor(await paperAccount());
    const order = await client.createOrder(market('buy', 0.1));
    const fillPrice = 50_000 * (1 + SLIPPAGE_BPS / 10_000); // 50,010
    expect(order).toMatchObject({
      status: 'closed',
      filled: 0.1,
      averagePrice: fillPrice,
      type: 'market',
    });
    expect(order.fee).toBeCloseTo(0.1 * fillPrice * FEE_RATE, 10); // 2.5005
    const balance = await client.fetchBalance();
    // Marked at 50,000: unrealised -1 (slippage), wallet 10,000 - 2.5005.
    expect(balance.USDT?.total).toBeCloseTo(10_000 - 2.5005 - 1, 8);
    expect(balance.USDT?.used).toBeCloseTo((0.1 * fillPrice) / 10, 8);
    const trades = await client.fetchMyTrades(BTC);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      side: 'buy',
      amount: 0.1,
      price: fillPrice,
      orderId: order.id,
    });
  });

  it('fills a market sell below the feed price', async () => {
    prices.set(BTC, 40_000);
    const client = clientFor(await paperAccount());
    const order = await client.createOrder(market('sell', 1));
    expect(order.averagePrice).toBeCloseTo(40_000 * (1 - SLIPPAGE_BPS / 10_000), 8);
    const [position] = await client.fetchPositions();
    expect(position).toMatchObject({ side: 'short', amount: 1, leverage: 10 });
  });

  it('marks unrealised P&L to the feed and realises it on close, in decimals', async () => {
    prices.set(BTC, 100);
    const id = await paperAccount({ positionMode: 'net', balance: '1000', leverage: 1 });
    const client = testPaperClient({
      paperBalances: writePaperBalances,
      db: database.db,
      clock,
      prices,
      accountId: id,
      exchange: 'binance',
      slippageBps: 0,
    });
    await client.createOrder(market('buy', 3));
    prices.set(BTC, 110);
    const [position] = await client.fetchPositions([BTC]);
    expect(position).toMatchObject({
      side: 'long',
      amount: 3,
      entryPrice: 100,
      markPrice: 110,
      unrealizedPnl: 30,
    });
    // 1000 - fee 0.15 + unrealised 30
    expect((await client.fetchBalance()).USDT?.total).toBe(1029.85);
    await client.createOrder(market('sell', 3, { reduceOnly: true }));
    expect(await client.fetchPositions()).toEqual([]);
    // fees 0.15 + 0.165; realised 30
    expect((await client.fetchBalance()).USDT).toEqual({
      total: 1029.685,
      free: 1029.685,
      used: 0,
    });
  });

  it('refuses an order whose margin exceeds the free balance', async () => {
    prices.set(BTC, 50_000);
    const client = clientFor(await paperAccount({ balance: '100', leverage: 1 }));
    await expectAdapterError(client.createOrder(market('buy', 1)), 'insufficient_funds');
    expect(await client.fetchPositions()).toEqual([]);
  });
});

describe('position modes', () => {
  it('one-way (net): a sell against a long reduces it, and the rest opens a short', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount({ positionMode: 'net' }));
    await client.createOrder(market('buy', 2));
    await client.createOrder(market('sell', 3));
    const positions = await client.fetchPositions();
    expect(positions.map((p) => [p.side, p.amount])).toEqual([['short', 1]]);
  });

  it('hedge: long and short of one symbol live side by side and close by position side', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount({ positionMode: 'hedge' }));
    await client.createOrder(market('buy', 2, { positionSide: 'long' }));
    await client.createOrder(market('sell', 3, { positionSide: 'short' }));
    let positions = await client.fetchPositions();
    expect(positions.map((p) => [p.side, p.amount])).toEqual([
      ['long', 2],
      ['short', 3],
    ]);
    await client.createOrder(market('sell', 1.5, { positionSide: 'long' }));
    positions = await client.fetchPositions();
    expect(positions.map((p) => [p.side, p.amount])).toEqual([
      ['long', 0.5],
      ['short', 3],
    ]);
  });

  it('averages the entry price when a position increases', async () => {
    prices.set(ETH, 100);
    const id = await paperAccount({ positionMode: 'net' });
    const client = testPaperClient({
      paperBalances: writePaperBalances,
      db: database.db,
      clock,
      prices,
      accountId: id,
      exchange: 'binance',
      slippageBps: 0,
    });
    await client.createOrder({ ...market('buy', 1), symbol: ETH });
    prices.set(ETH, 130);
    await client.createOrder({ ...market('buy', 2), symbol: ETH });
    const [position] = await client.fetchPositions([ETH]);
    expect(position?.entryPrice).toBe(120);
  });
});

describe('reduce-only orders', () => {
  it('never open a position', async () => {
    prices.set(BTC, 1000);
    const net = clientFor(await paperAccount({ positionMode: 'net' }));
    await expectAdapterError(
      net.createOrder(market('sell', 1, { reduceOnly: true })),
      'invalid_order',
    );
    const hedge = clientFor(await paperAccount({ positionMode: 'hedge' }));
    await expectAdapterError(
      hedge.createOrder(market('buy', 1, { reduceOnly: true, positionSide: 'long' })),
      'invalid_order',
    );
    expect(await net.fetchPositions()).toEqual([]);
    expect(await hedge.fetchPositions()).toEqual([]);
  });

  it('never increase or flip a position: the fill stops at the position size', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount({ positionMode: 'net' }));
    await client.createOrder(market('buy', 2));
    await expectAdapterError(
      client.createOrder(market('buy', 1, { reduceOnly: true })),
      'invalid_order',
    );
    const order = await client.createOrder(market('sell', 5, { reduceOnly: true }));
    expect(order.filled).toBe(2);
    expect(await client.fetchPositions()).toEqual([]);
  });
});

describe('idempotency, leverage, trigger orders and restarts', () => {
  it('answers the first order to a second createOrder with the same client order id', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount());
    const request = market('buy', 1);
    const first = await client.createOrder(request);
    prices.set(BTC, 2000);
    const second = await client.createOrder(request);
    expect(second).toEqual(first);
    expect(await client.fetchMyTrades(BTC)).toHaveLength(1);
    expect(await client.fetchOrderByClientId(BTC, request.clientOrderId)).toEqual(first);
    expect(await client.fetchOrderByClientId(BTC, 'never-sent')).toBeNull();
  });

  it('answers one order to concurrent sends of the same client order id', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount());
    const request = market('buy', 1);
    const [a, b] = await Promise.all([client.createOrder(request), client.createOrder(request)]);
    expect(a.id).toBe(b.id);
    expect(await client.fetchMyTrades(BTC)).toHaveLength(1);
  });

  it('opens positions at the leverage set per symbol', async () => {
    prices.set(BTC, 1000);
    const client = clientFor(await paperAccount({ leverage: 10 }));
    await client.setLeverage(BTC, 25);
    await client.createOrder(market('buy', 1));
    const [position] = await client.fetchPositions();
    expect(position?.leverage).toBe(25);
    expect((await client.fetchBalance()).USDT?.used).toBeCloseTo(1000.2 / 25, 8);
    await expectAdapterError(client.setLeverage(BTC, 126), 'invalid_order');
  });

  it('keeps stop and take-profit orders open until cancelled', async () => {
    const client = clientFor(await paperAccount());
    const stop = await client.createOrder({
      ...market('sell', 1),
      type: 'stop_market',
      triggerPrice: 900,
      reduceOnly: true,
    });
    const take = await client.createOrder({
      ...market('sell', 1),
      type: 'take_profit_market',
      triggerPrice: 1200,
      reduceOnly: true,
    });
    expect(stop).toMatchObject({ status: 'open', filled: 0 });
    expect((await client.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual([stop.id, take.id]);
    await client.cancelOrder(BTC, stop.id);
    expect((await client.fetchOpenOrders()).map((o) => o.id)).toEqual([take.id]);
    await expectAdapterError(client.cancelOrder(BTC, stop.id), 'invalid_order');
    await expectAdapterError(
      client.createOrder({ ...market('sell', 1), type: 'stop_market' }),
      'invalid_order',
    );
  });

  it('survives a restart: a new client on the same database sees the same account', async () => {
    prices.set(BTC, 1000);
    const id = await paperAccount({ positionMode: 'net' });
    const before = clientFor(id);
    const request = market('buy', 2);
    const order = await before.createOrder(request);
    await before.createOrder({ ...market('sell', 1), type: 'stop_market', triggerPrice: 900 });
    const balance = await before.fetchBalance();

    const after = clientFor(id);
    expect(await after.fetchBalance()).toEqual(balance);
    expect(await after.fetchPositions()).toEqual(await before.fetchPositions());
    expect(await after.fetchOpenOrders()).toHaveLength(1);
    expect(await after.createOrder(request)).toEqual(order);
  });

  it('reports a trade-only key and paper market facts', async () => {
    const client = clientFor(await paperAccount());
    expect(await client.checkPermissions()).toEqual({
      canTrade: true,
      canWithdraw: false,
      ipRestricted: null,
    });
    expect((await client.marketFacts(BTC)).contractSize).toBe(1);
  });
});

describe('the shared desk: orders of many accounts that arrive together', () => {
  const sharedClients = (ids: readonly number[]) => {
    const desk = createPaperDesk(database.db, writePaperBalances);
    return ids.map((accountId) =>
      createPaperExchangeClient({
        paperBalances: writePaperBalances,
        db: database.db,
        clock,
        prices,
        accountId,
        exchange: 'binance',
        slippageBps: SLIPPAGE_BPS,
        desk,
      }),
    );
  };
  const state = async (client: ExchangeClient) => ({
    balance: (await client.fetchBalance()).USDT?.total,
    positions: (await client.fetchPositions()).map((p) => ({
      symbol: p.symbol,
      side: p.side,
      amount: p.amount,
      entryPrice: p.entryPrice,
    })),
  });

  it('fills concurrent orders of many accounts exactly as one at a time, each on its own', async () => {
    prices.set(BTC, 50_000);
    prices.set(ETH, 3_000);
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        paperAccount({ positionMode: i % 2 ? 'net' : 'hedge', balance: '10000', leverage: 5 }),
      ),
    );
    const alone = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        paperAccount({ positionMode: i % 2 ? 'net' : 'hedge', balance: '10000', leverage: 5 }),
      ),
    );
    // The same orders: sent all at once through one desk, and one after another through clients
    // that share nothing.
    const plan = (i: number) => [
      market(i % 2 ? 'sell' : 'buy', 0.1 + i / 100),
      market('buy', 1 + i, { symbol: ETH }),
      market(i % 2 ? 'buy' : 'sell', 0.05, {
        reduceOnly: true,
        positionSide: i % 2 ? undefined : 'long',
      }),
    ];
    const orders = ids.map((_, i) => plan(i));
    const shared = sharedClients(ids);
    const together = await Promise.all(
      shared.map(async (client, i) => {
        const answers = [];
        for (const order of orders[i]!) answers.push(await client.createOrder(order));
        return answers;
      }),
    );
    for (const [i, accountId] of alone.entries()) {
      const client = clientFor(accountId);
      for (const [n, order] of orders[i]!.entries()) {
        const answer = await client.createOrder({
          ...order,
          clientOrderId: `${order.clientOrderId}-alone`,
        });
        expect(answer.filled).toBe(together[i]![n]!.filled);
        expect(answer.averagePrice).toBe(together[i]![n]!.averagePrice);
        expect(answer.fee).toBe(together[i]![n]!.fee);
      }
      expect(await state(shared[i]!)).toEqual(await state(client));
    }
    // Every order once, at its client order id.
    for (const [i, client] of shared.entries()) {
      for (const order of orders[i]!) {
        expect((await client.fetchOrderByClientId(order.symbol, order.clientOrderId))?.status).toBe(
          'closed',
        );
      }
    }
  });

  it('sets the leverage of many accounts together, held positions included, as one at a time', async () => {
    prices.set(BTC, 50_000);
    prices.set(ETH, 3_000);
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => paperAccount({ positionMode: 'net', leverage: 5 })),
    );
    const alone = await paperAccount({ positionMode: 'net', leverage: 5 });
    const shared = sharedClients(ids);
    for (const client of [...shared, clientFor(alone)]) {
      await client.createOrder(market('buy', 0.1));
    }
    // Each account a different leverage; one account twice in the batch (the last call wins).
    await Promise.all([
      ...shared.map((client, i) => client.setLeverage(BTC, 10 + i)),
      shared[0]!.setLeverage(ETH, 3),
      shared[1]!.setLeverage(BTC, 20),
    ]);
    await clientFor(alone).setLeverage(BTC, 10);
    const leverages = await Promise.all(
      shared.map(async (client) => (await client.fetchPositions())[0]?.leverage),
    );
    expect(leverages).toEqual([10, 20, 12, 13, 14]);
    // The position held is margined at its new leverage, exactly as an account set on its own.
    expect(await shared[0]!.fetchBalance()).toEqual(await clientFor(alone).fetchBalance());
    // A later order opens at the leverage set for its symbol.
    await shared[0]!.createOrder(market('buy', 1, { symbol: ETH }));
    const eth = (await shared[0]!.fetchPositions()).find((p) => p.symbol === ETH);
    expect(eth?.leverage).toBe(3);
  });

  it('refuses one account without failing the others in its batch, and answers a repeat once', async () => {
    prices.set(BTC, 50_000);
    const [poor, rich] = await Promise.all([
      paperAccount({ balance: '10', leverage: 1 }),
      paperAccount({ balance: '10000', leverage: 5 }),
    ]);
    const [poorClient, richClient] = sharedClients([poor!, rich!]);
    const order = market('buy', 0.1);
    const [refused, filled, repeat] = await Promise.allSettled([
      poorClient!.createOrder(market('buy', 0.1)),
      richClient!.createOrder(order),
      richClient!.createOrder(order),
    ]);
    expect(refused.status).toBe('rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(ExchangeAdapterError);
    expect((refused as PromiseRejectedResult).reason.kind).toBe('insufficient_funds');
    expect(filled.status).toBe('fulfilled');
    expect(repeat.status).toBe('fulfilled');
    const a = (filled as PromiseFulfilledResult<{ id: string }>).value;
    const b = (repeat as PromiseFulfilledResult<{ id: string }>).value;
    expect(b.id).toBe(a.id);
    expect((await poorClient!.fetchBalance()).USDT?.total).toBe(10);
    expect((await richClient!.fetchPositions()).map((p) => p.amount)).toEqual([0.1]);
  });
});

describe('prices from the market feed', () => {
  it('fills at the latest 1m close of the simulated feed', async () => {
    const feed = createMarketFeed({
      mode: 'simulated',
      clock,
      fundingRates: createMemoryFundingRatesRepository(),
    });
    const feedPrices = feedPriceSource(feed);
    const series = await feed.series({
      exchange: 'binance',
      symbol: BTC,
      timeframe: '1m',
      closedCount: 1,
    });
    const latest = series.forming?.close ?? series.closed.at(-1)?.close;
    expect(await feedPrices.lastPrice('binance', BTC)).toBe(latest);
    const client = testPaperClient({
      paperBalances: writePaperBalances,
      db: database.db,
      clock,
      prices: feedPrices,
      accountId: await paperAccount(),
      exchange: 'binance',
      slippageBps: 0,
    });
    const order = await client.createOrder(market('buy', 0.01));
    expect(order.averagePrice).toBe(latest);
    await expectAdapterError(feedPrices.lastPrice('binance', 'NOPE/USDT:USDT'), 'unavailable');
    await feed.stop();
  });
});
