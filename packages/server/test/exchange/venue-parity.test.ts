import ccxt, { type Exchange as CcxtExchange, type Order } from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeExchangeOptions,
  type FakePrivateExchange,
  type FakeVenue,
  startFakeExchange,
} from './fake-exchange-private.js';
import { resolveBehaviour, VENUE_DEFAULTS, VENUE_FAITHFUL } from './fake-venue-behaviour.js';
import { ccxtAt, ccxtErrorOf, recorded, SYMBOLS, shapeOf } from './fake-venue-client.js';

// The fake venues against real recorded answers (recorded/README.md): each kind of answer, from
// the fake and from the record, parsed by the same real ccxt, must define the same fields with
// the same types and raise the same ccxt error classes. Then each behaviour of the fakes, driven
// through real ccxt.

const { ETH } = SYMBOLS;
const okx = recorded('okx-answers.json');
const binance = recorded('binance-answers.json');
const errors = recorded<Record<FakeVenue, Record<string, FakeAnswer>>>('venue-errors.json');

interface FakeAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

let fake: FakePrivateExchange | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function venueAt(options: FakeExchangeOptions): Promise<CcxtExchange> {
  fake = await startFakeExchange(options);
  return ccxtAt(fake, options.exchange);
}

const current = (): FakePrivateExchange => {
  if (!fake) throw new Error('no fake started');
  return fake;
};

/** An OKX client order id is 1–32 letters and digits; Binance takes those too. */
let sequence = 0;
const nextId = () => `qsparity${++sequence}`;

const marketBuy = (venue: CcxtExchange, amount: number) =>
  venue.createOrder(ETH, 'market', 'buy', amount, undefined, { clientOrderId: nextId() });
const limitBuy = (venue: CcxtExchange, amount: number, price: number, isIoc = false) =>
  venue.createOrder(ETH, 'limit', 'buy', amount, price, {
    clientOrderId: nextId(),
    ...(isIoc ? { timeInForce: 'IOC' } : {}),
  });

/** Parses a recorded order as ccxt's fetchOrder does (its market is unknown to the fake). */
function parseRecordedOrder(venue: CcxtExchange, raw: unknown): Order {
  return venue.parseOrder(raw as Record<string, unknown>);
}

/** The recorded ack as ccxt's createOrder parses it (OKX: data[0], then type and side set). */
function parseRecordedAck(venue: CcxtExchange, name: FakeVenue): Order {
  const market = venue.market(ETH);
  if (name === 'binance')
    return venue.parseOrder(binance.createOrder as Record<string, unknown>, market);
  const [first] = (okx.createOrder as { data: Record<string, unknown>[] }).data;
  return { ...venue.parseOrder(first ?? {}, market), type: 'market', side: 'buy' };
}

/**
 * The recorded live OKX order is post_only, which ccxt reads with timeInForce PO and postOnly;
 * ours are plain limit orders, read without them, so the record is held with ordType limit.
 */
const okxLiveAsLimit = { ...okx.liveSwapOrder, ordType: 'limit' };

const RECORDED_ORDERS = {
  okx: {
    live: okxLiveAsLimit,
    filled: okx.filledSwapOrder,
    // ccxt recorded no canceled OKX swap order: a canceled unfilled order reads like a live one.
    canceled: okxLiveAsLimit,
  },
  binance: {
    live: binance.newSwapOrder,
    filled: binance.filledSwapOrder,
    // ccxt recorded no canceled USDⓈ-M order: an unfilled one reads like the NEW one.
    canceled: binance.newSwapOrder,
  },
} as const;
const RECORDED_TRADES = { okx: okx.fill, binance: binance.swapTrade } as const;

