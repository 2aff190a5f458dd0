// Messages between the optimisation pool (API process) and its worker threads: plain data only.
import type { OptimisationObjective } from '@quantsquare/contracts';
import type {
  BacktestOptions,
  Candles,
  CombinationResult,
  ParameterCombination,
  StrategySource,
  WalkForwardWindow,
} from '@quantsquare/engine';

/** What every task of one optimisation shares; sent to a worker once per job. */
export interface OptimisationJobData {
  readonly candles: Candles;
  readonly windows: readonly WalkForwardWindow[];
  readonly source: StrategySource;
  readonly base: BacktestOptions;
  readonly objective: OptimisationObjective;
}

export interface IndexedCombination {
  readonly index: number;
  readonly parameters: ParameterCombination;
}

export type ToWorker =
  | {
      readonly type: 'task';
      readonly jobId: number;
      readonly taskId: number;
      /** Present the first time this worker sees the job. */
      readonly job?: OptimisationJobData;
      readonly combinations: readonly IndexedCombination[];
    }
  | { readonly type: 'forget'; readonly jobId: number };

export type CombinationOutcome =
  | { readonly kind: 'result'; readonly result: CombinationResult }
  | {
      readonly kind: 'skipped';
      readonly index: number;
      readonly parameters: ParameterCombination;
      readonly fields: Record<string, string[]>;
    };

export type FromWorker =
  | {
      readonly type: 'done';
      readonly jobId: number;
      readonly taskId: number;
      readonly outcomes: CombinationOutcome[];
    }
  | {
      readonly type: 'failed';
      readonly jobId: number;
      readonly taskId: number;
      readonly message: string;
    };
