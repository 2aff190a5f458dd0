// A live bot decides with `latest` (no series); the backtest with `compute`. They must agree on
// every candle, for every strategy, or a bot would trade differently from its backtest.
import { describe, expect, it } from 'vitest';
import { type Candles, sliceCandles } from '../candles.js';
import { randomWalkCandles, seededRandom } from '../testing/random-candles.fixture.js';
import { compileStrategyOrThrow } from './compile-strategy.js';
import { signalAt } from './latest-signal.js';
import type { StrategyType } from './strategies.js';

const SETTINGS: readonly [StrategyType, Record<string, number>][] = [
  ['ma_cross', {}],
  ['ma_cross', { fast_period: 1, slow_period: 2 }],
  ['ma_cross', { fast_period: 3, slow_period: 8 }],
  ['ema_cross', {}],
  ['ema_cross', { fast_period: 1, slow_period: 2 }],
  ['ema_cross', { fast_period: 5, slow_period: 9 }],
  ['rsi_reversion', {}],
  ['rsi_reversion', { period: 2, oversold: 45, overbought: 55 }],
  ['rsi_reversion', { period: 5, oversold: 40, overbought: 60 }],
  ['macd_cross', {}],
  ['macd_cross', { fast_period: 1, slow_period: 2, signal_period: 2 }],
  ['macd_cross', { fast_period: 3, slow_period: 7, signal_period: 4 }],
  ['bollinger_breakout', {}],
  ['bollinger_breakout', { period: 2, std_dev: 0.5 }],
  ['bollinger_breakout', { period: 5, std_dev: 1 }],
];

/** Closes only (the strategies read nothing else). */
function fromCloses(values: readonly number[]): Candles {
  const close = Float64Array.from(values);
  return { time: close, open: close, high: close, low: close, close, volume: close };
}

/** Prices on a coarse grid, so equal values and exact ties (the `<=` edges) happen often. */
function gridWalk(count: number, seed: number): Candles {
  const random = seededRandom(seed);
  const values: number[] = [];
  let price = 100;
  for (let i = 0; i < count; i++) {
    price += Math.floor(random() * 3) - 1;
    values.push(price);
  }
  return fromCloses(values);
}

const SERIES: readonly [string, Candles][] = [
  ['random walk', randomWalkCandles(260, 11)],
  ['volatile random walk', randomWalkCandles(260, 12, 50, 6)],
  ['grid walk with ties', gridWalk(260, 13)],
  ['flat', fromCloses(Array.from({ length: 60 }, () => 100))],
  ['leading NaNs', fromCloses([Number.NaN, Number.NaN, ...gridWalk(80, 14).close])],
  ['a NaN inside', fromCloses([...gridWalk(40, 15).close, Number.NaN, ...gridWalk(40, 16).close])],
];

describe('latest: the signal on the last candle, equal to the backtest series', () => {
  for (const [type, parameters] of SETTINGS) {
    const strategy = compileStrategyOrThrow(type, parameters);
    it(`${type} ${JSON.stringify(parameters)}`, () => {
      let signals = 0;
      for (const [name, candles] of SERIES) {
        for (let count = 0; count <= candles.close.length; count++) {
          const window = sliceCandles(candles, count);
          const expected = signalAt(strategy.compute(window), count - 1);
          if (expected !== null) signals += 1;
          const actual = strategy.latest(window);
          if (actual !== expected) {
            expect.fail(`${name}, ${count} candles: latest ${actual}, series ${expected}`);
          }
        }
      }
      // The comparison means something only where the series do signal.
      expect(signals).toBeGreaterThan(5);
    });
  }
});
