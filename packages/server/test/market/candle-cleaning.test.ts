import { describe, expect, it } from 'vitest';
import { cleanOhlcvRows } from '../../src/market/candle-cleaning.js';

const T = Date.UTC(2026, 0, 15);

describe('chart data cleaning (document 1 §5)', () => {
  it('drops non-positive or non-numeric prices, invalid timestamps and times outside 2020–2030', () => {
    const rows: unknown[][] = [
      [T, 1, 2, 0.5, 1.5, 10],
      [T + 1, 0, 2, 0.5, 1.5, 10],
      [T + 2, 1, -2, 0.5, 1.5, 10],
      [T + 3, 1, 2, 0.5, Number.NaN, 10],
      [T + 4, '1', 2, 0.5, 1.5, 10],
      [T + 5, 1, 2, undefined, 1.5, 10],
      [Number.NaN, 1, 2, 0.5, 1.5, 10],
      ['2026-01-15', 1, 2, 0.5, 1.5, 10],
      [Date.UTC(2019, 11, 31, 23, 59), 1, 2, 0.5, 1.5, 10],
      [Date.UTC(2030, 0, 1), 1, 2, 0.5, 1.5, 10],
      [Date.UTC(2020, 0, 1), 1, 2, 0.5, 1.5, 10],
      [T + 6, 1, 2, 0.5, 1.5, Number.POSITIVE_INFINITY],
    ];
    expect(cleanOhlcvRows(rows).map((c) => c.timestamp)).toEqual([T, Date.UTC(2020, 0, 1)]);
  });

  it('keeps a zero volume and fills a missing one with zero', () => {
    expect(
      cleanOhlcvRows([
        [T, 1, 1, 1, 1, 0],
        [T + 60_000, 1, 1, 1, 1],
      ]),
    ).toEqual([
      { timestamp: T, open: 1, high: 1, low: 1, close: 1, volume: 0 },
      { timestamp: T + 60_000, open: 1, high: 1, low: 1, close: 1, volume: 0 },
    ]);
  });
});
