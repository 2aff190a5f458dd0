import { describe, expect, it } from 'vitest';
import { candleOpenTime, TIMEFRAME_MS } from './timeframes.js';

describe('candleOpenTime', () => {
  it('aligns a time to the open of its candle', () => {
    const t = Date.UTC(2026, 0, 2, 13, 47, 12);
    expect(candleOpenTime(t, '1h')).toBe(Date.UTC(2026, 0, 2, 13));
    expect(candleOpenTime(t, '4h')).toBe(Date.UTC(2026, 0, 2, 12));
    expect(candleOpenTime(t, '15m')).toBe(Date.UTC(2026, 0, 2, 13, 45));
    expect(candleOpenTime(t, '1d')).toBe(Date.UTC(2026, 0, 2));
  });

  it('keeps a time that is already an open time', () => {
    const t = Date.UTC(2026, 5, 1, 8);
    expect(candleOpenTime(t, '4h')).toBe(t);
    expect(TIMEFRAME_MS['5m']).toBe(300_000);
  });
});
