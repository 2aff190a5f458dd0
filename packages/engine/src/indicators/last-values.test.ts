import { describe, expect, it } from 'vitest';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { bollinger, ema, macd, rsi } from './indicators.js';
import { bollingerLastTwo, EmaStream, emaLastTwo, macdLastTwo, rsiLastTwo } from './last-values.js';

const closes = randomWalkCandles(120, 5).close;
const withNaNs = Float64Array.from([Number.NaN, Number.NaN, ...closes.subarray(0, 60)]);

/** The series' last two values, as the scalar forms must answer them (bit for bit). */
function lastTwoOf(series: Float64Array) {
  const n = series.length;
  return {
    previous: n >= 2 ? series[n - 2]! : Number.NaN,
    last: n >= 1 ? series[n - 1]! : Number.NaN,
  };
}

describe('last values equal the series forms to the bit', () => {
  for (const [name, values] of [
    ['closes', closes],
    ['leading NaNs', withNaNs],
  ] as const) {
    it(`${name}: every prefix`, () => {
      for (let n = 0; n <= values.length; n++) {
        const prefix = values.subarray(0, n);
        expect(emaLastTwo(prefix, 9)).toEqual(lastTwoOf(ema(prefix, 9)));
        expect(rsiLastTwo(prefix, 6)).toEqual(lastTwoOf(rsi(prefix, 6)));
        const series = macd(prefix, 4, 9, 3);
        const last = macdLastTwo(prefix, 4, 9, 3);
        expect(last.line).toEqual(lastTwoOf(series.line));
        expect(last.signal).toEqual(lastTwoOf(series.signal));
        const bands = bollinger(prefix, 7, 2);
        const lastBands = bollingerLastTwo(prefix, 7, 2);
        expect(lastBands.upper).toEqual(lastTwoOf(bands.upper));
        expect(lastBands.lower).toEqual(lastTwoOf(bands.lower));
      }
    });
  }

  it('EmaStream answers ema value for value', () => {
    const stream = new EmaStream(5);
    const series = ema(withNaNs, 5);
    withNaNs.forEach((value, i) => {
      expect(Object.is(stream.push(value), series[i])).toBe(true);
    });
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => emaLastTwo(closes, 0)).toThrow(RangeError);
    expect(() => rsiLastTwo(closes, 1.5)).toThrow(RangeError);
  });
});
