// One combination of an optimisation: the strategy with these parameters, backtested on each
// walk-forward window's in-sample and out-of-sample candles by the SAME `runBacktest` as the
// plain backtest, each stretch on its own (indicators warm up inside it, as a plain backtest of
// those candles does), so every figure equals a plain backtest of the same parameters there.
import type { OptimisationObjective } from '@quantsquare/contracts';
import { runBacktest } from '../backtest/backtest.js';
import type { BacktestOptions, BacktestResult } from '../backtest/backtest.types.js';
import type { Candles } from '../candles.js';
import type { CompiledStrategy } from '../strategies/compile-strategy.js';
import { TIMEFRAME_MS } from '../timeframes.js';
import {
  type BacktestFigures,
  backtestFigures,
  meanObjective,
  overfittingRatio,
} from './objectives.js';
import type { ParameterCombination } from './parameter-grid.js';
import type { BarRange, WalkForwardWindow } from './walk-forward.js';

/** Candles [start, end), sharing memory (no copy). */
export function candleRange(candles: Candles, range: BarRange): Candles {
  return {
    time: candles.time.subarray(range.start, range.end),
    open: candles.open.subarray(range.start, range.end),
    high: candles.high.subarray(range.start, range.end),
    low: candles.low.subarray(range.start, range.end),
    close: candles.close.subarray(range.start, range.end),
    volume: candles.volume.subarray(range.start, range.end),
  };
}

/** The plain backtest of `strategy` on candles [start, end). */
export function backtestRange(
  candles: Candles,
  range: BarRange,
  strategy: CompiledStrategy,
  options: BacktestOptions,
): BacktestResult {
  const stretch = candleRange(candles, range);
  return runBacktest(stretch, strategy.compute(stretch), options);
}

export interface CombinationRun {
  readonly index: number;
  readonly parameters: ParameterCombination;
  readonly candles: Candles;
  readonly windows: readonly WalkForwardWindow[];
  readonly strategy: CompiledStrategy;
  /** The backtest options of this combination (timeframe set, so ratios annualise alike). */
  readonly options: BacktestOptions;
  readonly objective: OptimisationObjective;
}

/**
 * One combination's figures on every window, as the maths computes them (floats); the API's
 * OptimisationCombinationResult writes their money as decimal strings.
 */
export interface CombinationResult {
  /** Position in the expanded grid. */
  readonly index: number;
  readonly parameters: Record<string, number>;
  /** Mean objective over the windows (an undefined window counts 0). */
  readonly in_sample_objective: number;
  readonly out_of_sample_objective: number;
  readonly overfitting_ratio: number | null;
  readonly windows: readonly {
    readonly index: number;
    readonly in_sample: BacktestFigures;
    readonly out_of_sample: BacktestFigures;
  }[];
}

export function evaluateCombination(run: CombinationRun): CombinationResult {
  const { candles, strategy, options, objective } = run;
  const candleMs = options.timeframe
    ? TIMEFRAME_MS[options.timeframe]
    : candles.time.length > 1
      ? candles.time[1]! - candles.time[0]!
      : 0;
  const windows = run.windows.map((window) => ({
    index: window.index,
    in_sample: backtestFigures(
      backtestRange(candles, window.inSample, strategy, options),
      objective,
      candleMs,
    ),
    out_of_sample: backtestFigures(
      backtestRange(candles, window.outOfSample, strategy, options),
      objective,
      candleMs,
    ),
  }));
  const inSample = meanObjective(windows.map((w) => w.in_sample.objective));
  const outOfSample = meanObjective(windows.map((w) => w.out_of_sample.objective));
  return {
    index: run.index,
    parameters: { ...run.parameters },
    in_sample_objective: inSample,
    out_of_sample_objective: outOfSample,
    overfitting_ratio: overfittingRatio(inSample, outOfSample),
    windows,
  };
}

/** The best by out-of-sample objective; ties go to the earlier grid index. */
export function bestCombination<
  T extends Pick<CombinationResult, 'index' | 'out_of_sample_objective'>,
>(results: readonly T[]): T | null {
  let best: T | null = null;
  for (const result of results) {
    if (
      best === null ||
      result.out_of_sample_objective > best.out_of_sample_objective ||
      (result.out_of_sample_objective === best.out_of_sample_objective && result.index < best.index)
    ) {
      best = result;
    }
  }
  return best;
}
