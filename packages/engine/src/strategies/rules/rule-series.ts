// Evaluates a checked rule set over columnar candles: each operand a series computed once per
// run (shared by every comparison that names it), each comparison a 0/1 mask, groups combined
// with and/or. Every value at index i depends on candles 0..i only: indicators are causal and
// an offset reads an earlier index, never a later one.
import type { RuleCondition, RuleLeaf, RuleOperand } from '@quantsquare/contracts';
import type { Candles } from '../../candles.js';
import { atr, bollinger, ema, macd, rsi, sma } from '../../indicators/indicators.js';
import { smaCrossings } from '../sma-crossings.js';

/** A side of a comparison: a series read `offset` bars back. */
interface Side {
  readonly series: Float64Array;
  readonly offset: number;
}

/** Operand series by their settings (offset aside), computed once per run. */
export type SeriesCache = Map<string, Float64Array>;

/**
 * What one run computes once and shares: operand series, and the candles where each comparison
 * holds (a rule set names one comparison in several slots, e.g. a cross above as the long entry
 * and the short exit; a cross above and below of one pair come from one pass). Cached lists are
 * read only.
 */
export interface RunCache {
  readonly series: SeriesCache;
  readonly hits: Map<string, readonly number[]>;
}

export function newRunCache(): RunCache {
  return { series: new Map(), hits: new Map() };
}

export function operandKey(operand: RuleOperand): string {
  const { offset: _offset, ...settings } = operand;
  return JSON.stringify(settings);
}

function computeSeries(candles: Candles, operand: RuleOperand, cache: SeriesCache): Float64Array {
  if ('price' in operand) return candles[operand.price];
  if (!('indicator' in operand)) throw new RangeError('a value has no series');
  const { close } = candles;
  const period = operand.period ?? 0;
  switch (operand.indicator) {
    case 'sma':
      return sma(close, period);
    case 'ema':
      return ema(close, period);
    case 'rsi':
      return rsi(close, period);
    case 'atr':
      return atr(candles.high, candles.low, close, period);
    case 'macd':
    case 'macd_signal':
    case 'macd_hist': {
      const series = macd(
        close,
        operand.fast_period!,
        operand.slow_period!,
        operand.signal_period!,
      );
      // The three lines come from one computation: keep the siblings for later operands.
      const base = { ...operand, offset: undefined };
      cache.set(operandKey({ ...base, indicator: 'macd' }), series.line);
      cache.set(operandKey({ ...base, indicator: 'macd_signal' }), series.signal);
      cache.set(operandKey({ ...base, indicator: 'macd_hist' }), series.histogram);
      return operand.indicator === 'macd'
        ? series.line
        : operand.indicator === 'macd_signal'
          ? series.signal
          : series.histogram;
    }
    case 'bb_upper':
    case 'bb_mid':
    case 'bb_lower': {
      const bands = bollinger(close, period, operand.std_dev!);
      const base = { ...operand, offset: undefined };
      cache.set(operandKey({ ...base, indicator: 'bb_upper' }), bands.upper);
      cache.set(operandKey({ ...base, indicator: 'bb_mid' }), bands.middle);
      cache.set(operandKey({ ...base, indicator: 'bb_lower' }), bands.lower);
      return operand.indicator === 'bb_upper'
        ? bands.upper
        : operand.indicator === 'bb_mid'
          ? bands.middle
          : bands.lower;
    }
  }
}

export function operandSeries(
  candles: Candles,
  operand: RuleOperand,
  cache: SeriesCache,
): Float64Array | null {
  if ('value' in operand) return null;
  const key = operandKey(operand);
  let series = cache.get(key);
  if (series === undefined) {
    series = computeSeries(candles, operand, cache);
    cache.set(key, series);
  }
  return series;
}

function side(candles: Candles, operand: RuleOperand, cache: SeriesCache): Side {
  const offset = operand.offset ?? 0;
  if (!('value' in operand)) return { series: operandSeries(candles, operand, cache)!, offset };
  // A constant as a flat series: every comparison then runs one monomorphic loop.
  const key = `value:${operand.value}`;
  let series = cache.get(key);
  if (series === undefined) {
    series = new Float64Array(candles.close.length).fill(operand.value);
    cache.set(key, series);
  }
  return { series, offset };
}

/**
 * Both crossings of a pair in one pass (the built-ins' rule, signal-rules.ts `crossings`): above
 * where left - right > 0 and was <= 0 on the candle before, below the reverse. NaN compares
 * false, so undefined stretches never cross.
 */
