import { describe, expect, it } from 'vitest';
import { candlesFromRows, seriesToJson } from '../candles.js';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { signalAt } from './latest-signal.js';
import { STRATEGIES, STRATEGY_TYPES } from './strategies.js';
import { strategySignalsToJson } from './strategy-json.js';
import { defaultParameters, runStrategy, validateParameters } from './strategy-parameters.js';

const closes = (values: number[]) =>
  candlesFromRows(
    values.map((close, i) => ({
      time: i * 3_600_000,
      open: close,
      high: close,
      low: close,
      close,
    })),
  );

describe('ma_cross', () => {
  // SMA(2): –, 10, 10, 11, 12, 10, 8, 8     SMA(3): –, –, 10, 10.67, 11.33, 10.67, 9.33, 8
  const candles = closes([10, 10, 10, 12, 12, 8, 8, 8]);
  const signals = runStrategy('ma_cross', candles, { fast_period: 2, slow_period: 3 });

  it('buys where fast crosses above slow and sells where it crosses below', () => {
    expect(signals.buy_signals).toEqual([3]);
    expect(signals.sell_signals).toEqual([5]);
  });

  it('answers ma_fast/ma_slow with null until defined', () => {
    const json = strategySignalsToJson(signals);
    expect(json.indicators.ma_fast?.slice(0, 3)).toEqual([null, 10, 10]);
    expect(json.indicators.ma_slow?.slice(0, 3)).toEqual([null, null, 10]);
    expect(json.indicators.ma_fast).toHaveLength(8);
  });

  it("defaults to the dashboard's 7/25", () => {
    expect(defaultParameters('ma_cross')).toEqual({ fast_period: 7, slow_period: 25 });
  });
});

describe('the other strategies', () => {
  it('rsi_reversion buys when RSI climbs back above oversold', () => {
    // Falling closes push RSI(2) to 0; the first rise lifts it above 30.
    const candles = closes([10, 9, 8, 7, 6, 8, 9, 10]);
    const signals = runStrategy('rsi_reversion', candles, { period: 2 });
    expect(signals.buy_signals).toEqual([5]);
    expect(signals.indicators.rsi?.[4]).toBe(0);
  });

  it('bollinger_breakout buys when close breaks above the upper band', () => {
    const candles = closes([10, 10, 10, 10, 14, 14, 5]);
    const signals = runStrategy('bollinger_breakout', candles, { period: 3, std_dev: 1 });
    expect(signals.buy_signals).toEqual([4]);
    expect(signals.sell_signals).toEqual([6]);
  });

  it('macd_cross signals where the MACD line crosses its signal line', () => {
    const candles = randomWalkCandles(400, 3);
    const signals = runStrategy('macd_cross', candles);
    const line = signals.indicators.macd!;
    const signalLine = signals.indicators.macd_signal!;
    expect(signals.buy_signals.length).toBeGreaterThan(0);
    for (const i of signals.buy_signals) {
      expect(line[i]! > signalLine[i]! && line[i - 1]! <= signalLine[i - 1]!).toBe(true);
    }
    for (const i of signals.sell_signals) {
      expect(line[i]! < signalLine[i]! && line[i - 1]! >= signalLine[i - 1]!).toBe(true);
    }
  });

  it.each(STRATEGY_TYPES)('%s returns ma_fast/ma_slow and ascending signals', (type) => {
    const candles = randomWalkCandles(500, 11);
    const signals = runStrategy(type, candles);
    expect(signals.indicators.ma_fast).toHaveLength(500);
    expect(signals.indicators.ma_slow).toHaveLength(500);
    expect(seriesToJson(signals.indicators.ma_slow).at(-1)).toEqual(expect.any(Number));
    const all = [...signals.buy_signals, ...signals.sell_signals];
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all).size).toBe(all.length); // never both on one candle
    for (const list of [signals.buy_signals, signals.sell_signals]) {
      expect(list).toEqual([...list].sort((a, b) => a - b));
    }
  });

  it('every strategy declares a display name and defaults inside its bounds', () => {
    for (const type of STRATEGY_TYPES) {
      const definition = STRATEGIES[type];
      expect(definition.display_name).not.toBe('');
      for (const spec of definition.parameters) {
        expect(spec.default).toBeGreaterThanOrEqual(spec.min);
        expect(spec.default).toBeLessThanOrEqual(spec.max);
      }
      expect(validateParameters(type, {})).toEqual({
        ok: true,
        parameters: defaultParameters(type),
      });
    }
  });
});

describe('validateParameters', () => {
  it('fills missing parameters with their defaults', () => {
    expect(validateParameters('ma_cross', { slow_period: 30 })).toEqual({
      ok: true,
      parameters: { fast_period: 7, slow_period: 30 },
    });
    expect(validateParameters('ema_cross', undefined)).toEqual({
      ok: true,
      parameters: { fast_period: 12, slow_period: 26 },
    });
  });

  it('answers field errors for unknown keys, wrong types, fractions and bounds', () => {
    const validation = validateParameters('ma_cross', {
      fast_period: '7',
      slow_period: 2.5,
      colour: 'red',
    });
    expect(validation.ok).toBe(false);
    if (validation.ok) return;
    expect(Object.keys(validation.fields).sort()).toEqual(['colour', 'fast_period', 'slow_period']);
    expect(validation.fields.slow_period).toEqual(['Must be a whole number']);
    expect(validateParameters('ma_cross', { fast_period: 0 })).toEqual({
      ok: false,
      fields: { fast_period: ['Must be between 1 and 200'] },
    });
    expect(validateParameters('bollinger_breakout', { std_dev: Number.NaN }).ok).toBe(false);
  });

  it('accepts fractional values where the parameter allows them', () => {
    expect(validateParameters('bollinger_breakout', { std_dev: 2.5 }).ok).toBe(true);
  });

  it('checks rules between parameters', () => {
    expect(validateParameters('ma_cross', { fast_period: 30, slow_period: 25 })).toEqual({
      ok: false,
      fields: { fast_period: ['fast_period must be smaller than slow_period'] },
    });
    expect(validateParameters('rsi_reversion', { oversold: 50, overbought: 50 }).ok).toBe(false);
  });

  it('refuses an unknown strategy type and parameters that are not an object', () => {
    expect(validateParameters('martingale', {})).toEqual({
      ok: false,
      fields: { strategy_type: ['Unknown strategy type: martingale'] },
    });
    expect(validateParameters('ma_cross', [7, 25]).ok).toBe(false);
  });

  it('makes runStrategy throw on invalid parameters', () => {
    expect(() => runStrategy('ma_cross', closes([1, 2, 3]), { fast_period: -1 })).toThrow(
      RangeError,
    );
  });
});

describe('signalAt', () => {
  it('tells the live bot what the last closed candle decided', () => {
    const signals = { buy_signals: [3, 9], sell_signals: [5, 9] };
    expect(signalAt(signals, 3)).toBe('buy');
    expect(signalAt(signals, 5)).toBe('sell');
    expect(signalAt(signals, 4)).toBeNull();
    expect(signalAt(signals, 9)).toBeNull();
  });
});
