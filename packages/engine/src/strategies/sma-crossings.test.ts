import { describe, expect, it } from 'vitest';
import { sma } from '../indicators/indicators.js';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { crossings } from './signal-rules.js';
import { smaCrossings } from './sma-crossings.js';

describe('smaCrossings', () => {
  it('answers exactly sma, sma and crossings of the two', () => {
    for (const [seed, fastPeriod, slowPeriod] of [
      [1, 7, 25],
      [2, 3, 8],
      [3, 25, 7],
      [4, 1, 2],
    ] as const) {
      const { close } = randomWalkCandles(3000, seed);
      const fast = sma(close, fastPeriod);
      const slow = sma(close, slowPeriod);
      const result = smaCrossings(close, fastPeriod, slowPeriod);
      expect(result.fast).toEqual(fast);
      expect(result.slow).toEqual(slow);
      expect({ above: result.above, below: result.below }).toEqual(crossings(fast, slow));
      expect(result.above.length).toBeGreaterThan(10);
    }
  });

  it('skips leading NaNs, never signals across a NaN, and handles short series', () => {
    const values = Float64Array.from([Number.NaN, 5, 4, 3, 4, 5, 6, Number.NaN, 1, 2, 3, 4]);
    for (const length of [0, 1, 3, 5, values.length]) {
      const part = values.subarray(0, length);
      const result = smaCrossings(part, 2, 3);
      expect(result.fast).toEqual(sma(part, 2));
      expect(result.slow).toEqual(sma(part, 3));
      expect({ above: result.above, below: result.below }).toEqual(
        crossings(sma(part, 2), sma(part, 3)),
      );
    }
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => smaCrossings(new Float64Array(3), 0, 2)).toThrow(RangeError);
    expect(() => smaCrossings(new Float64Array(3), 2, 2.5)).toThrow(RangeError);
  });
});
