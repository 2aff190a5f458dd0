import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { OrderNotSentError } from '../../src/exchange/exchange-client.js';
import { API_PASSWORD, adapterErrorOf, clientAt } from './exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from './fake-exchange-private.js';

const ETH = 'ETH/USDT:USDT';
const ORDER = '/api/v5/trade/order';
const BALANCE = '/api/v5/account/balance';

let fake: FakePrivateExchange;

beforeEach(async () => {
  fake = await startFakeExchange({ exchange: 'okx' });
});
afterEach(async () => {
  await fake.close();
});

describe('okx swaps through ccxt: base quantity in, contracts on the wire', () => {
  it('answers market facts in base quantity (ETH-USDT-SWAP: 0.1 ETH a contract)', async () => {
    const { client } = clientAt(fake, 'okx');
    expect(await client.marketFacts(ETH)).toEqual({
      symbol: ETH,
      contractSize: 0.1,
      amountStep: 0.001,
      priceStep: 0.01,
      minAmount: 0.001,
      minNotional: 0,
      maxLeverage: 100,
    });
    expect(fake.callsTo('/api/v5/public/instruments')).toHaveLength(1);
    // fetchCurrencies is off: no asset/currencies call even with a key.
    expect(fake.calls.map((call) => call.path)).toEqual(['/api/v5/public/instruments']);
  });

  it('sends 1 ETH as sz=10 contracts and reads the order back as 1 ETH', async () => {
    const { client } = clientAt(fake, 'okx');
    const order = await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 1,
      clientOrderId: 'qsbot10001',
    });
    expect(order).toMatchObject({
      clientOrderId: 'qsbot10001',
      amount: 1,
      side: 'buy',
      type: 'market',
    });
    const sent = fake.callsTo(ORDER, 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.params).toMatchObject({
      instId: 'ETH-USDT-SWAP',
      sz: '10',
      clOrdId: 'qsbot10001',
      tdMode: 'cross',
      side: 'buy',
    });
    expect(sent[0]?.headers['ok-access-passphrase']).toBe(API_PASSWORD);
    const found = await client.fetchOrderByClientId(ETH, 'qsbot10001');
    expect(found).toMatchObject({
      id: order.id,
      amount: 1,
      filled: 1,
      averagePrice: 2000,
      status: 'closed',
      fee: 1,
    });
    const trades = await client.fetchMyTrades(ETH);
    expect(trades).toEqual([
      expect.objectContaining({ orderId: order.id, amount: 1, price: 2000, fee: 1 }),
    ]);
  });

  it('converts 0.3 ETH to exactly 3 contracts', async () => {
    const { client } = clientAt(fake, 'okx');
    await client.createOrder({
      symbol: ETH,
      side: 'sell',
      type: 'limit',
      amount: 0.3,
      price: 2100,
      clientOrderId: 'qs03',
    });
    expect(fake.callsTo(ORDER, 'POST')[0]?.params.sz).toBe('3');
    const [open] = await client.fetchOpenOrders(ETH);
    expect(open).toMatchObject({ amount: 0.3, status: 'open', type: 'limit' });
  });

  it('places a stop-market order as a conditional algo order in contracts', async () => {
    const { client } = clientAt(fake, 'okx');
    const stop = await client.createOrder({
      symbol: ETH,
      side: 'sell',
      type: 'stop_market',
      amount: 2,
      triggerPrice: 1800,
      reduceOnly: true,
      clientOrderId: 'qsstop1',
    });
    expect(stop).toMatchObject({ clientOrderId: 'qsstop1', amount: 2 });
    expect(fake.callsTo('/api/v5/trade/order-algo', 'POST')[0]?.params).toMatchObject({
      sz: '20',
      ordType: 'conditional',
      algoClOrdId: 'qsstop1',
      slTriggerPx: '1800',
    });
    const [open] = await client.fetchOpenOrders(ETH);
    expect(open).toMatchObject({ id: stop.id, type: 'stop_market', amount: 2, status: 'open' });
    expect(fake.callsTo('/api/v5/trade/orders-algo-pending')[0]?.params.ordType).toBe(
      'conditional',
    );
    await client.cancelOrder(ETH, stop.id);
    expect(fake.callsTo('/api/v5/trade/cancel-algos', 'POST')).toHaveLength(1);
    expect(await client.fetchOpenOrders(ETH)).toEqual([]);
  });

  it('reads a position of 20 contracts as 2 ETH', async () => {
    fake.state.positions = [
      {
        base: 'ETH',
        side: 'long',
        size: 20,
        entryPrice: 2000,
        markPrice: 2010,
        unrealizedPnl: 20,
        leverage: 10,
      },
    ];
    const { client } = clientAt(fake, 'okx');
    expect(await client.fetchPositions([ETH])).toEqual([
      {
        symbol: ETH,
        side: 'long',
        amount: 2,
        entryPrice: 2000,
        markPrice: 2010,
        unrealizedPnl: 20,
        leverage: 10,
      },
    ]);
  });

  it('reads the USDT balance', async () => {
    const { client } = clientAt(fake, 'okx');
    expect((await client.fetchBalance()).USDT).toEqual({ total: 1000, free: 800, used: 200 });
  });

  it('in hedge mode sends posSide and leaves reduceOnly out', async () => {
    const { client } = clientAt(fake, 'okx', { positionMode: 'hedge' });
    await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 0.5,
      reduceOnly: true,
      clientOrderId: 'qsclose1',
    });
    const sent = fake.callsTo(ORDER, 'POST')[0];
    expect(sent?.params.posSide).toBe('short');
    expect(sent?.params.reduceOnly).toBeUndefined();
  });

  it('sets cross leverage', async () => {
    const { client } = clientAt(fake, 'okx');
    await client.setLeverage(ETH, 5);
    expect(fake.callsTo('/api/v5/account/set-leverage', 'POST')[0]?.params).toMatchObject({
      instId: 'ETH-USDT-SWAP',
      lever: '5',
      mgnMode: 'cross',
    });
  });
});

