import { z } from 'zod';
import { decimal } from './common.js';
import { EXCHANGES, TIMEFRAMES } from './limits.js';
import {
  backtestSettings,
  CANDLE_LIMIT_MAX,
  DEFAULT_EXCHANGE,
  DEFAULT_STRATEGY_TYPE,
  DEFAULT_TIMEFRAME,
} from './trading.js';

// Parameter optimisation with walk-forward windows (the optimisation issue). Signed-in users.
// Money in answers is a decimal string (final_balance); percentages, ratios, objectives and
// parameter values are numbers. Requests take numbers.

export const OPTIMISATION_OBJECTIVES = ['return', 'sharpe', 'sortino', 'calmar'] as const;
export type OptimisationObjective = (typeof OPTIMISATION_OBJECTIVES)[number];
export const OPTIMISATION_STATUSES = [
  'queued',
  'running',
  'completed',
  'cancelled',
  'failed',
] as const;
export type OptimisationStatus = (typeof OPTIMISATION_STATUSES)[number];

/** A grid expanding to more combinations is refused with 400 `too_many_combinations`. */
export const OPTIMISATION_MAX_COMBINATIONS = 500;
export const OPTIMISATION_MAX_WINDOWS = 50;
export const OPTIMISATION_MIN_IN_SAMPLE_BARS = 30;
export const OPTIMISATION_MIN_OUT_OF_SAMPLE_BARS = 10;
/** Values of one listed parameter. */
export const OPTIMISATION_MAX_AXIS_VALUES = 100;
/** overfitting_ratio above this (in-sample ≫ out-of-sample) answers the `overfitting_high` warning. */
export const OVERFITTING_RATIO_WARNING = 2;
/** Backtest settings a grid may vary besides a built-in strategy's own parameters. */
export const OPTIMISABLE_SETTINGS = [
  'stop_loss_percentage',
  'take_profit_percentage',
  'trailing_stop_percentage',
] as const;
export const OPTIMISATION_SOCKET_PATH = '/ws/optimisations/:id';

export const OPTIMISATION_ERROR_CODES = {
  tooManyCombinations: 'too_many_combinations',
  noWindow: 'no_window',
  tooManyWindows: 'too_many_windows',
  noValidCombination: 'no_valid_combination',
  emptyAxis: 'empty_axis',
} as const;

export const OPTIMISATION_WARNINGS = ['overfitting_high', 'out_of_sample_not_positive'] as const;
export type OptimisationWarning = (typeof OPTIMISATION_WARNINGS)[number];

const finite = z.number().finite();
const parameterRange = z.strictObject({ min: finite, max: finite, step: finite.positive() });
const parameterAxis = z.union([
  z.array(finite).min(1).max(OPTIMISATION_MAX_AXIS_VALUES),
  parameterRange,
]);

export const optimisationWindowsSettings = z.strictObject({
  in_sample_bars: z.number().int().min(OPTIMISATION_MIN_IN_SAMPLE_BARS).max(CANDLE_LIMIT_MAX),
  out_of_sample_bars: z
    .number()
    .int()
    .min(OPTIMISATION_MIN_OUT_OF_SAMPLE_BARS)
    .max(CANDLE_LIMIT_MAX),
  step_bars: z.number().int().min(1).max(CANDLE_LIMIT_MAX),
});
export type OptimisationWindowsSettings = z.infer<typeof optimisationWindowsSettings>;

export const optimisationRequest = z.strictObject({
  strategy_type: z.string().trim().max(40).default(DEFAULT_STRATEGY_TYPE),
  symbol: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Z0-9]+\/[A-Z0-9]+(:[A-Z0-9]+)?$/, { message: 'Unknown symbol format' }),
  timeframe: z.enum(TIMEFRAMES).default(DEFAULT_TIMEFRAME),
  exchange: z.enum(EXCHANGES).default(DEFAULT_EXCHANGE),
  /** The newest closed candles the windows are laid over (the plain backtest's limit). */
  limit: z.number().int().min(1).max(CANDLE_LIMIT_MAX).default(CANDLE_LIMIT_MAX),
  /** Parameter name → list of values or {min, max, step}; at most 500 combinations. */
  parameter_grid: z
    .record(z.string().trim().min(1).max(40), parameterAxis)
    .refine((grid) => Object.keys(grid).length > 0, {
      message: 'Give at least one parameter',
      params: { code: 'required' },
    })
    .refine((grid) => Object.keys(grid).length <= 6, {
      message: 'At most 6 parameters',
      params: { code: 'too_many' },
    }),
  windows: optimisationWindowsSettings,
  objective: z.enum(OPTIMISATION_OBJECTIVES).default('sharpe'),
  /** Settings every run shares (the plain backtest's); grid values override them. */
  settings: backtestSettings.optional(),
  /** As the plain backtest: perpetual funding, default true for perpetual (`:`) symbols. */
  include_funding: z.boolean().optional(),
});
export type OptimisationRequest = z.input<typeof optimisationRequest>;
export type OptimisationRequestParsed = z.infer<typeof optimisationRequest>;