function scanCrossings(left: Side, right: Side, length: number) {
  const above: number[] = [];
  const below: number[] = [];
  const a = left.series;
  const b = right.series;
  const aOffset = left.offset;
  const bOffset = right.offset;
  const start = Math.max(aOffset, bOffset);
  let previous = Number.NaN;
  for (let i = start; i < length; i++) {
    const gap = a[i - aOffset]! - b[i - bOffset]!;
    if (gap > 0 && previous <= 0) above.push(i);
    else if (gap < 0 && previous >= 0) below.push(i);
    previous = gap;
  }
  return { above, below };
}

/** Where a comparison holds on the close, ascending; NaN compares false. */
function scanComparison(left: Side, right: Side, length: number, op: RuleLeaf['op']): number[] {
  const out: number[] = [];
  const a = left.series;
  const b = right.series;
  const aOffset = left.offset;
  const bOffset = right.offset;
  for (let i = Math.max(aOffset, bOffset); i < length; i++) {
    const gap = a[i - aOffset]! - b[i - bOffset]!;
    const holds =
      op === 'gt' ? gap > 0 : op === 'gte' ? gap >= 0 : op === 'lt' ? gap < 0 : gap <= 0;
    if (holds) out.push(i);
  }
  return out;
}

/** An SMA of close read on its own candle. */
function isPlainSma(operand: RuleOperand): operand is RuleOperand & { period: number } {
  return 'indicator' in operand && operand.indicator === 'sma' && (operand.offset ?? 0) === 0;
}

function leafHits(candles: Candles, leaf: RuleLeaf, cache: RunCache): readonly number[] {
  const key = JSON.stringify(leaf);
  const known = cache.hits.get(key);
  if (known !== undefined) return known;
  const isCrossing = leaf.op === 'crosses_above' || leaf.op === 'crosses_below';
  if (isCrossing && isPlainSma(leaf.left) && isPlainSma(leaf.right)) {
    // The ma_cross shape: both averages and both crossings in ma_cross's own single pass.
    const fused = smaCrossings(candles.close, leaf.left.period!, leaf.right.period!);
    cache.series.set(operandKey(leaf.left), fused.fast);
    cache.series.set(operandKey(leaf.right), fused.slow);
    cache.hits.set(JSON.stringify({ ...leaf, op: 'crosses_above' }), fused.above);
    cache.hits.set(JSON.stringify({ ...leaf, op: 'crosses_below' }), fused.below);
    return leaf.op === 'crosses_above' ? fused.above : fused.below;
  }
  const left = side(candles, leaf.left, cache.series);
  const right = side(candles, leaf.right, cache.series);
  const length = candles.close.length;
  if (isCrossing) {
    // One pass answers both directions; the other is kept for the slot that names it.
    const { above, below } = scanCrossings(left, right, length);
    cache.hits.set(JSON.stringify({ ...leaf, op: 'crosses_above' }), above);
    cache.hits.set(JSON.stringify({ ...leaf, op: 'crosses_below' }), below);
    return leaf.op === 'crosses_above' ? above : below;
  }
  const hits = scanComparison(left, right, length, leaf.op);
  cache.hits.set(key, hits);
  return hits;
}

/** Indexes in both ascending lists. */
function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (let k = 0; k < a.length; k++) {
    const value = a[k]!;
    while (j < b.length && b[j]! < value) j++;
    if (j < b.length && b[j] === value) out.push(value);
  }
  return out;
}

/** Indexes in either ascending list, once each. */
function unite(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Number.POSITIVE_INFINITY;
    const y = j < b.length ? b[j]! : Number.POSITIVE_INFINITY;
    out.push(Math.min(x, y));
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out;
}

/**
 * The candles on whose close `condition` holds, ascending (read only: it may be shared). Lists,
 * not per-candle masks: crossings are sparse, so a crossing rule costs one pass over the candles.
 */
export function conditionHits(
  candles: Candles,
  condition: RuleCondition,
  cache: RunCache,
): readonly number[] {
  if ('left' in condition) return leafHits(candles, condition, cache);
  const isAll = 'all' in condition;
  const children = isAll ? condition.all : condition.any;
  let out = conditionHits(candles, children[0]!, cache);
  for (let k = 1; k < children.length; k++) {
    const next = conditionHits(candles, children[k]!, cache);
    out = isAll ? intersect(out, next) : unite(out, next);
  }
  return out;
}
