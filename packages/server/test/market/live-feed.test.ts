import { describe, expect, it, vi } from 'vitest';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { ExchangeUnavailable } from '../../src/market/market.errors.js';
import { type FakeExchange, fakeCandle, OKX_CONTRACT_VALUE } from './fake-exchange.js';
import { feedAt, REFUSING_URL, useFakeVenueRig } from './market-test-helpers.js';

const HOUR_MS = 3_600_000;
const BTC = 'BTC/USDT:USDT';

let database: DatabaseHandle;
let fake: FakeExchange;
let clock: ManualClock;
useFakeVenueRig((rig) => {
  database = rig.database ?? database;
  clock = rig.clock ?? clock;
  fake = rig.fake ?? fake;
});

describe('live market feed through ccxt against a local fake exchange', () => {
  it('loads each exchange’s markets once across many requests', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    for (const timeframe of ['1m', '5m', '1h', '4h'] as const) {
      await feed.series({ exchange: 'binance', symbol: BTC, timeframe, closedCount: 50 });
      await feed.series({ exchange: 'okx', symbol: BTC, timeframe, closedCount: 50 });
    }
    await feed.symbols('binance');
    await feed.symbols('okx');
    expect(fake.callsTo('/fapi/v1/exchangeInfo')).toHaveLength(1);
    expect(fake.callsTo('/api/v5/public/instruments')).toHaveLength(1);
    expect(fake.callsTo('/api/v5/public/instruments')[0]?.query.get('instType')).toBe('SWAP');
  });

  it('lists the USDT perpetuals of each exchange as unified symbols', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    expect(await feed.symbols('binance')).toEqual({
      source: 'live',
      symbols: ['BTC/USDT:USDT', 'DOGE/USDT:USDT', 'ETH/USDT:USDT', 'SOL/USDT:USDT'],
    });
    expect((await feed.symbols('okx')).symbols).toEqual([
      'BTC/USDT:USDT',
      'DOGE/USDT:USDT',
      'ETH/USDT:USDT',
    ]);
  });

  it('serves closed candles plus the forming one, with binance prices and base volume', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    const series = await feed.series({
      exchange: 'binance',
      symbol: BTC,
      timeframe: '1h',
      closedCount: 24,
    });
    const nowMs = clock.now().getTime();
    const formingOpenMs = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
    expect(series.source).toBe('live');
    expect(series.closed.length).toBeGreaterThanOrEqual(24);
    expect(series.closed.at(-1)?.timestamp).toBe(formingOpenMs - HOUR_MS);
    expect(series.forming?.timestamp).toBe(formingOpenMs);
    const expected = fakeCandle(formingOpenMs - HOUR_MS, HOUR_MS, nowMs);
    expect(series.closed.at(-1)).toEqual({
      timestamp: expected.openMs,
      open: expected.open,
      high: expected.high,
      low: expected.low,
      close: expected.close,
      volume: expected.volume,
    });
  });

  it('serves OKX swap volume in base currency (the volCcy column), not in contracts', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    const series = await feed.series({
      exchange: 'okx',
      symbol: BTC,
      timeframe: '1h',
      closedCount: 10,
    });
    const last = series.closed.at(-1);
    expect(last).toBeDefined();
    const expected = fakeCandle(last!.timestamp, HOUR_MS, clock.now().getTime());
    expect(last!.volume).toBe(expected.volume);
    expect(last!.volume).not.toBe(expected.volume / OKX_CONTRACT_VALUE);
  });

  it('pages through OKX’s 300-candle limit to serve 1000 candles', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    const series = await feed.series({
      exchange: 'okx',
      symbol: BTC,
      timeframe: '1h',
      closedCount: 1000,
    });
    expect(series.closed.length).toBeGreaterThanOrEqual(1000);
    const times = series.closed.map((candle) => candle.timestamp);
    expect(times.every((time, i) => i === 0 || time - times[i - 1]! === HOUR_MS)).toBe(true);
  });

  it('never refetches closed candles: the next read asks only from the last stored closed candle on', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock, database });
    const first = await feed.series({
      exchange: 'binance',
      symbol: 'ETH/USDT:USDT',
      timeframe: '1h',
      closedCount: 100,
    });
    const lastClosedMs = first.closed.at(-1)!.timestamp;
    clock.advanceSeconds(2 * 3600);
    const before = fake.callsTo('/fapi/v1/klines').length;
    const second = await feed.series({
      exchange: 'binance',
      symbol: 'ETH/USDT:USDT',
      timeframe: '1h',
      closedCount: 100,
    });
    const klines = fake.callsTo('/fapi/v1/klines').slice(before);
    expect(klines).toHaveLength(1);
    expect(Number(klines[0]!.query.get('startTime'))).toBe(lastClosedMs + HOUR_MS);
    expect(second.closed.at(-1)!.timestamp).toBe(lastClosedMs + 2 * HOUR_MS);
    // The earlier closed candles are served as they were.
    expect(second.closed.slice(0, first.closed.length)).toEqual(first.closed);
  });

  it('fetches older history only up to the first held candle when a request needs more', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    const request = { exchange: 'binance', symbol: 'DOGE/USDT:USDT', timeframe: '1h' } as const;
    const small = await feed.series({ ...request, closedCount: 10 });
    const before = fake.callsTo('/fapi/v1/klines').length;
    const large = await feed.series({ ...request, closedCount: 200 });
    const klines = fake.callsTo('/fapi/v1/klines').slice(before);
    const nowOpenMs = Math.floor(clock.now().getTime() / HOUR_MS) * HOUR_MS;
    expect(Number(klines[0]!.query.get('startTime'))).toBe(nowOpenMs - 200 * HOUR_MS);
    expect(Number(klines.at(-1)!.query.get('startTime'))).toBe(
      small.closed.at(-1)!.timestamp + HOUR_MS,
    );
    expect(large.closed).toHaveLength(200);
    expect(large.closed.slice(-small.closed.length)).toEqual(small.closed);
  });

  it('stores closed candles in the database and a restarted feed continues from them', async () => {
    const repository = createCandlesRepository(database.db);
    const key = { exchange: 'binance', symbol: 'SOL/USDT:USDT', timeframe: '15m' };
    const feed = feedAt({ mode: 'live', url: fake.url, clock, database });
    await feed.series({
      exchange: 'binance',
      symbol: 'SOL/USDT:USDT',
      timeframe: '15m',
      closedCount: 40,
    });
    const stored = await repository.latest(key, 1000);
    expect(stored.length).toBeGreaterThanOrEqual(40);
    const restarted = feedAt({ mode: 'live', url: fake.url, clock, database });
    const before = fake.callsTo('/fapi/v1/klines').length;
    const series = await restarted.series({
      exchange: 'binance',
      symbol: 'SOL/USDT:USDT',
      timeframe: '15m',
      closedCount: 40,
    });
    const klines = fake.callsTo('/fapi/v1/klines').slice(before);
    expect(klines).toHaveLength(1);
    expect(Number(klines[0]!.query.get('startTime'))).toBe(stored.at(-1)!.timestamp + 15 * 60_000);
    expect(series.closed.slice(0, stored.length)).toEqual(stored);
  });

  it('auto mode falls back to simulated data when the exchange answers 5xx', async () => {
    fake.mode = 'error';
    const feed = feedAt({ mode: 'auto', url: fake.url, clock });
    const series = await feed.series({
      exchange: 'binance',
      symbol: BTC,
      timeframe: '1h',
      closedCount: 10,
    });
    expect(series.source).toBe('simulated');
    expect((await feed.symbols('binance')).source).toBe('simulated');
  });

  it('auto mode falls back to simulated data when the exchange refuses connections', async () => {
    const feed = feedAt({ mode: 'auto', url: REFUSING_URL, clock });
    const series = await feed.series({
      exchange: 'okx',
      symbol: BTC,
      timeframe: '1h',
      closedCount: 10,
    });
    expect(series.source).toBe('simulated');
  });

  it('auto mode falls back when a live read fails later, and goes live again after a background retry', async () => {
    const feed = feedAt({ mode: 'auto', url: fake.url, clock });
    expect(
      (await feed.series({ exchange: 'binance', symbol: BTC, timeframe: '1h', closedCount: 5 }))
        .source,
    ).toBe('live');
    fake.mode = 'error';
    clock.advanceSeconds(60);
    expect(
      (await feed.series({ exchange: 'binance', symbol: BTC, timeframe: '1h', closedCount: 5 }))
        .source,
    ).toBe('simulated');
    fake.mode = 'ok';
    feed.retryFallenBack();
    await vi.waitFor(async () => {
      const series = await feed.series({
        exchange: 'binance',
        symbol: BTC,
        timeframe: '1h',
        closedCount: 5,
      });
      expect(series.source).toBe('live');
    });
  });

  it('live mode answers ExchangeUnavailable instead of falling back', async () => {
    fake.mode = 'error';
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    await expect(
      feed.series({ exchange: 'binance', symbol: BTC, timeframe: '1h', closedCount: 5 }),
    ).rejects.toBeInstanceOf(ExchangeUnavailable);
  });

  it('is fresh while the exchange moves and goes stale when its candles stop', async () => {
    const feed = feedAt({ mode: 'live', url: fake.url, clock });
    const fresh = await feed.freshness('binance', BTC, '1m');
    expect(fresh).toMatchObject({
      is_fresh: true,
      delay_seconds: 0,
      max_allowed_delay: 120,
      source: 'live',
    });
    fake.stalledAtMs = clock.now().getTime();
    clock.advanceSeconds(10 * 60);
    const stale = await feed.freshness('binance', BTC, '1m');
    expect(stale.is_fresh).toBe(false);
    expect(stale.delay_seconds).toBeGreaterThanOrEqual(10 * 60);
    expect(stale.source).toBe('live');
  });
});
