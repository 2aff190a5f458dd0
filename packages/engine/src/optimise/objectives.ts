// What an optimisation ranks parameters by: one number per backtest.
import type { OptimisationObjective } from '@quantsquare/contracts';
import type { BacktestResult } from '../backtest/backtest.types.js';
import { calmarRatio, periodsPerYear, sortinoRatio } from '../backtest/backtest-metrics.js';

/**
 * One backtest's figures on one stretch, as the maths computes them (floats). The API's
 * OptimisationFigures is this with `final_balance` written as a decimal string.
 */
export interface BacktestFigures {
  readonly total_return: number;
  readonly sharpe_ratio: number | null;
  readonly sortino_ratio: number | null;
  readonly calmar_ratio: number | null;
  readonly max_drawdown: number;
  readonly trade_count: number;
  readonly final_balance: number;
  /** The ranked figure; null when it cannot be computed. */
  readonly objective: number | null;
}

/**
 * The figures of one backtest over `candleMs` candles. `objective`: total return in percent,
 * or the Sharpe, Sortino or Calmar ratio (null where the ratio is undefined, e.g. no trades).
 */
export function backtestFigures(
  result: BacktestResult,
  objective: OptimisationObjective,
  candleMs: number,
): BacktestFigures {
  const candleCount = result.equity.length;
  const sortino =
    candleMs > 0
      ? sortinoRatio(result.equity, result.initial_balance, periodsPerYear(candleMs))
      : null;
  const calmar = calmarRatio(
    result.final_balance,
    result.initial_balance,
    result.max_drawdown,
    candleCount * candleMs,
  );
  const figures = {
    total_return: result.total_return,
    sharpe_ratio: result.sharpe_ratio,
    sortino_ratio: sortino,
    calmar_ratio: calmar,
    max_drawdown: result.max_drawdown,
    trade_count: result.trade_count,
    final_balance: result.final_balance,
  };
  return { ...figures, objective: objectiveOf(figures, objective) };
}

function objectiveOf(
  figures: Omit<BacktestFigures, 'objective'>,
  objective: OptimisationObjective,
): number | null {
  switch (objective) {
    case 'return':
      return figures.total_return;
    case 'sharpe':
      return figures.sharpe_ratio;
    case 'sortino':
      return figures.sortino_ratio;
    case 'calmar':
      return figures.calmar_ratio;
  }
}

/** Mean over windows; a window whose objective is undefined (no trades, no drawdown) counts 0. */
export function meanObjective(values: readonly (number | null)[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value ?? 0;
  return sum / values.length;
}

/**
 * In-sample ÷ out-of-sample objective: near 1 when the parameters hold up on unseen data, high
 * when they were fitted to the past. Null when the out-of-sample objective is not positive
 * (the ratio would mean nothing; that case has its own warning).
 */
export function overfittingRatio(inSample: number, outOfSample: number): number | null {
  if (!(outOfSample > 0)) return null;
  return inSample / outOfSample;
}
