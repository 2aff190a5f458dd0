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
      const venue = await venueAt({ exchange: name, tradesPerFill: 3, tradeSpacingMs: 100 });
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
