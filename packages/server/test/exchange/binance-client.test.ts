import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtMarketCache } from '../../src/exchange/ccxt/index.js';
import { OrderNotSentError } from '../../src/exchange/exchange-client.js';
import { API_KEY, adapterErrorOf, clientAt } from './exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from './fake-exchange-private.js';

const BTC = 'BTC/USDT:USDT';
const ETH = 'ETH/USDT:USDT';
const ORDER = '/fapi/v1/order';
const ACCOUNT = '/fapi/v3/account';

let fake: FakePrivateExchange;

beforeEach(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
});
afterEach(async () => {
  await fake.close();
});

describe('binance USDⓈ-M through ccxt: reads', () => {
  it('loads markets once for concurrent callers and makes no spot or sapi call', async () => {
    const { client } = clientAt(fake, 'binance');
    await Promise.all([client.loadMarkets(), client.marketFacts(BTC), client.fetchBalance()]);
    await client.marketFacts(ETH);
    expect(fake.callsTo('/fapi/v1/exchangeInfo')).toHaveLength(1);
    expect(fake.calls.every((call) => call.path.startsWith('/fapi/'))).toBe(true);
  });

  it('shares one market list between the clients of many accounts', async () => {
    const marketCache = createCcxtMarketCache();
    const clients = Array.from(
      { length: 5 },
      (_, i) => clientAt(fake, 'binance', { apiKey: `${API_KEY}${i}`, marketCache }).client,
    );
    const facts = await Promise.all(clients.map((client) => client.marketFacts(BTC)));
    expect(new Set(facts.map((f) => JSON.stringify(f))).size).toBe(1);
    // Every account trades on the shared list: ccxt finds the market without loading its own.
    const order = await clients[3]!.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 0.5,
      clientOrderId: 'qs-shared-0001',
    });
    expect(order).toMatchObject({ symbol: ETH, status: 'closed', filled: 0.5 });
    expect(fake.callsTo('/fapi/v1/exchangeInfo')).toHaveLength(1);
    // Without the cache each client loads its own.
    await clientAt(fake, 'binance', { apiKey: `${API_KEY}x` }).client.marketFacts(BTC);
    expect(fake.callsTo('/fapi/v1/exchangeInfo')).toHaveLength(2);
  });

  it('sends the orders of many accounts through one keep-alive pool, each signed with its key', async () => {
    const order = (i: number) => ({
      symbol: ETH,
      side: 'buy' as const,
      type: 'market' as const,
      amount: 0.5,
      clientOrderId: `qs-pool-${i}`,
    });
    const marketCache = createCcxtMarketCache();
    const shared = Array.from(
      { length: 12 },
      (_, i) => clientAt(fake, 'binance', { apiKey: `${API_KEY}p${i}`, marketCache }).client,
    );
    await shared[0]!.loadMarkets();
    const loading = fake.connections();
    for (const [i, client] of shared.entries()) await client.createOrder(order(i));
    // Twelve accounts' orders, one after another: kept-alive connections of one pool, not one
    // connection per account as each account's own pool opened. (A request that leaves before
    // the pool has seen its last answer end may open a second connection.)
    expect(fake.connections() - loading).toBeLessThanOrEqual(2);
    const keys = fake.callsTo(ORDER, 'POST').map((call) => call.headers['x-mbx-apikey']);
    expect(keys).toEqual(shared.map((_, i) => `${API_KEY}p${i}`));
    // Without the shared cache every account opens a connection of its own.
    const before = fake.connections();
    for (let i = 0; i < 3; i++) {
      await clientAt(fake, 'binance', { apiKey: `${API_KEY}q${i}` }).client.createOrder(
        order(100 + i),
      );
    }
    expect(fake.connections() - before).toBeGreaterThanOrEqual(3);
  });

  it('answers market facts in base quantity', async () => {
    const { client } = clientAt(fake, 'binance');
    expect(await client.marketFacts(BTC)).toEqual({
      symbol: BTC,
      contractSize: 1,
      amountStep: 0.001,
      priceStep: 0.1,
      minAmount: 0.001,
      minNotional: 100,
      maxLeverage: null,
    });
  });

  it('reads the USDT balance and open positions', async () => {
    fake.state.positions = [
      {
        base: 'ETH',
        side: 'short',
        size: 1.5,
        entryPrice: 2000,
        markPrice: 1990,
        unrealizedPnl: 15,
        leverage: 5,
      },
    ];
    const { client } = clientAt(fake, 'binance');
    expect((await client.fetchBalance()).USDT).toEqual({ total: 1000, free: 800, used: 200 });
    const positions = await client.fetchPositions();
    expect(positions).toEqual([
      expect.objectContaining({
        symbol: ETH,
        side: 'short',
        amount: 1.5,
        entryPrice: 2000,
        unrealizedPnl: 15,
      }),
    ]);
    const signed = fake.callsTo(ACCOUNT)[0];
    expect(signed?.headers['x-mbx-apikey']).toBe(API_KEY);
    expect(signed?.params.signature).toBeTruthy();
  });

  it('says nothing about key permissions but proves the key with one signed futures read', async () => {
    const { client } = clientAt(fake, 'binance');
    expect(await client.checkPermissions()).toEqual({
      canTrade: null,
      canWithdraw: null,
      ipRestricted: null,
    });
    expect(fake.callsTo(ACCOUNT)).toHaveLength(1);
    expect(fake.calls.some((call) => call.path.includes('sapi'))).toBe(false);
  });

  it('sets leverage per symbol', async () => {
    const { client } = clientAt(fake, 'binance');
    await client.setLeverage(BTC, 7);
    expect(fake.callsTo('/fapi/v1/leverage', 'POST')[0]?.params).toMatchObject({
      symbol: 'BTCUSDT',
      leverage: '7',
    });
  });
});