describe.each(['okx', 'binance'] as const)(
  '%s fake answers parse like the recorded ones',
  (name) => {
    it('acks a create with the recorded fields (OKX: ids only, no state)', async () => {
      const venue = await venueAt({ exchange: name, venueFaithful: true });
      // The recorded acks: an OKX market order, a Binance limit order.
      const ack = name === 'okx' ? await marketBuy(venue, 1) : await limitBuy(venue, 1, 1_500);
      expect(shapeOf(ack)).toEqual(shapeOf(parseRecordedAck(venue, name)));
      const marketAck = await marketBuy(venue, 1);
      if (name === 'okx') {
        expect([marketAck.status, marketAck.filled, marketAck.average]).toEqual([
          undefined,
          undefined,
          undefined,
        ]);
      } else {
        expect([marketAck.status, marketAck.filled]).toEqual(['open', 0]);
      }
    });

    it('reads a resting order like the recorded live one', async () => {
      const venue = await venueAt({ exchange: name, venueFaithful: true, lookupLagMs: 0 });
      const placed = await limitBuy(venue, 1, 1_500);
      const found = await venue.fetchOrder(String(placed.id), ETH);
      expect(found.status).toBe('open');
      expect(shapeOf(found)).toEqual(
        shapeOf(parseRecordedOrder(venue, RECORDED_ORDERS[name].live)),
      );
    });

    it('reads a filled order like the recorded filled one', async () => {
      const venue = await venueAt({ exchange: name, venueFaithful: true });
      const placed = await marketBuy(venue, 1);
      current().advanceClock(VENUE_FAITHFUL.lookupLagMs);
      const found = await venue.fetchOrder(String(placed.id), ETH);
      expect(found.status).toBe('closed');
      expect(shapeOf(found)).toEqual(
        shapeOf(parseRecordedOrder(venue, RECORDED_ORDERS[name].filled)),
      );
    });

    it('reads a partially filled order with the fields of a filled one', async () => {
      const venue = await venueAt({ exchange: name, tradesPerFill: 3, tradeSpacingMs: 3_000 });
      const placed = await marketBuy(venue, 1);
      const found = await venue.fetchOrder(String(placed.id), ETH);
      expect(found.status).toBe('open');
      expect(found.filled).toBeGreaterThan(0);
      expect(found.filled).toBeLessThan(1);
      expect(shapeOf(found)).toEqual(
        shapeOf(parseRecordedOrder(venue, RECORDED_ORDERS[name].filled)),
      );
    });

    it('reads a canceled order with the recorded fields', async () => {
      const venue = await venueAt({ exchange: name });
      const placed = await limitBuy(venue, 1, 1_500);
      await venue.cancelOrder(String(placed.id), ETH);
      const found = await venue.fetchOrder(String(placed.id), ETH);
      expect(found.status).toBe('canceled');
      expect(shapeOf(found)).toEqual(
        shapeOf(parseRecordedOrder(venue, RECORDED_ORDERS[name].canceled)),
      );
    });

    it('lists trades with a fee in the venue coin like the recorded trade rows', async () => {
      const venue = await venueAt({ exchange: name, isFeeInPlatformCoin: true });
      await marketBuy(venue, 1);
      const [trade] = await venue.fetchMyTrades(ETH);
      expect(trade?.fee?.currency).toBe(name === 'okx' ? 'OKB' : 'BNB');
      const record = venue.parseTrade(RECORDED_TRADES[name] as Record<string, unknown>);
      expect(shapeOf(trade ?? {})).toEqual(shapeOf(record));
    });

    // ccxt's binance raises DDoSProtection on any 429 before reading the code; okx reads 50011.
    const rateLimitClass = name === 'okx' ? ccxt.RateLimitExceeded : ccxt.DDoSProtection;
    it.each([
      ['orderNotFound', ccxt.OrderNotFound],
      ['rateLimited', rateLimitClass],
    ] as const)('raises for %s the ccxt class the recorded answer raises', async (kind, base) => {
      const venue = await venueAt({ exchange: name, rateLimitEveryNthOrder: 1 });
      const own =
        kind === 'orderNotFound'
          ? await ccxtErrorOf(venue.fetchOrder('424242', ETH))
          : await ccxtErrorOf(marketBuy(venue, 1));
      const answer = errors[name][kind] as FakeAnswer;
      const path = name === 'okx' ? '/api/v5/trade/order' : '/fapi/v1/order';
      current().failNext(kind === 'orderNotFound' ? 'GET' : 'POST', path, {
        kind: 'http',
        ...answer,
      });
      const fromRecord =
        kind === 'orderNotFound'
          ? await ccxtErrorOf(venue.fetchOrder('424243', ETH))
          : await ccxtErrorOf(marketBuy(venue, 1));
      expect(own).toBeInstanceOf(base);
      expect(own.constructor).toBe(fromRecord.constructor);
    });
  },
);

