// The venues' funding history through the real ccxt clients against a local fake of their
// public APIs: paged as each venue pages, stored beside the candles, read from the venue only
// where not stored yet, answered from the store (and said so) when the venue cannot be read,
// and simulated when the market is.
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { simulatedFunding } from '../../src/market/simulated-funding.js';
import { type FakeExchange, FUNDING_INTERVAL_MS, fakeFundingRate } from './fake-exchange.js';
import { liveSourcesAt, REFUSING_URL, useFakeVenueRig } from './market-test-helpers.js';

const DAY_MS = 86_400_000;
const BTC = 'BTC/USDT:USDT';
const BINANCE_PATH = '/fapi/v1/fundingRate';
const OKX_PATH = '/api/v5/public/funding-rate-history';

let database: DatabaseHandle;
let fake: FakeExchange;
let clock: ManualClock;
useFakeVenueRig((rig) => {
  database = rig.database ?? database;
  clock = rig.clock ?? clock;
  fake = rig.fake ?? fake;
});

function feed(mode: 'live' | 'auto' | 'simulated', url = fake.url): MarketFeed {
  return createMarketFeed({
    mode,
    clock,
    fundingRates: createFundingRatesRepository(database.db),
    liveSources: liveSourcesAt(url),
  });
}

/** The fake's marks in [fromMs, toMs] with their rates. */
function expected(fromMs: number, toMs: number) {
  const time: number[] = [];
  for (let t = Math.ceil(fromMs / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS; t <= toMs; ) {
    time.push(t);
    t += FUNDING_INTERVAL_MS;
  }
  return { time, rate: time.map(fakeFundingRate) };
}

describe('funding history of live venues (fake venue through ccxt)', () => {
  it('pages through binance’s 1000 settlements per request (startTime forward) and floors its ms jitter', async () => {
    const toMs = clock.now().getTime() - 3_600_000;
    const fromMs = toMs - 400 * DAY_MS; // 1200 settlements: two pages
    const history = await feed('live').fundingHistory('binance', 'SOL/USDT:USDT', fromMs, toMs);
    const want = expected(fromMs, toMs);
    expect(want.time.length).toBeGreaterThan(1000);
    expect(history.source).toBe('live');
    expect(history.missing).toBeNull();
    expect([...history.time]).toEqual(want.time);
    expect([...history.rate]).toEqual(want.rate);
    const calls = fake.callsTo(BINANCE_PATH);
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.query.get('symbol'))).toEqual(['SOLUSDT', 'SOLUSDT']);
    expect(calls[0]!.query.get('limit')).toBe('1000');
    expect(calls[0]!.query.get('startTime')).toBe(String(fromMs));
    expect(calls[0]!.query.get('endTime')).toBe(String(toMs));
    expect(Number(calls[1]!.query.get('startTime'))).toBeGreaterThan(want.time[999]!);
  });

  it('pages backward through okx’s 100 settlements per request and charges the realised rate', async () => {
    const toMs = clock.now().getTime() - 3_600_000;
    const fromMs = toMs - 50 * DAY_MS; // 150 settlements: two pages
    const history = await feed('live').fundingHistory('okx', 'ETH/USDT:USDT', fromMs, toMs);
    const want = expected(fromMs, toMs);
    expect(want.time.length).toBe(150);
    expect([...history.time]).toEqual(want.time);
    expect([...history.rate]).toEqual(want.rate);
    const calls = fake.callsTo(OKX_PATH);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.query.get('instId')).toBe('ETH-USDT-SWAP');
    expect(calls[0]!.query.get('limit')).toBe('100');
    expect(calls[0]!.query.get('after')).toBe(String(toMs + 1));
    // The second page continues below the oldest settlement of the first.
    expect(calls[1]!.query.get('after')).toBe(String(want.time[50]));
  });

  it('stores the rates: a covered range asks nothing, a longer one only its missing tail and head', async () => {
    const first = feed('live');
    const toMs = clock.now().getTime() - 3_600_000;
    const fromMs = toMs - 10 * DAY_MS;
    const once = await first.fundingHistory('binance', 'DOGE/USDT:USDT', fromMs, toMs);
    expect(fake.callsTo(BINANCE_PATH)).toHaveLength(1);

    // Another feed (a restarted server) on the same database: no venue request.
    const again = await feed('live').fundingHistory('binance', 'DOGE/USDT:USDT', fromMs, toMs);
    expect(fake.callsTo(BINANCE_PATH)).toHaveLength(1);
    expect(again).toEqual(once);
    const inside = await first.fundingHistory(
      'binance',
      'DOGE/USDT:USDT',
      fromMs + DAY_MS,
      toMs - DAY_MS,
    );
    expect([...inside.time]).toEqual(expected(fromMs + DAY_MS, toMs - DAY_MS).time);
    expect(fake.callsTo(BINANCE_PATH)).toHaveLength(1);

    // Two days later: only the two new days are asked for.
    clock.advanceSeconds(2 * 86_400);
    const laterToMs = toMs + 2 * DAY_MS;
    const later = await first.fundingHistory('binance', 'DOGE/USDT:USDT', fromMs, laterToMs);
    expect([...later.time]).toEqual(expected(fromMs, laterToMs).time);
    expect([...later.rate]).toEqual(expected(fromMs, laterToMs).rate);
    const calls = fake.callsTo(BINANCE_PATH);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.query.get('startTime')).toBe(String(toMs + 1));
    expect(calls[1]!.query.get('endTime')).toBe(String(laterToMs));

    // An earlier start: only the head before the stored span.
    const earlier = await first.fundingHistory(
      'binance',
      'DOGE/USDT:USDT',
      fromMs - 3 * DAY_MS,
      laterToMs,
    );
    expect([...earlier.time]).toEqual(expected(fromMs - 3 * DAY_MS, laterToMs).time);
    expect(fake.callsTo(BINANCE_PATH)).toHaveLength(3);
    expect(fake.callsTo(BINANCE_PATH)[2]!.query.get('startTime')).toBe(String(fromMs - 3 * DAY_MS));
    expect(fake.callsTo(BINANCE_PATH)[2]!.query.get('endTime')).toBe(String(fromMs - 1));
  });

  it('knows a span before the listing is empty: it is not asked again', async () => {
    const toMs = clock.now().getTime() - 3_600_000;
    const fromMs = toMs - 20 * DAY_MS;
    fake.fundingListedAtMs = toMs - 5 * DAY_MS;
    const first = await feed('live').fundingHistory('okx', 'DOGE/USDT:USDT', fromMs, toMs);
    expect([...first.time]).toEqual(expected(toMs - 5 * DAY_MS, toMs).time);
    const calls = fake.callsTo(OKX_PATH).length;
    await feed('live').fundingHistory('okx', 'DOGE/USDT:USDT', fromMs, toMs);
    expect(fake.callsTo(OKX_PATH)).toHaveLength(calls);
  });

  it('answers the stored rates and says so when the venue cannot be read (no simulated rates)', async () => {
    const live = feed('live');
    const toMs = clock.now().getTime() - 3_600_000;
    const fromMs = toMs - 5 * DAY_MS;
    await live.fundingHistory('okx', BTC, fromMs, toMs);
    fake.mode = 'error';
    clock.advanceSeconds(86_400);
    const history = await live.fundingHistory('okx', BTC, fromMs, toMs + DAY_MS);
    expect(history.source).toBe('live');
    expect(history.missing).toMatch(/okx is unavailable/);
    expect([...history.time]).toEqual(expected(fromMs, toMs).time);
    expect([...history.rate]).toEqual(expected(fromMs, toMs).rate);
    // Back up: the missing day is read then.
    fake.mode = 'ok';
    const healed = await live.fundingHistory('okx', BTC, fromMs, toMs + DAY_MS);
    expect(healed.missing).toBeNull();
    expect([...healed.time]).toEqual(expected(fromMs, toMs + DAY_MS).time);
  });
});

describe('funding history of the simulated market', () => {
  it('answers the deterministic series, labelled simulated, without asking any venue', async () => {
    const toMs = clock.now().getTime();
    const fromMs = toMs - 30 * DAY_MS;
    const history = await feed('simulated').fundingHistory('binance', BTC, fromMs, toMs);
    const series = simulatedFunding('binance', BTC, fromMs, toMs);
    expect(history).toEqual({
      source: 'simulated',
      time: series.time,
      rate: series.rate,
      missing: null,
    });
    expect(fake.calls).toHaveLength(0);
  });

  it('auto mode with an unreachable venue serves the simulated series, as for its candles', async () => {
    const auto = feed('auto', REFUSING_URL);
    const toMs = clock.now().getTime();
    const history = await auto.fundingHistory('okx', BTC, toMs - 3 * DAY_MS, toMs);
    expect(history.source).toBe('simulated');
    expect(history.time.length).toBe(9);
  });
});
