import { describe, expect, it } from 'vitest';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { atr, bollinger, ema, macd, rsi, sma } from './indicators.js';

// Naive O(n·p) reference implementations, written from the textbook definitions.

function referenceSma(values: number[], period: number): number[] {
  return values.map((_, i) => {
    if (i < period - 1) return Number.NaN;
    let sum = 0;
    for (let j = i - period + 1; j <= i; j++) sum += values[j]!;
    return sum / period;
  });
}

function referenceEma(values: number[], period: number): number[] {
  const start = values.findIndex((v) => !Number.isNaN(v));
  const out = values.map(() => Number.NaN);
  if (start < 0) return out;
  const alpha = 2 / (period + 1);
  for (let i = start + period - 1; i < values.length; i++) {
    if (i === start + period - 1) {
      out[i] = referenceSma(values.slice(start, start + period), period)[period - 1]!;
    } else {
      out[i] = alpha * values[i]! + (1 - alpha) * out[i - 1]!;
    }
  }
  return out;
}

function referenceRsi(values: number[], period: number): number[] {
  const out = values.map(() => Number.NaN);
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period && i < values.length; i++) {
    const change = values[i]! - values[i - 1]!;
    gain += Math.max(change, 0);
    loss += Math.max(-change, 0);
  }
  gain /= period;
  loss /= period;
  for (let i = period; i < values.length; i++) {
    if (i > period) {
      const change = values[i]! - values[i - 1]!;
      gain = (gain * (period - 1) + Math.max(change, 0)) / period;
      loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
    }
    out[i] = loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss);
  }
  return out;
}

function referenceStdDev(values: number[], period: number): number[] {
  const means = referenceSma(values, period);
  return values.map((_, i) => {
    if (i < period - 1) return Number.NaN;
    let sum = 0;
    for (let j = i - period + 1; j <= i; j++) sum += (values[j]! - means[i]!) ** 2;
    return Math.sqrt(sum / period);
  });
}

function referenceAtr(high: number[], low: number[], close: number[], period: number): number[] {
  const trueRange = close.map((_, i) =>
    i === 0
      ? Number.NaN
      : Math.max(
          high[i]! - low[i]!,
          Math.abs(high[i]! - close[i - 1]!),
          Math.abs(low[i]! - close[i - 1]!),
        ),
  );
  const out = close.map(() => Number.NaN);
  for (let i = period; i < close.length; i++) {
    out[i] =
      i === period
        ? trueRange.slice(1, period + 1).reduce((a, b) => a + b, 0) / period
        : (out[i - 1]! * (period - 1) + trueRange[i]!) / period;
  }
  return out;
}

function expectSeriesClose(actual: Float64Array, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i]!;
    const got = actual[i]!;
    if (Number.isNaN(want)) {
      expect(got, `index ${i}`).toBeNaN();
    } else {
      expect(Math.abs(got - want), `index ${i}: ${got} vs ${want}`).toBeLessThanOrEqual(1e-9);
    }
  }
}

const candles = randomWalkCandles(2000, 42);
const close = Array.from(candles.close);

describe('indicators match naive references on a seeded random walk', () => {
  it.each([1, 2, 7, 25, 200])('SMA(%i)', (period) => {
    expectSeriesClose(sma(candles.close, period), referenceSma(close, period));
  });

  it.each([1, 5, 12, 26, 100])('EMA(%i) seeded with the SMA of the first period', (period) => {
    expectSeriesClose(ema(candles.close, period), referenceEma(close, period));
  });

  it.each([2, 6, 14, 50])('RSI(%i) with Wilder smoothing', (period) => {
    expectSeriesClose(rsi(candles.close, period), referenceRsi(close, period));
  });

  it('MACD(12, 26, 9): line, signal and histogram', () => {
    const result = macd(candles.close, 12, 26, 9);
    const fast = referenceEma(close, 12);
    const slow = referenceEma(close, 26);
    const line = close.map((_, i) => fast[i]! - slow[i]!);
    const signal = referenceEma(line, 9);
    expectSeriesClose(result.line, line);
    expectSeriesClose(result.signal, signal);
    expectSeriesClose(
      result.histogram,
      line.map((value, i) => value - signal[i]!),
    );
    expect(Number.isNaN(result.signal[25 + 8 - 1]!)).toBe(true);
    expect(Number.isNaN(result.signal[25 + 8]!)).toBe(false);
  });

  it.each([
    [20, 2],
    [5, 1.5],
    [100, 3],
  ])('Bollinger(%i, %f) with population standard deviation', (period, multiplier) => {
    const bands = bollinger(candles.close, period, multiplier);
    const middle = referenceSma(close, period);
    const deviation = referenceStdDev(close, period);
    expectSeriesClose(bands.middle, middle);
    expectSeriesClose(
      bands.upper,
      middle.map((m, i) => m + multiplier * deviation[i]!),
    );
    expectSeriesClose(
      bands.lower,
      middle.map((m, i) => m - multiplier * deviation[i]!),
    );
  });

  it.each([1, 14, 30])('ATR(%i) with Wilder smoothing', (period) => {
    expectSeriesClose(
      atr(candles.high, candles.low, candles.close, period),
      referenceAtr(Array.from(candles.high), Array.from(candles.low), close, period),
    );
  });
});

describe('indicator edge cases', () => {
  it('leaves a series shorter than the period undefined', () => {
    const values = new Float64Array([1, 2, 3]);
    expect(Array.from(sma(values, 5)).every(Number.isNaN)).toBe(true);
    expect(Array.from(ema(values, 5)).every(Number.isNaN)).toBe(true);
    expect(Array.from(rsi(values, 5)).every(Number.isNaN)).toBe(true);
  });

  it('gives RSI 100 on a rising series and 50 on a flat one', () => {
    expect(rsi(new Float64Array([1, 2, 3, 4]), 3)[3]).toBe(100);
    expect(rsi(new Float64Array([5, 5, 5, 5]), 3)[3]).toBe(50);
  });

  it('gives zero-width bands on a constant series', () => {
    const bands = bollinger(new Float64Array([7, 7, 7, 7]), 3, 2);
    expect(bands.upper[3]).toBe(7);
    expect(bands.lower[3]).toBe(7);
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => sma(new Float64Array(3), 0)).toThrow(RangeError);
    expect(() => ema(new Float64Array(3), 2.5)).toThrow(RangeError);
  });
});
