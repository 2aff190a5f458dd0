import { z } from 'zod';
import { ACCOUNT_TYPES } from '../accounts.js';
import { decimal } from '../common.js';
import { EXCHANGES } from '../limits.js';
import {
  SQUARE_DEFAULT_PERIOD,
  SQUARE_DEFAULT_SORT,
  SQUARE_PAGE_SIZE,
  SQUARE_PAGE_SIZE_MAX,
  SQUARE_PERIODS,
  SQUARE_SEARCH_MAX_LENGTH,
  SQUARE_SORTS,
} from './constants.js';

// The strategy square's metrics and its listing (document 2 §2 square).

// ---- metrics ----------------------------------------------------------------------------------

/**
 * One period's figures. Returns are time-weighted (deposits and withdrawals do not move them),
 * in percent; `pnl` is USDT earned by trading (flows excluded); `max_drawdown` is a positive
 * percent of the time-weighted equity index; Sharpe and Sortino are annualised from hourly
 * returns (null with fewer than two hourly returns, or no spread / no losing hour).
 * `win_rate` is null without a closed trade in the period.
 */
export const periodMetrics = z.object({
  return_percent: z.number(),
  /** USDT (decimal string, as all money in answers). */
  pnl: decimal,
  max_drawdown: z.number(),
  win_rate: z.number().nullable(),
  sharpe_ratio: z.number().nullable(),
  sortino_ratio: z.number().nullable(),
  trades_count: z.number().int(),
  copiers_count: z.number().int(),
  /**
   * Copy trading's figures, the same in every period (each relation counts since it began):
   * the copied P&L (USDT) of the strategy's relations not deleted (any status), and the mean of
   * their copy efficiencies (follower return ÷ the leader's return over the same span, a ratio:
   * 1 = matched) over the relations where it is defined (null when none is: nobody copies, or
   * the leader has not moved since).
   */
  copier_pnl: decimal,
  copy_efficiency: z.number().nullable(),
});
export type PeriodMetrics = z.infer<typeof periodMetrics>;

// ---- the square -------------------------------------------------------------------------------

const booleanTrue = z.enum(['true']);

/** GET /strategy-square/strategies/ query. `search` matches the strategy name, `user_search` the nickname. */
export const strategyListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(SQUARE_PAGE_SIZE_MAX).default(SQUARE_PAGE_SIZE),
  exchange: z.enum(EXCHANGES).optional(),
  sort: z.enum(SQUARE_SORTS).default(SQUARE_DEFAULT_SORT),
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
  search: z.string().trim().max(SQUARE_SEARCH_MAX_LENGTH).optional(),
  user_search: z.string().trim().max(SQUARE_SEARCH_MAX_LENGTH).optional(),
  /** Only public strategies are ever listed; the spec's client sends it. */
  is_public: booleanTrue.optional(),
  /** Only "honest" strategies (HONEST_MIN_LIVE_DAYS, HONEST_MAX_ABS_DELTA_PCT). */
  honest: booleanTrue.optional(),
});
export type StrategyListQuery = z.infer<typeof strategyListQuery>;

export const sparklinePoint = z.object({ timestamp: z.string(), balance: z.number() });
export type SparklinePoint = z.infer<typeof sparklinePoint>;

export const strategyOwner = z.object({
  user_id: z.number().int(),
  /** '' when the owner set none (shown as Anonymous). */
  nickname: z.string(),
  avatar_url: z.string().nullable(),
  followers_count: z.number().int(),
});
export type StrategyOwner = z.infer<typeof strategyOwner>;

/** A square card (also the items of a user's public strategies). */
export const strategyCard = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  account_type: z.enum(ACCOUNT_TYPES),
  is_paper: z.boolean(),
  /** USDT equity at the last snapshot (decimal string). */
  balance: decimal,
  /** Time-weighted return over all history, percent. */
  total_pnl_percent: z.number(),
  /** Time-weighted return over the requested period, percent. */
  total_profit_rate: z.number(),
  /** Over the requested period, positive percent. */
  max_drawdown: z.number(),
  period: z.enum(SQUARE_PERIODS),
  metrics: periodMetrics,
  days_of_history: z.number(),
  /** Under 7 days of history: not ranked by sharpe_ratio or win_rate. */
  is_new: z.boolean(),
  published_at: z.string().nullable(),
  /** One point a day over the last 30 days, oldest first; [] before the first snapshot. */
  snapshots: z.array(sparklinePoint),
  user_id: z.number().int(),
  user_profile: strategyOwner,
  share_settings: z.object({ accept_copy: z.boolean(), copiers_count: z.number().int() }),
  /** Live against backtest of its bots (hourly); null when no bot has traded live. */
  live_check: z
    .object({ live_days: z.number(), delta_pct: z.number(), is_honest: z.boolean() })
    .nullable(),
});
export type StrategyCard = z.infer<typeof strategyCard>;

export const squareStats = z.object({
  /** Public strategies (on the exchange filter, when given). */
  total: z.number().int(),
  /** Of those, the ones that traded in the period. */
  active: z.number().int(),
  /** Copiers of all of them. */
  copiers: z.number().int(),
  /** Mean time-weighted return over the period, percent. */
  avg_return: z.number(),
});
export type SquareStats = z.infer<typeof squareStats>;

export const strategyListResponse = z.object({
  results: z.array(strategyCard),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  stats: squareStats,
});
export type StrategyListResponse = z.infer<typeof strategyListResponse>;
