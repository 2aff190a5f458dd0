// Technical indicators over typed arrays: Float64Array in, Float64Array out (same length), NaN
// where the value is not yet defined. Every function is a single O(n) pass. Leading NaNs in the
// input (e.g. the MACD line fed to its signal EMA) are skipped: the warm-up starts at the first
// defined value. A NaN after that point propagates.

import { assertPeriod, firstDefinedIndex, nanArray } from './series.js';

/** Simple moving average: mean of the last `period` values; defined from index period-1. */
export function sma(values: Float64Array, period: number): Float64Array {
  assertPeriod(period);
  const length = values.length;
  const start = firstDefinedIndex(values);
  const firstDefined = start + period - 1;
  const out = nanArray(length, firstDefined);
  let sum = 0;
  // Warm-up (the first full window), then the steady state without per-index branches.
  const warmEnd = Math.min(length, firstDefined + 1);
  for (let i = start; i < warmEnd; i++) sum += values[i]!;
  if (warmEnd > firstDefined) out[firstDefined] = sum / period;
  for (let i = firstDefined + 1; i < length; i++) {
    sum += values[i]!;
    sum -= values[i - period]!;
    out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average, alpha = 2 / (period + 1), seeded with the SMA of the first
 * `period` values (the TA-Lib convention), so it is defined from index period-1.
 */
export function ema(values: Float64Array, period: number): Float64Array {
  assertPeriod(period);
  const start = firstDefinedIndex(values);
  const out = nanArray(values.length, start + period - 1);
  const alpha = 2 / (period + 1);
  let seedSum = 0;
  let previous = Number.NaN;
  for (let i = start; i < values.length; i++) {
    const value = values[i]!;
    const offset = i - start;
    if (offset < period) {
      seedSum += value;
      if (offset === period - 1) {
        previous = seedSum / period;
        out[i] = previous;
      }
    } else {
      previous = previous + alpha * (value - previous);
      out[i] = previous;
    }
  }
  return out;
}

/**
 * Relative strength index with Wilder smoothing: the first average gain/loss is the mean over
 * the first `period` changes, then avg = (avg * (period - 1) + change) / period. Defined from
 * index `period`. No losses gives 100, no movement at all gives 50.
 */
export function rsi(values: Float64Array, period: number): Float64Array {
  assertPeriod(period);
  const out = nanArray(values.length, firstDefinedIndex(values) + period);
  scanRsi(values, period, 0, (i, value) => {
    out[i] = value;
  });
  return out;
}

/**
 * The RSI recurrence: calls `visit` with each defined value at index `from` or later (the
 * averages run over every index; only visited values are divided out). `rsi` visits them all,
 * a live decision the last two (`rsiLastTwo`).
 */
export function scanRsi(
  values: Float64Array,
  period: number,
  from: number,
  visit: (index: number, value: number) => void,
): void {
  assertPeriod(period);
  const start = firstDefinedIndex(values);
  let averageGain = 0;
  let averageLoss = 0;
  for (let i = start + 1; i < values.length; i++) {
    const change = values[i]! - values[i - 1]!;
    const gain = Math.max(change, 0);
    const loss = change < 0 ? -change : 0;
    const changeIndex = i - start; // 1-based count of changes seen
    if (changeIndex <= period) {
      averageGain += gain / period;
      averageLoss += loss / period;
      if (changeIndex < period) continue;
    } else {
      averageGain = (averageGain * (period - 1) + gain) / period;
      averageLoss = (averageLoss * (period - 1) + loss) / period;
    }
    if (i >= from) visit(i, rsiFromAverages(averageGain, averageLoss));
  }
}

function rsiFromAverages(averageGain: number, averageLoss: number): number {
  if (averageLoss === 0) return averageGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + averageGain / averageLoss);
}

export interface MacdSeries {
  /** EMA(fast) - EMA(slow); defined from index slowPeriod-1. */
  readonly line: Float64Array;
  /** EMA(signalPeriod) of the line; defined from index slowPeriod+signalPeriod-2. */
  readonly signal: Float64Array;
  /** line - signal. */
  readonly histogram: Float64Array;
}

export function macd(
  values: Float64Array,
  fastPeriod: number,
  slowPeriod: number,
  signalPeriod: number,
): MacdSeries {
  const fast = ema(values, fastPeriod);
  const slow = ema(values, slowPeriod);
  const line = nanArray(values.length, 0);
  for (let i = 0; i < values.length; i++) line[i] = fast[i]! - slow[i]!;
  const signal = ema(line, signalPeriod);
  const histogram = nanArray(values.length, 0);
  for (let i = 0; i < values.length; i++) histogram[i] = line[i]! - signal[i]!;
  return { line, signal, histogram };
}

export interface BollingerBands {
  readonly middle: Float64Array;
  readonly upper: Float64Array;
  readonly lower: Float64Array;
}

/**
 * Bollinger bands: middle = SMA(period), upper/lower = middle ± stdDevMultiplier × population
 * standard deviation of the same window. The window variance is updated in O(1) per step with
 * a Welford-style add/remove (no sum-of-squares cancellation).
 */
export function bollinger(
  values: Float64Array,
  period: number,
  stdDevMultiplier: number,
): BollingerBands {
  assertPeriod(period);
  const definedFrom = firstDefinedIndex(values) + period - 1;
  const middle = nanArray(values.length, definedFrom);
  const upper = nanArray(values.length, definedFrom);
  const lower = nanArray(values.length, definedFrom);
  scanBollinger(values, period, stdDevMultiplier, 0, (i, mean, deviation) => {
    middle[i] = mean;
    upper[i] = mean + deviation;
    lower[i] = mean - deviation;
  });
  return { middle, upper, lower };
}

/**
 * The Bollinger window: calls `visit` with the window's mean and the band's half-width
 * (stdDevMultiplier × deviation) at each defined index `from` or later (the window runs over
 * every index; only visited ones take the square root). `bollinger` visits them all, a live
 * decision the last two (`bollingerLastTwo`).
 */
export function scanBollinger(
  values: Float64Array,
  period: number,
  stdDevMultiplier: number,
  from: number,
  visit: (index: number, mean: number, deviation: number) => void,
): void {
  assertPeriod(period);
  const start = firstDefinedIndex(values);
  let mean = 0;
  let squaredDeviations = 0; // sum of (x - mean)^2 over the window
  for (let i = start; i < values.length; i++) {
    const value = values[i]!;
    const offset = i - start;
    if (offset < period) {
      const delta = value - mean;
      mean += delta / (offset + 1);
      squaredDeviations += delta * (value - mean);
    } else {
      const removed = values[i - period]!;
      const previousMean = mean;
      mean += (value - removed) / period;
      squaredDeviations += (value - removed) * (value - mean + removed - previousMean);
      if (squaredDeviations < 0) squaredDeviations = 0;
    }
    if (offset >= period - 1 && i >= from) {
      visit(i, mean, Math.sqrt(squaredDeviations / period) * stdDevMultiplier);
    }
  }
}

/**
 * Average true range with Wilder smoothing. True range needs the previous close, so it exists
 * from index 1; the first ATR (index `period`) is the mean of TR[1..period], then
 * atr = (atr * (period - 1) + tr) / period (the TA-Lib convention).
 */
export function atr(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  period: number,
): Float64Array {
  assertPeriod(period);
  const out = nanArray(close.length, period);
  let average = 0;
  for (let i = 1; i < close.length; i++) {
    const previousClose = close[i - 1]!;
    const range = high[i]! - low[i]!;
    const upMove = Math.abs(high[i]! - previousClose);
    const downMove = Math.abs(low[i]! - previousClose);
    const trueRange = range > upMove ? Math.max(range, downMove) : Math.max(upMove, downMove);
    if (i <= period) {
      average += trueRange / period;
      if (i < period) continue;
    } else {
      average = (average * (period - 1) + trueRange) / period;
    }
    out[i] = average;
  }
  return out;
}