describe('okx swaps through ccxt: keys and testnet', () => {
  it('reads key permissions from account/config', async () => {
    const { client } = clientAt(fake, 'okx');
    expect(await client.checkPermissions()).toEqual({
      canTrade: true,
      canWithdraw: false,
      ipRestricted: false,
    });
    fake.state.okxPermissions = { perm: 'read_only,trade,withdraw', ip: '203.0.113.7' };
    expect(await client.checkPermissions()).toEqual({
      canTrade: true,
      canWithdraw: true,
      ipRestricted: true,
    });
  });

  it('refuses to build a client without the passphrase', () => {
    expect(() =>
      createCcxtExchangeClient({
        exchange: 'okx',
        apiKey: 'k',
        apiSecret: 's',
        isTestnet: false,
        positionMode: 'net',
        urlsOverride: fake.url,
      }),
    ).toThrow(expect.objectContaining({ kind: 'invalid_key' }));
  });

  it('uses demo trading on testnet (x-simulated-trading header)', async () => {
    const { client } = clientAt(fake, 'okx', { isTestnet: true });
    await client.fetchBalance();
    expect(fake.callsTo(BALANCE)[0]?.headers['x-simulated-trading']).toBe('1');
  });

  it('answers invalid_key on a 401 after exactly one call', async () => {
    fake.failNext('GET', BALANCE, {
      kind: 'http',
      status: 401,
      body: { code: '50111', msg: 'Invalid OK-ACCESS-KEY', data: [] },
    });
    const { client, sleeps } = clientAt(fake, 'okx');
    expect((await adapterErrorOf(client.fetchBalance())).kind).toBe('invalid_key');
    expect(fake.callsTo(BALANCE)).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('okx swaps through ccxt: failures', () => {
  it('waits what Retry-After says on a 429 and retries a read', async () => {
    fake.failNext('GET', BALANCE, {
      kind: 'http',
      status: 429,
      body: { code: '50011', msg: 'Too Many Requests', data: [] },
      headers: { 'Retry-After': '1' },
    });
    const { client, sleeps } = clientAt(fake, 'okx');
    expect((await client.fetchBalance()).USDT?.total).toBe(1000);
    expect(fake.callsTo(BALANCE)).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('on a duplicate clOrdId (51016) answers the order that already landed', async () => {
    fake.failNext('POST', ORDER, { kind: 'hang-after-accept' });
    const { client } = clientAt(fake, 'okx');
    // The first send lands but its answer is lost; the lookup finds it.
    const first = await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 1,
      clientOrderId: 'qsdup1',
    });
    // A caller that sends the same id again gets 51016 and the same order back.
    const again = await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 1,
      clientOrderId: 'qsdup1',
    });
    expect(again.id).toBe(first.id);
    expect(again.amount).toBe(1);
    expect(fake.callsTo(ORDER, 'POST')).toHaveLength(2);
    expect(fake.callsTo(ORDER, 'GET')).toHaveLength(2);
    expect(fake.state.orders).toHaveLength(1);
  });

  it('refuses a clOrdId OKX would refuse, without calling it', async () => {
    const { client } = clientAt(fake, 'okx');
    const error = await adapterErrorOf(
      client.createOrder({
        symbol: ETH,
        side: 'buy',
        type: 'market',
        amount: 1,
        clientOrderId: 'qs-with-dashes',
      }),
    );
    expect(error.kind).toBe('invalid_order');
    expect(fake.callsTo(ORDER)).toHaveLength(0);
  });

  it('on clock skew (50102) re-syncs with public/time once and resends once', async () => {
    fake.state.serverClockOffsetMs = 90_000;
    const { client } = clientAt(fake, 'okx');
    expect((await client.fetchBalance()).USDT?.total).toBe(1000);
    expect(fake.callsTo(BALANCE)).toHaveLength(2);
    expect(fake.callsTo('/api/v5/public/time')).toHaveLength(1);
  });
});

describe('okx swaps through ccxt: the send deadline', () => {
  it('is checked on the request that carries the order (clOrdId in its JSON body)', async () => {
    const { client } = clientAt(fake, 'okx');
    await client.loadMarkets();
    const order = (clientOrderId: string, sendBy: number) =>
      client.createOrder({
        symbol: 'BTC/USDT:USDT',
        side: 'buy',
        type: 'market',
        amount: 0.01,
        clientOrderId,
        sendBy,
      });
    const error = await order('qsokxlate1', performance.now() - 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderNotSentError);
    expect(fake.callsTo(ORDER, 'POST')).toEqual([]);
    await expect(order('qsokxlate2', performance.now() + 60_000)).resolves.toMatchObject({
      clientOrderId: 'qsokxlate2',
    });
    expect(fake.callsTo(ORDER, 'POST')).toHaveLength(1);
  });
});
