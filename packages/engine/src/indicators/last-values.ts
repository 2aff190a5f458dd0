// The indicators' last two values without their series: what a live bot needs to decide on the
// candle that just closed. Each function runs the same arithmetic in the same order as its
// series form in indicators.ts (so the same values to the bit) but keeps only scalars: no
// Float64Array per call, which is what made a decision cost more than the evaluation itself.
// The equivalence is a test (last-values.test.ts and the strategies' `latest` tests).

import { assertPeriod, firstDefinedIndex } from './series.js';

/** A series' values at the last index and the one before (NaN where undefined or absent). */
export interface LastTwo {
  readonly previous: number;
  readonly last: number;
}

/** Same as LastTwo for a band pair (Bollinger). */
export interface LastTwoBands {
  readonly upper: LastTwo;
  readonly lower: LastTwo;
}

/**
 * `ema` one value at a time: push(values[i]) answers ema(values)[i]. Leading NaNs are skipped
 * (the warm-up starts at the first defined value), a later NaN propagates, as in `ema`.
 */
export class EmaStream {
  private readonly alpha: number;
  private offset = -1; // i - start; -1 until the first defined value
  private seedSum = 0;
  private previous = Number.NaN;

  constructor(private readonly period: number) {
    assertPeriod(period);
    this.alpha = 2 / (period + 1);
  }

  push(value: number): number {
    if (this.offset < 0 && Number.isNaN(value)) return Number.NaN;
    this.offset += 1;
    if (this.offset < this.period) {
      this.seedSum += value;
      if (this.offset !== this.period - 1) return Number.NaN;
      this.previous = this.seedSum / this.period;
      return this.previous;
    }
    this.previous = this.previous + this.alpha * (value - this.previous);
    return this.previous;
  }
}

/** ema(values, period) at its last two indexes. */
export function emaLastTwo(values: Float64Array, period: number): LastTwo {
  const stream = new EmaStream(period);
  let previous = Number.NaN;
  let last = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    previous = last;
    last = stream.push(values[i]!);
  }
  return { previous, last };
}

/** rsi(values, period) at its last two indexes (Wilder smoothing, as `rsi`). */
export function rsiLastTwo(values: Float64Array, period: number): LastTwo {
  assertPeriod(period);
  const start = firstDefinedIndex(values);
  const tail = values.length - 2;
  let averageGain = 0;
  let averageLoss = 0;
  let previous = Number.NaN;
  let last = Number.NaN;
  for (let i = start + 1; i < values.length; i++) {
    const change = values[i]! - values[i - 1]!;
    const gain = Math.max(change, 0);
    const loss = change < 0 ? -change : 0;
    const changeIndex = i - start;
    if (changeIndex <= period) {
      averageGain += gain / period;
      averageLoss += loss / period;
    } else {
      averageGain = (averageGain * (period - 1) + gain) / period;
      averageLoss = (averageLoss * (period - 1) + loss) / period;
    }
    // Only the last two values are asked for: the division runs for those alone.
    if (i >= tail) {
      previous = last;
      last = changeIndex >= period ? rsiValue(averageGain, averageLoss) : Number.NaN;
    }
  }
  return { previous, last };
}

function rsiValue(averageGain: number, averageLoss: number): number {
  if (averageLoss === 0) return averageGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + averageGain / averageLoss);
}

/** macd(values, …) line and signal at their last two indexes. */
export function macdLastTwo(
  values: Float64Array,
  fastPeriod: number,
  slowPeriod: number,
  signalPeriod: number,
): { readonly line: LastTwo; readonly signal: LastTwo } {
  const fast = new EmaStream(fastPeriod);
  const slow = new EmaStream(slowPeriod);
  const signalStream = new EmaStream(signalPeriod);
  let linePrevious = Number.NaN;
  let lineLast = Number.NaN;
  let signalPrevious = Number.NaN;
  let signalLast = Number.NaN;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const line = fast.push(value) - slow.push(value);
    linePrevious = lineLast;
    lineLast = line;
    signalPrevious = signalLast;
    signalLast = signalStream.push(line);
  }
  return {
    line: { previous: linePrevious, last: lineLast },
    signal: { previous: signalPrevious, last: signalLast },
  };
}

/** bollinger(values, …) upper and lower bands at their last two indexes. */
export function bollingerLastTwo(
  values: Float64Array,
  period: number,
  stdDevMultiplier: number,
): LastTwoBands {
  assertPeriod(period);
  const start = firstDefinedIndex(values);
  const tail = values.length - 2;
  let mean = 0;
  let squaredDeviations = 0;
  let upperPrevious = Number.NaN;
  let upperLast = Number.NaN;
  let lowerPrevious = Number.NaN;
  let lowerLast = Number.NaN;
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
    if (i < tail) continue; // the square root runs for the last two values alone
    upperPrevious = upperLast;
    lowerPrevious = lowerLast;
    if (offset >= period - 1) {
      const deviation = Math.sqrt(squaredDeviations / period) * stdDevMultiplier;
      upperLast = mean + deviation;
      lowerLast = mean - deviation;
    } else {
      upperLast = Number.NaN;
      lowerLast = Number.NaN;
    }
  }
  return {
    upper: { previous: upperPrevious, last: upperLast },
    lower: { previous: lowerPrevious, last: lowerLast },
  };
}