export const optimisationCreated = z.object({ id: z.number().int() });

/** One backtest's figures on one stretch; `objective` null when it cannot be computed. */
export const optimisationFigures = z.object({
  total_return: z.number(),
  sharpe_ratio: z.number().nullable(),
  sortino_ratio: z.number().nullable(),
  calmar_ratio: z.number().nullable(),
  max_drawdown: z.number(),
  trade_count: z.number().int(),
  final_balance: decimal,
  objective: z.number().nullable(),
});
export type OptimisationFigures = z.infer<typeof optimisationFigures>;

export const optimisationWindowResult = z.object({
  index: z.number().int(),
  in_sample: optimisationFigures,
  out_of_sample: optimisationFigures,
});

export const optimisationCombinationResult = z.object({
  /** Position in the expanded grid (first parameter varies slowest). */
  index: z.number().int(),
  parameters: z.record(z.string(), z.number()),
  /** Mean objective over the windows (an undefined window counts 0). */
  in_sample_objective: z.number(),
  out_of_sample_objective: z.number(),
  /** in-sample ÷ out-of-sample objective; null when the out-of-sample one is not positive. */
  overfitting_ratio: z.number().nullable(),
  windows: z.array(optimisationWindowResult),
});
export type OptimisationCombinationResult = z.infer<typeof optimisationCombinationResult>;

const barRange = z.object({
  start_index: z.number().int(),
  end_index: z.number().int(),
  start_time: z.number(),
  end_time: z.number(),
});

export const optimisationWindow = z.object({
  index: z.number().int(),
  in_sample: barRange,
  out_of_sample: barRange,
});

export const optimisationAnswer = z.object({
  id: z.number().int(),
  status: z.enum(OPTIMISATION_STATUSES),
  /** Share of combinations done, 0–1. */
  progress: z.number(),
  strategy_type: z.string(),
  symbol: z.string(),
  timeframe: z.enum(TIMEFRAMES),
  exchange: z.enum(EXCHANGES),
  source: z.enum(['live', 'simulated']),
  objective: z.enum(OPTIMISATION_OBJECTIVES),
  parameter_grid: z.record(z.string(), z.union([z.array(z.number()), parameterRange])),
  window_settings: optimisationWindowsSettings,
  settings: z.record(z.string(), z.unknown()),
  candle_count: z.number().int(),
  windows: z.array(optimisationWindow),
  combination_count: z.number().int(),
  completed_count: z.number().int(),
  /** Combinations the strategy refuses (e.g. fast ≥ slow), with the reason per parameter. */
  skipped: z.array(
    z.object({
      parameters: z.record(z.string(), z.number()),
      fields: z.record(z.string(), z.array(z.string())),
    }),
  ),
  results: z.array(optimisationCombinationResult),
  /** Best combination by out-of-sample objective (null until one is done). */
  best: optimisationCombinationResult.omit({ windows: true }).nullable(),
  overfitting_ratio: z.number().nullable(),
  warning: z.enum(OPTIMISATION_WARNINGS).nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type OptimisationAnswer = z.infer<typeof optimisationAnswer>;

export const optimisationList = z.object({
  results: z.array(
    optimisationAnswer.pick({
      id: true,
      status: true,
      progress: true,
      strategy_type: true,
      symbol: true,
      timeframe: true,
      objective: true,
      created_at: true,
    }),
  ),
  count: z.number().int(),
});
export type OptimisationList = z.infer<typeof optimisationList>;

/** Frames of /ws/optimisations/{id}: the answer on connect, then new results, then the end. */
export type OptimisationSocketFrame =
  | { type: 'snapshot'; data: OptimisationAnswer }
  | {
      type: 'progress';
      data: {
        status: OptimisationStatus;
        progress: number;
        completed_count: number;
        results: OptimisationCombinationResult[];
      };
    }
  | { type: 'finished'; data: OptimisationAnswer };
