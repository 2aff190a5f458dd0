import { describe, expect, it } from 'vitest';
import { sma } from '../indicators/indicators.js';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { crossAbove, crossBelow, crossings } from './signal-rules.js';

describe('crossings', () => {
  it('finds in one pass exactly the crosses crossAbove and crossBelow find', () => {
    for (const seed of [1, 2, 3]) {
      const { close } = randomWalkCandles(5000, seed);
      const fast = sma(close, 5);
      const slow = sma(close, 20);
      const { above, below } = crossings(fast, slow);
      expect(above).toEqual(crossAbove(fast, slow));
      expect(below).toEqual(crossBelow(fast, slow));
      expect(above.length).toBeGreaterThan(10);
    }
  });

  it('counts touching and then leaving as a cross, and never signals on undefined values', () => {
    const a = Float64Array.from([Number.NaN, 1, 2, 2, 3, 1]);
    const b = Float64Array.from([Number.NaN, 2, 2, 2, 2, 2]);
    expect(crossings(a, b)).toEqual({ above: [4], below: [5] });
  });
});
