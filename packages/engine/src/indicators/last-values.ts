// The indicators' last two values without their series: what a live bot needs to decide on the
// candle that just closed. Each function runs the same arithmetic in the same order as its
// series form in indicators.ts (so the same values to the bit; RSI and Bollinger through the very
// same scan) but keeps only scalars: no Float64Array per call, which is what made a decision cost
// more than the evaluation itself.
// The equivalence is a test (last-values.test.ts and the strategies' `latest` tests).

import { scanBollinger, scanRsi } from './indicators.js';
import { assertPeriod } from './series.js';

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
  const tail = values.length - 2;
  let previous = Number.NaN;
  let last = Number.NaN;
  scanRsi(values, period, tail, (i, value) => {
    if (i === tail) previous = value;
    else last = value;
  });
  return { previous, last };
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
  const tail = values.length - 2;
  const upper = { previous: Number.NaN, last: Number.NaN };
  const lower = { previous: Number.NaN, last: Number.NaN };
  scanBollinger(values, period, stdDevMultiplier, tail, (i, mean, deviation) => {
    const at = i === tail ? 'previous' : 'last';
    upper[at] = mean + deviation;
    lower[at] = mean - deviation;
  });
  return { upper, lower };
}