describe('venue behaviour options', () => {
  it('are all off by default; venueFaithful turns all on; explicit values win', () => {
    expect(resolveBehaviour(false, {})).toEqual(VENUE_DEFAULTS);
    expect(resolveBehaviour(true, {})).toEqual(VENUE_FAITHFUL);
    expect(resolveBehaviour(true, { rateLimitEveryNthOrder: 0, lookupLagMs: undefined })).toEqual({
      ...VENUE_FAITHFUL,
      rateLimitEveryNthOrder: 0,
    });
  });
});

// The fake's clock is the real one plus what tests advance it by: each wait below leaves
// seconds of real time to spare, and stays inside the venues' clock-skew windows (Binance 10 s).
// ccxt amounts are the venue's units: 1 is 1 ETH on Binance, 1 contract (0.1 ETH) on OKX.

describe.each(['okx', 'binance'] as const)('%s fake behaviours through real ccxt', (name) => {
  const byClientId = (venue: CcxtExchange, clientOrderId: string) =>
    venue.fetchOrder('', ETH, { clientOrderId });

  it('lookupLagMs: an acked order is unknown to lookups and lists until the lag passes', async () => {
    const venue = await venueAt({ exchange: name, lookupLagMs: 5_000 });
    const placed = await limitBuy(venue, 1, 1_500);
    const clientOrderId = String(placed.clientOrderId);
    expect(await ccxtErrorOf(venue.fetchOrder(String(placed.id), ETH))).toBeInstanceOf(
      ccxt.OrderNotFound,
    );
    expect(await ccxtErrorOf(byClientId(venue, clientOrderId))).toBeInstanceOf(ccxt.OrderNotFound);
    expect(await venue.fetchOpenOrders(ETH)).toEqual([]);
    current().advanceClock(2_500);
    expect(await ccxtErrorOf(byClientId(venue, clientOrderId))).toBeInstanceOf(ccxt.OrderNotFound);
    current().advanceClock(2_500);
    expect(await byClientId(venue, clientOrderId)).toMatchObject({ id: placed.id, status: 'open' });
    expect(await venue.fetchOpenOrders(ETH)).toHaveLength(1);
  });

  it('fillDelayMs: a market order reads unfilled after its ack and filled once the delay passes', async () => {
    const venue = await venueAt({ exchange: name, fillDelayMs: 3_000 });
    const placed = await marketBuy(venue, 1);
    if (name === 'binance') expect([placed.status, placed.filled]).toEqual(['open', 0]);
    expect(await venue.fetchOrder(String(placed.id), ETH)).toMatchObject({
      status: 'open',
      filled: 0,
    });
    expect(await venue.fetchMyTrades(ETH)).toEqual([]);
    current().advanceClock(3_000);
    expect(await venue.fetchOrder(String(placed.id), ETH)).toMatchObject({
      status: 'closed',
      filled: 1,
    });
  });

  it('tradesPerFill/tradeStepTicks/tradeSpacingMs: a fill is several trades walking the book', async () => {
    const venue = await venueAt({
      exchange: name,
      tradesPerFill: 3,
      tradeStepTicks: 2,
      tradeSpacingMs: 3_000,
    });
    const placed = await marketBuy(venue, 1);
    const partial = await venue.fetchOrder(String(placed.id), ETH);
    expect(partial.status).toBe('open');
    expect((partial.info as Record<string, unknown>)[name === 'okx' ? 'state' : 'status']).toBe(
      name === 'okx' ? 'partially_filled' : 'PARTIALLY_FILLED',
    );
    current().advanceClock(6_000);
    const trades = await venue.fetchMyTrades(ETH);
    expect(trades.map((trade) => trade.price)).toEqual([2000, 2000.02, 2000.04]);
    expect(new Set(trades.map((trade) => trade.id)).size).toBe(3);
    expect(trades.every((trade) => trade.order === placed.id)).toBe(true);
    const filled = trades.reduce((sum, trade) => sum + (trade.amount ?? 0), 0);
    const paid = trades.reduce((sum, trade) => sum + (trade.amount ?? 0) * (trade.price ?? 0), 0);
    const vwap = paid / filled;
    const order = await venue.fetchOrder(String(placed.id), ETH);
    expect(order.status).toBe('closed');
    expect(order.filled).toBeCloseTo(1, 10);
    expect(filled).toBeCloseTo(1, 10);
    expect(order.average).toBeCloseTo(vwap, 8);
  });

  it('iocFillRatio: a marketable IOC fills part and the rest expires', async () => {
    const venue = await venueAt({ exchange: name, iocFillRatio: 0.5 });
    const placed = await limitBuy(venue, 1, 2_001, true);
    const order = await venue.fetchOrder(String(placed.id), ETH);
    expect(order.status).toBe(name === 'okx' ? 'canceled' : 'expired');
    expect(order.filled).toBeCloseTo(0.5, 10);
    const trades = await venue.fetchMyTrades(ETH);
    expect(trades.map((trade) => [trade.amount, trade.price])).toEqual([[0.5, 2000]]);
  });

  it('isFeeInPlatformCoin: fees are charged in BNB (600 USDT) or OKB (50 USDT)', async () => {
    const venue = await venueAt({ exchange: name, isFeeInPlatformCoin: true });
    const placed = await marketBuy(venue, 1);
    // 0.05 % taker fee: 1 ETH at 2000 is 1 USDT, 1 OKX contract (0.1 ETH) 0.1 USDT.
    const expected =
      name === 'okx' ? { cost: 0.002, currency: 'OKB' } : { cost: 0.00166667, currency: 'BNB' };
    const [trade] = await venue.fetchMyTrades(ETH);
    expect(trade?.fee).toEqual(expected);
    if (name === 'okx') {
      expect((await venue.fetchOrder(String(placed.id), ETH)).fee).toEqual(expected);
    }
  });

  it('rateLimitEveryNthOrder: every Nth create is refused untaken, with Retry-After on Binance', async () => {
    const venue = await venueAt({
      exchange: name,
      rateLimitEveryNthOrder: 2,
      retryAfterSeconds: 3,
    });
    await marketBuy(venue, 1);
    const refused = await ccxtErrorOf(marketBuy(venue, 1));
    // ccxt's binance raises DDoSProtection on any 429, okx RateLimitExceeded for 50011.
    expect(refused).toBeInstanceOf(name === 'okx' ? ccxt.RateLimitExceeded : ccxt.DDoSProtection);
    const headers = venue.last_response_headers as Record<string, string>;
    expect(headers['Retry-After'] ?? headers['retry-after']).toBe(
      name === 'binance' ? '3' : undefined,
    );
    expect(current().state.orders).toHaveLength(1);
    expect(current().state.rateLimitRejections).toBe(1);
    await marketBuy(venue, 1);
    expect(current().state.orders).toHaveLength(2);
  });

  it('enforcesRequestExpiry: a create held past its expiry is refused when processed', async () => {
    const venue = await venueAt({ exchange: name, enforcesRequestExpiry: true });
    const path = name === 'okx' ? '/api/v5/trade/order' : '/fapi/v1/order';
    /** An order create that expires `validMs` after it is signed. */
    const send = (validMs: number) => {
      if (name === 'okx') venue.headers = { expTime: String(current().nowMs() + validMs) };
      return venue.createOrder(ETH, 'market', 'buy', 1, undefined, {
        clientOrderId: nextId(),
        ...(name === 'binance' ? { recvWindow: validMs } : {}),
      });
    };
    const hold = current().hold('POST', path);
    const late = ccxtErrorOf(send(2_000));
    await hold.arrived();
    current().advanceClock(3_000);
    hold.release();
    const error = await late;
    expect(error.message).toContain(name === 'okx' ? '50157' : '-1021');
    expect(current().state.orders).toEqual([]);
    // Processed before its expiry, the same request is taken.
    const inTime = current().hold('POST', path);
    const taken = send(5_000);
    await inTime.arrived();
    current().advanceClock(1_000);
    inTime.release();
    await taken;
    expect(current().state.orders).toHaveLength(1);
  });

  it('hold: a held request is counted but not taken until released', async () => {
    const venue = await venueAt({ exchange: name });
    const hold = current().hold('POST', name === 'okx' ? '/api/v5/trade/order' : '/fapi/v1/order');
    const pending = marketBuy(venue, 1);
    await hold.arrived();
    expect(hold.waiting()).toBe(1);
    expect(current().calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(current().state.orders).toEqual([]);
    hold.release();
    await pending;
    expect(current().state.orders).toHaveLength(1);
    await marketBuy(venue, 1);
    expect(current().state.orders).toHaveLength(2);
  });
});
