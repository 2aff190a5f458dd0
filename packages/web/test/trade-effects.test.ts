import { describe, expect, it } from 'vitest';
import { effectMarkers, tradeEffectKey } from '../src/shared/charts/trade-effects';

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 0, 15, 0, 0, 0);
const points = [0, 1, 2, 3].map((h) => ({ timeMs: T0 + h * HOUR_MS, value: 10_000 + h }));
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe('chart markers with what each fill did', () => {
  it('makes a reversal (a close and an open of one side at once) one marker', () => {
    const markers = effectMarkers(
      [
        { timestamp: at(10), type: 'buy', effect: 'open' },
        { timestamp: at(70), type: 'sell', effect: 'close' },
        { timestamp: at(70), type: 'sell', effect: 'open' },
        { timestamp: at(130), type: 'buy', effect: 'close' },
      ],
      points,
    );
    expect(markers).toEqual([
      { timeMs: T0 + HOUR_MS, side: 'buy', effect: 'open' },
      { timeMs: T0 + 2 * HOUR_MS, side: 'sell', effect: 'reverse' },
      { timeMs: T0 + 3 * HOUR_MS, side: 'buy', effect: 'close' },
    ]);
  });

  it('merges partial fills of one side and effect on one point, and keeps the two sides apart', () => {
    const markers = effectMarkers(
      [
        { timestamp: at(5), type: 'buy', effect: 'open' },
        { timestamp: at(6), type: 'buy', effect: 'open' },
        { timestamp: at(7), type: 'sell', effect: 'close' },
      ],
      points,
    );
    expect(markers.map((m) => `${m.side}:${m.effect}`)).toEqual(['buy:open', 'sell:close']);
  });

  it('names the table side by side and effect', () => {
    expect(tradeEffectKey('sell', 'close')).toBe('sell_close');
    expect(tradeEffectKey('buy', undefined)).toBe('buy_open');
  });
});