describe('binance USDⓈ-M through ccxt: orders', () => {
  it('places a market order with our client order id and finds it again by that id', async () => {
    const { client } = clientAt(fake, 'binance');
    const order = await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'market',
      amount: 0.5,
      clientOrderId: 'qs-bot1-0001',
    });
    expect(order).toMatchObject({
      clientOrderId: 'qs-bot1-0001',
      symbol: BTC,
      side: 'buy',
      type: 'market',
      status: 'closed',
      amount: 0.5,
      filled: 0.5,
      averagePrice: 50_000,
    });
    const sent = fake.callsTo(ORDER, 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.params).toMatchObject({ newClientOrderId: 'qs-bot1-0001', quantity: '0.5' });
    expect(sent[0]?.params.positionSide).toBeUndefined();
    expect(await client.fetchOrderByClientId(BTC, 'qs-bot1-0001')).toMatchObject({ id: order.id });
    expect(await client.fetchOrderByClientId(BTC, 'qs-unknown')).toBeNull();
    const trades = await client.fetchMyTrades(BTC);
    expect(trades).toEqual([
      expect.objectContaining({
        orderId: order.id,
        side: 'buy',
        amount: 0.5,
        price: 50_000,
        fee: 12.5,
      }),
    ]);
  });

  it('lists an open limit order and cancels it', async () => {
    const { client } = clientAt(fake, 'binance');
    const order = await client.createOrder({
      symbol: ETH,
      side: 'sell',
      type: 'limit',
      amount: 0.2,
      price: 2100,
      clientOrderId: 'qs-limit-1',
    });
    expect(order.status).toBe('open');
    expect((await client.fetchOpenOrders()).map((o) => o.id)).toEqual([order.id]);
    await client.cancelOrder(ETH, order.id);
    expect(await client.fetchOpenOrders(ETH)).toEqual([]);
  });

  it('in hedge mode sends positionSide and leaves reduceOnly out', async () => {
    const { client } = clientAt(fake, 'binance', { positionMode: 'hedge' });
    await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'market',
      amount: 0.1,
      clientOrderId: 'h-open',
    });
    await client.createOrder({
      symbol: BTC,
      side: 'sell',
      type: 'market',
      amount: 0.1,
      reduceOnly: true,
      clientOrderId: 'h-close',
    });
    const [open, close] = fake.callsTo(ORDER, 'POST');
    expect(open?.params.positionSide).toBe('LONG');
    expect(close?.params.positionSide).toBe('LONG');
    expect(close?.params.reduceOnly).toBeUndefined();
  });

  it('in one-way mode sends reduceOnly', async () => {
    const { client } = clientAt(fake, 'binance');
    await client.createOrder({
      symbol: BTC,
      side: 'sell',
      type: 'market',
      amount: 0.1,
      reduceOnly: true,
      clientOrderId: 'n-close',
    });
    expect(fake.callsTo(ORDER, 'POST')[0]?.params.reduceOnly).toBe('true');
  });

  it('places a stop-market order in the algo book, finds, lists and cancels it', async () => {
    const { client } = clientAt(fake, 'binance');
    const stop = await client.createOrder({
      symbol: BTC,
      side: 'sell',
      type: 'stop_market',
      amount: 0.1,
      triggerPrice: 45_000,
      reduceOnly: true,
      clientOrderId: 'qs-stop-1',
    });
    expect(stop).toMatchObject({
      type: 'stop_market',
      status: 'open',
      amount: 0.1,
      clientOrderId: 'qs-stop-1',
    });
    expect(fake.callsTo('/fapi/v1/algoOrder', 'POST')[0]?.params).toMatchObject({
      clientAlgoId: 'qs-stop-1',
      triggerPrice: '45000',
      quantity: '0.1',
      algoType: 'CONDITIONAL',
    });
    expect(await client.fetchOrderByClientId(BTC, 'qs-stop-1')).toMatchObject({ id: stop.id });
    expect((await client.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual([stop.id]);
    await client.cancelOrder(BTC, stop.id);
    expect(fake.callsTo(ORDER, 'DELETE')).toHaveLength(1);
    expect(fake.callsTo('/fapi/v1/algoOrder', 'DELETE')).toHaveLength(1);
    expect(await client.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('refuses a client order id Binance would refuse, without calling it', async () => {
    const { client } = clientAt(fake, 'binance');
    const error = await adapterErrorOf(
      client.createOrder({
        symbol: BTC,
        side: 'buy',
        type: 'market',
        amount: 0.1,
        clientOrderId: 'bad id!',
      }),
    );
    expect(error.kind).toBe('invalid_order');
    expect(fake.callsTo(ORDER)).toHaveLength(0);
  });
});

describe('binance USDⓈ-M through ccxt: the send deadline', () => {
  const order = (clientOrderId: string, sendBy: number) => ({
    symbol: BTC,
    side: 'buy' as const,
    type: 'market' as const,
    amount: 0.01,
    clientOrderId,
    sendBy,
  });

  it('is checked right before the request: a late order is not written', async () => {
    const { client } = clientAt(fake, 'binance');
    await client.loadMarkets();
    const error = await client
      .createOrder(order('qs-late-0001', performance.now() - 1))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderNotSentError);
    expect(error).toMatchObject({ clientOrderId: 'qs-late-0001' });
    expect(fake.callsTo(ORDER, 'POST')).toEqual([]);
    const sent = await client.createOrder(order('qs-late-0002', performance.now() + 60_000));
    expect(sent).toMatchObject({ clientOrderId: 'qs-late-0002', status: 'closed' });
  });

  it("carries the claim's time as timestamp and recvWindow, so the venue refuses it late", async () => {
    const strict = await startFakeExchange({ exchange: 'binance', enforcesRequestExpiry: true });
    try {
      const { client } = clientAt(strict, 'binance');
      await client.loadMarkets();
      // Claimed 6 s ago with a 5 s window: however late the write, the venue refuses it.
      const claimedAtMs = Date.now() - 6_000;
      const error = await client
        .createOrder({
          ...order('qs-late-0003', performance.now() + 60_000),
          claimedAtMs,
          expiresAtMs: claimedAtMs + 5_000,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OrderNotSentError);
      const posts = strict.callsTo(ORDER, 'POST');
      expect(posts.length).toBeGreaterThan(0);
      for (const post of posts) {
        expect(Number(post.params.timestamp)).toBe(claimedAtMs);
        expect(post.params.recvWindow).toBe('5000');
      }
      expect(strict.state.orders).toHaveLength(0);
      // Within its window the same kind of request is taken.
      const now = Date.now();
      const sent = await client.createOrder({
        ...order('qs-late-0004', performance.now() + 60_000),
        claimedAtMs: now,
        expiresAtMs: now + 5_000,
      });
      expect(sent.clientOrderId).toBe('qs-late-0004');
    } finally {
      await strict.close();
    }
  });
});
