import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { SimulatedInstrument } from '../../src/market/simulated-source.js';

const START_MS = Date.UTC(2026, 0, 15, 8, 0, 0);
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

function aggregate(
  candles: { open: number; high: number; low: number; close: number; volume: number }[],
) {
  return {
    open: candles[0]!.open,
    high: Math.max(...candles.map((c) => c.high)),
    low: Math.min(...candles.map((c) => c.low)),
    close: candles.at(-1)!.close,
    volume: candles.reduce((sum, c) => sum + c.volume, 0),
  };
}

describe('simulated market data', () => {
  it('gives the same candles for the same exchange and symbol, and different ones otherwise', () => {
    const a = new SimulatedInstrument('binance', 'BTC/USDT:USDT').closedCandles(
      '1h',
      START_MS - 50 * HOUR_MS,
      START_MS,
    );
    const b = new SimulatedInstrument('binance', 'BTC/USDT:USDT').closedCandles(
      '1h',
      START_MS - 50 * HOUR_MS,
      START_MS,
    );
    const okx = new SimulatedInstrument('okx', 'BTC/USDT:USDT').closedCandles(
      '1h',
      START_MS - 50 * HOUR_MS,
      START_MS,
    );
    expect(a).toEqual(b);
    expect(okx).not.toEqual(a);
  });

  it('keeps one asset within a realistic basis across venues at every candle', () => {
    // A cross-exchange copy prices the leader's trade on the follower's venue: a 9% gap between
    // venues (as once simulated) makes every copy fail its price checks.
    const fromMs = START_MS - 120 * DAY_MS;
    for (const symbol of ['BTC/USDT:USDT', 'ETH/USDT:USDT', 'PEPE/USDT:USDT']) {
      const binance = new SimulatedInstrument('binance', symbol).closedCandles(
        '1h',
        fromMs,
        START_MS,
      );
      const okx = new SimulatedInstrument('okx', symbol).closedCandles('1h', fromMs, START_MS);
      expect(okx).toHaveLength(binance.length);
      let widestCloseGap = 0;
      let widestWickGap = 0;
      for (let i = 0; i < binance.length; i++) {
        const a = binance[i]!;
        const b = okx[i]!;
        expect(b.timestamp).toBe(a.timestamp);
        const closeGap = Math.abs(Math.log(b.close / a.close));
        const openGap = Math.abs(Math.log(b.open / a.open));
        const wickGap = Math.max(
          Math.abs(Math.log(b.high / a.high)),
          Math.abs(Math.log(b.low / a.low)),
        );
        widestCloseGap = Math.max(widestCloseGap, closeGap, openGap);
        widestWickGap = Math.max(widestWickGap, wickGap);
      }
      // Opens and closes within 10 bps (basis ±4 bps each plus the tick), wicks within 0.5 %.
      expect(widestCloseGap, symbol).toBeLessThan(0.001);
      expect(widestWickGap, symbol).toBeLessThan(0.005);
      // The venues are not copies of each other: each has its own basis.
      expect(widestCloseGap, symbol).toBeGreaterThan(0);
    }
  });

  it('makes each 1h candle the aggregate of its 60 1m candles, and each 1d candle of its 24 hours', () => {
    const instrument = new SimulatedInstrument('okx', 'ETH/USDT:USDT');
    const hours = instrument.closedCandles('1h', START_MS - 3 * HOUR_MS, START_MS);
    for (const hour of hours) {
      const minutes = instrument.closedCandles('1m', hour.timestamp, hour.timestamp + HOUR_MS);
      expect(minutes).toHaveLength(60);
      const expected = aggregate(minutes);
      expect(hour).toMatchObject({
        open: expected.open,
        high: expected.high,
        low: expected.low,
        close: expected.close,
      });
      expect(hour.volume).toBeCloseTo(expected.volume, 2);
    }
    const dayOpenMs = Math.floor(START_MS / DAY_MS) * DAY_MS - DAY_MS;
    const [day] = instrument.closedCandles('1d', dayOpenMs, dayOpenMs + DAY_MS);
    const expected = aggregate(instrument.closedCandles('1h', dayOpenMs, dayOpenMs + DAY_MS));
    expect(day).toMatchObject({
      open: expected.open,
      high: expected.high,
      low: expected.low,
      close: expected.close,
    });
    expect(day!.volume).toBeCloseTo(expected.volume, 1);
  });

  it('chains candles: each opens at the previous close', () => {
    const candles = new SimulatedInstrument('binance', 'DOGE/USDT:USDT').closedCandles(
      '5m',
      START_MS - 100 * 300_000,
      START_MS,
    );
    for (let i = 1; i < candles.length; i++) expect(candles[i]!.open).toBe(candles[i - 1]!.close);
    for (const c of candles) {
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.volume).toBeGreaterThan(0);
    }
  });

  it('keeps realistic price levels for the default symbols over 1000 days', () => {
    const levels: [string, number, number][] = [
      ['BTC/USDT:USDT', 60_000, 140_000],
      ['ETH/USDT:USDT', 2_000, 6_000],
      ['DOGE/USDT:USDT', 0.15, 0.6],
      ['SOL/USDT:USDT', 100, 400],
      ['BNB/USDT:USDT', 400, 900],
      ['XRP/USDT:USDT', 1, 4],
    ];
    const dayOpenMs = Math.floor(START_MS / DAY_MS) * DAY_MS;
    for (const [symbol, low, high] of levels) {
      const days = new SimulatedInstrument('binance', symbol).closedCandles(
        '1d',
        dayOpenMs - 1000 * DAY_MS,
        dayOpenMs,
      );
      expect(days).toHaveLength(1000);
      expect(Math.min(...days.map((d) => d.low))).toBeGreaterThan(low);
      expect(Math.max(...days.map((d) => d.high))).toBeLessThan(high);
    }
  });

  it('computes 1000 daily candles (1.44 million minutes) in well under a few seconds', () => {
    const dayOpenMs = Math.floor(START_MS / DAY_MS) * DAY_MS;
    const started = performance.now();
    new SimulatedInstrument('okx', 'SOL/USDT:USDT').closedCandles(
      '1d',
      dayOpenMs - 1000 * DAY_MS,
      dayOpenMs,
    );
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('leaves closed candles unchanged as the clock advances while the forming candle moves', async () => {
    const clock = new ManualClock(START_MS + 10 * 60_000);
    const feed = createMarketFeed({
      mode: 'simulated',
      clock,
      fundingRates: createMemoryFundingRatesRepository(),
    });
    const request = {
      exchange: 'binance',
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      closedCount: 200,
    } as const;
    const first = await feed.series(request);
    expect(first.source).toBe('simulated');
    expect(first.closed).toHaveLength(200);
    expect(first.forming?.timestamp).toBe(START_MS);
    const formingBefore = first.forming;
    clock.advanceSeconds(7 * 60);
    const moved = await feed.series(request);
    expect(moved.closed).toEqual(first.closed);
    expect(moved.forming?.timestamp).toBe(START_MS);
    expect(moved.forming?.open).toBe(formingBefore?.open);
    expect(moved.forming).not.toEqual(formingBefore);
    expect(moved.forming!.volume).toBeGreaterThan(formingBefore!.volume);
    clock.advanceSeconds(3600);
    const later = await feed.series(request);
    expect(later.closed.slice(0, 200)).toEqual(first.closed);
    // The candle that was forming is now closed, with its final values from a fresh computation.
    const fresh = new SimulatedInstrument('binance', 'BTC/USDT:USDT').closedCandles(
      '1h',
      START_MS,
      START_MS + HOUR_MS,
    );
    expect(later.closed.at(-1)).toEqual(fresh[0]);
    expect(later.forming?.timestamp).toBe(START_MS + HOUR_MS);
  });

  it('is always fresh with no delay', async () => {
    const clock = new ManualClock(START_MS + 1234_000);
    const feed = createMarketFeed({
      mode: 'simulated',
      clock,
      fundingRates: createMemoryFundingRatesRepository(),
    });
    expect(await feed.freshness('okx', 'ETH/USDT:USDT', '1d')).toEqual({
      is_fresh: true,
      delay_seconds: 0,
      max_allowed_delay: 8640,
      source: 'simulated',
      last_candle_time: Math.floor((START_MS + 1234_000) / DAY_MS) * DAY_MS,
    });
  });

  it('is the only feed that starts without live sources', () => {
    const clock = new ManualClock(START_MS);
    const fundingRates = createMemoryFundingRatesRepository();
    for (const mode of ['auto', 'live'] as const) {
      expect(() => createMarketFeed({ mode, clock, fundingRates })).toThrow(
        `A ${mode} market feed needs its sources`,
      );
    }
    expect(() => createMarketFeed({ mode: 'simulated', clock, fundingRates })).not.toThrow();
  });
});
