// Rows of `optimisations` as the API answers them (best, overfitting ratio and warning derived).
// Results are stored as the engine computed them (floats); their money becomes decimal strings
// here, on every read, so a row of any age answers in the same shape.
import {
  type OptimisationAnswer,
  type OptimisationCombinationResult,
  type OptimisationFigures,
  type OptimisationList,
  type OptimisationWarning,
  OVERFITTING_RATIO_WARNING,
} from '@quantsquare/contracts';
import { type BacktestFigures, bestCombination, type CombinationResult } from '@quantsquare/engine';
import { floatDecimal } from '../../common/decimal-text.js';
import type { OptimisationRow } from '../../db/schema/index.js';

/** A run of another process that has saved nothing for this long is taken as interrupted. */
export const OPTIMISATION_STALE_MS = 60_000;
const INTERRUPTED = 'The server stopped while the optimisation ran';

export interface PresentOptions {
  /** This process runs it (never stale). */
  readonly isRunningHere?: boolean;
  readonly nowMs?: number;
}

function figuresAnswer(figures: BacktestFigures): OptimisationFigures {
  return { ...figures, final_balance: floatDecimal(figures.final_balance) };
}

/** A combination's result as the answer and the socket's frames carry it. */
export function combinationAnswer(result: CombinationResult): OptimisationCombinationResult {
  return {
    ...result,
    parameters: { ...result.parameters },
    windows: result.windows.map((window) => ({
      index: window.index,
      in_sample: figuresAnswer(window.in_sample),
      out_of_sample: figuresAnswer(window.out_of_sample),
    })),
  };
}

function statusOf(row: OptimisationRow, options: PresentOptions) {
  const isUnfinished = row.status === 'running' || row.status === 'queued';
  const isStale =
    isUnfinished &&
    options.isRunningHere === false &&
    options.nowMs !== undefined &&
    options.nowMs - row.updatedAt.getTime() > OPTIMISATION_STALE_MS;
  return isStale
    ? { status: 'failed' as const, error: INTERRUPTED }
    : { status: row.status, error: row.error };
}

function warningOf(
  best: { out_of_sample_objective: number; overfitting_ratio: number | null } | null,
): OptimisationWarning | null {
  if (!best) return null;
  if (!(best.out_of_sample_objective > 0)) return 'out_of_sample_not_positive';
  if (best.overfitting_ratio !== null && best.overfitting_ratio > OVERFITTING_RATIO_WARNING) {
    return 'overfitting_high';
  }
  return null;
}

export function presentOptimisation(
  row: OptimisationRow,
  options: PresentOptions = {},
): OptimisationAnswer {
  const request = row.request;
  const best = bestCombination(row.results);
  const { status, error } = statusOf(row, options);
  return {
    id: row.id,
    status,
    progress: row.progress,
    strategy_type: row.strategyType,
    symbol: request.symbol,
    timeframe: request.timeframe,
    exchange: request.exchange,
    source: row.source,
    objective: request.objective,
    parameter_grid: request.parameter_grid as OptimisationAnswer['parameter_grid'],
    window_settings: request.windows,
    settings: { ...(request.settings ?? {}) },
    candle_count: row.candleCount,
    windows: row.windows,
    combination_count: row.combinationCount,
    completed_count: row.completedCount,
    skipped: row.skipped,
    results: row.results.map(combinationAnswer),
    best: best && {
      index: best.index,
      parameters: best.parameters,
      in_sample_objective: best.in_sample_objective,
      out_of_sample_objective: best.out_of_sample_objective,
      overfitting_ratio: best.overfitting_ratio,
    },
    overfitting_ratio: best?.overfitting_ratio ?? null,
    warning: warningOf(best),
    error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentSummary(row: OptimisationRow): OptimisationList['results'][number] {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    strategy_type: row.strategyType,
    symbol: row.request.symbol,
    timeframe: row.request.timeframe,
    objective: row.request.objective,
    created_at: row.createdAt.toISOString(),
  };
}
