import { describe, expect, it } from 'vitest';
import {
  cleanEquityCurve,
  normalizeEpochMs,
  prepareChartSeries,
  recentLogicalRange,
  toDisplayTime,
} from '../src/shared/charts/chart-data';

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2025, 0, 1); // 2025-01-01T00:00Z

const candle = (index: number, overrides: Record<string, unknown> = {}) => ({
  timestamp: T0 + index * HOUR_MS,
  open: 100 + index,
  high: 105 + index,
  low: 95 + index,
  close: 101 + index,
  volume: 1,
  ...overrides,
});

describe('toDisplayTime', () => {
  it('shifts a UTC instant to UTC+8 in whole seconds', () => {
    expect(toDisplayTime(T0)).toBe(T0 / 1000 + 8 * 3600);
  });

  it('drops the milliseconds', () => {
    expect(toDisplayTime(T0 + 999)).toBe(T0 / 1000 + 8 * 3600);
  });
});

describe('prepareChartSeries', () => {
  it('keeps valid candles with their moving averages and signals', () => {
    const series = prepareChartSeries([candle(0), candle(1), candle(2)], {
      ma_fast: [null, 101.5, 102.5],
      ma_slow: [null, null, 102],
      buy_signals: [1],
      sell_signals: [2],
    });
    expect(series.candles.map((c) => c.timeMs)).toEqual([T0, T0 + HOUR_MS, T0 + 2 * HOUR_MS]);
    expect(series.maFast).toEqual([
      { timeMs: T0 + HOUR_MS, value: 101.5 },
      { timeMs: T0 + 2 * HOUR_MS, value: 102.5 },
    ]);
    expect(series.maSlow).toEqual([{ timeMs: T0 + 2 * HOUR_MS, value: 102 }]);
    expect(series.signals).toEqual([
      { timeMs: T0 + HOUR_MS, side: 'buy' },
      { timeMs: T0 + 2 * HOUR_MS, side: 'sell' },
    ]);
  });

  it.each([
    ['a zero price', { close: 0 }],
    ['a negative price', { low: -1 }],
    ['a non-numeric price', { open: '100' }],
    ['a NaN price', { high: Number.NaN }],
    ['a missing timestamp', { timestamp: undefined }],
    ['a timestamp before 2020', { timestamp: Date.UTC(2019, 11, 31, 23) }],
    ['a timestamp from 2030 on', { timestamp: Date.UTC(2030, 0, 1) }],
  ])('drops a candle with %s, and its line points and markers', (_name, broken) => {
    const series = prepareChartSeries([candle(0), candle(1, broken), candle(2)], {
      ma_fast: [1, 2, 3],
      ma_slow: [1, 2, 3],
      buy_signals: [1],
      sell_signals: [2],
    });
    expect(series.candles).toHaveLength(2);
    expect(series.maFast.map((p) => p.value)).toEqual([1, 3]);
    expect(series.signals).toEqual([{ timeMs: T0 + 2 * HOUR_MS, side: 'sell' }]);
  });

  it('sorts candles and keeps one per time', () => {
    const series = prepareChartSeries([candle(2), candle(0), candle(0, { close: 99 })], null);
    expect(series.candles.map((c) => c.timeMs)).toEqual([T0, T0 + 2 * HOUR_MS]);
    expect(series.candles[0]?.close).toBe(99);
  });

  it('ignores signal indexes without a candle', () => {
    const series = prepareChartSeries([candle(0)], {
      ma_fast: [],
      ma_slow: [],
      buy_signals: [5, -1],
      sell_signals: [],
    });
    expect(series.signals).toEqual([]);
  });
});

describe('cleanEquityCurve', () => {
  it('reads {time, equity} with times in milliseconds', () => {
    expect(cleanEquityCurve([{ time: T0, equity: 10_000 }])).toEqual([
      { timeMs: T0, value: 10_000 },
    ]);
  });

  it('reads {time, value} with times in seconds', () => {
    expect(cleanEquityCurve([{ time: T0 / 1000, value: 9_500 }])).toEqual([
      { timeMs: T0, value: 9_500 },
    ]);
  });

  it('gives plain numbers the time of the candle at their position', () => {
    expect(cleanEquityCurve([100, 101], [T0, T0 + HOUR_MS])).toEqual([
      { timeMs: T0, value: 100 },
      { timeMs: T0 + HOUR_MS, value: 101 },
    ]);
  });

  it('drops invalid entries and sorts the rest ascending', () => {
    const curve = cleanEquityCurve([
      { time: T0 + HOUR_MS, equity: 2 },
      null,
      'x',
      { time: 'soon', equity: 3 },
      { time: T0, equity: Number.NaN },
      { time: -5, equity: 4 },
      { time: T0, equity: 1 },
      { equity: 5 },
    ]);
    expect(curve).toEqual([
      { timeMs: T0, value: 1 },
      { timeMs: T0 + HOUR_MS, value: 2 },
    ]);
  });

  it('answers an empty curve for anything but a list', () => {
    expect(cleanEquityCurve(undefined)).toEqual([]);
    expect(cleanEquityCurve(null)).toEqual([]);
  });
});

describe('normalizeEpochMs', () => {
  it('treats values above 1e10 as milliseconds and the rest as seconds', () => {
    expect(normalizeEpochMs(1e10 + 1)).toBe(1e10 + 1);
    expect(normalizeEpochMs(1e10)).toBe(1e13);
    expect(normalizeEpochMs(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('recentLogicalRange', () => {
  it('shows the last 100 of 1000 candles', () => {
    expect(recentLogicalRange(1000, 100)).toEqual({ from: 900, to: 999 });
  });

  it('shows everything when there are fewer candles', () => {
    expect(recentLogicalRange(40, 100)).toEqual({ from: 0, to: 39 });
  });
});
