import { assertPeriod, firstDefinedIndex, nanArray } from '../indicators/series.js';

// ma_cross in one pass: both simple moving averages and their crossings. It reads the closes once
// and never reads the two averages back, where sma + sma + crossings makes three passes.

export interface SmaCrossings {
  /** Equal, value for value, to sma(values, fastPeriod). */
  readonly fast: Float64Array;
  /** Equal, value for value, to sma(values, slowPeriod). */
  readonly slow: Float64Array;
  /** crossings(fast, slow).above */
  readonly above: number[];
  /** crossings(fast, slow).below */
  readonly below: number[];
}

/**
 * sma(values, fastPeriod), sma(values, slowPeriod) and crossings() of the two, with the same
 * arithmetic in the same order as `sma` (so the same values to the bit) and the same crossing
 * rule as `crossings`. Periods must be positive integers, as for `sma`.
 */
export function smaCrossings(
  values: Float64Array,
  fastPeriod: number,
  slowPeriod: number,
): SmaCrossings {
  assertPeriod(fastPeriod);
  assertPeriod(slowPeriod);
  const length = values.length;
  const start = firstDefinedIndex(values);
  const fastFrom = start + fastPeriod - 1; // first defined index of each average
  const slowFrom = start + slowPeriod - 1;
  const fast = nanArray(length, fastFrom);
  const slow = nanArray(length, slowFrom);
  const above: number[] = [];
  const below: number[] = [];
  // Warm-up up to the first index where both are defined: no crossing can happen there (the
  // previous index has an undefined average, and comparisons with NaN are false).
  const bothFrom = Math.max(fastFrom, slowFrom);
  const warmEnd = Math.min(length, bothFrom + 1);
  let fastSum = 0;
  let slowSum = 0;
  for (let i = start; i < warmEnd; i++) {
    const value = values[i]!;
    fastSum += value;
    if (i > fastFrom) fastSum -= values[i - fastPeriod]!;
    if (i >= fastFrom) fast[i] = fastSum / fastPeriod;
    slowSum += value;
    if (i > slowFrom) slowSum -= values[i - slowPeriod]!;
    if (i >= slowFrom) slow[i] = slowSum / slowPeriod;
  }
  if (warmEnd <= bothFrom) return { fast, slow, above, below };
  // Steady state: both windows full. NaN differences compare false both ways, so a NaN inside
  // the series (which the running sums carry on) never signals.
  let previous = fast[bothFrom]! - slow[bothFrom]!;
  for (let i = bothFrom + 1; i < length; i++) {
    const value = values[i]!;
    fastSum += value;
    fastSum -= values[i - fastPeriod]!;
    slowSum += value;
    slowSum -= values[i - slowPeriod]!;
    const fastValue = fastSum / fastPeriod;
    const slowValue = slowSum / slowPeriod;
    fast[i] = fastValue;
    slow[i] = slowValue;
    const current = fastValue - slowValue;
    if (current > 0) {
      if (previous <= 0) above.push(i);
    } else if (current < 0 && previous >= 0) {
      below.push(i);
    }
    previous = current;
  }
  return { fast, slow, above, below };
}

/**
 * The crossing of sma(fastPeriod) and sma(slowPeriod) on the last value only: +1 where
 * smaCrossings(...).above holds the last index, -1 where `below` does, 0 otherwise. The same
 * running sums as `smaCrossings`, without its arrays.
 */
export function smaCrossingAtEnd(
  values: Float64Array,
  fastPeriod: number,
  slowPeriod: number,
): -1 | 0 | 1 {
  assertPeriod(fastPeriod);
  assertPeriod(slowPeriod);
  const length = values.length;
  const start = firstDefinedIndex(values);
  const fastFrom = start + fastPeriod - 1;
  const slowFrom = start + slowPeriod - 1;
  const bothFrom = Math.max(fastFrom, slowFrom);
  // A crossing needs both averages at the last index and the one before.
  if (length - 1 <= bothFrom) return 0;
  let fastSum = 0;
  let slowSum = 0;
  let previous = Number.NaN;
  let current = Number.NaN;
  for (let i = start; i < length; i++) {
    const value = values[i]!;
    fastSum += value;
    if (i > fastFrom) fastSum -= values[i - fastPeriod]!;
    slowSum += value;
    if (i > slowFrom) slowSum -= values[i - slowPeriod]!;
    if (i >= bothFrom) {
      previous = current;
      current = fastSum / fastPeriod - slowSum / slowPeriod;
    }
  }
  if (current > 0 && previous <= 0) return 1;
  if (current < 0 && previous >= 0) return -1;
  return 0;
}
