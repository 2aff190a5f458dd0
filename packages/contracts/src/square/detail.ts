import { z } from 'zod';
import { ACCOUNT_TYPES } from '../accounts.js';
import { decimal } from '../common.js';
import { EXCHANGES } from '../limits.js';
import type { RuleSet } from '../user-strategies.js';
import {
  LIVE_TRADES_KEPT,
  SQUARE_DEFAULT_PERIOD,
  SQUARE_PERIODS,
  STRATEGY_TRADES_LIMIT_MAX,
} from './constants.js';
import { periodMetrics, strategyOwner } from './listing.js';

// A strategy's detail page and its live updates (document 2 §2 detail).

// ---- strategy detail --------------------------------------------------------------------------

/** GET /strategy-square/strategies/{id}/ query: the equity curve's range (default monthly). */
export const strategyDetailQuery = z.strictObject({
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
});

/** Equity point: `time` in seconds (UTC). */
export const equityPoint = z.object({ time: z.number().int(), value: z.number() });
export type EquityPoint = z.infer<typeof equityPoint>;

export const TRADE_SIDES = ['buy', 'sell'] as const;
/**
 * What a fill did to its owner's position: `open` (opened or added) or `close` (reduced or
 * closed). A reversal is two fills of one side, a close and an open.
 */
export const TRADE_EFFECTS = ['open', 'close'] as const;
export type TradeEffect = (typeof TRADE_EFFECTS)[number];
export const tradeMarker = z.object({
  timestamp: z.string(),
  type: z.enum(TRADE_SIDES),
  effect: z.enum(TRADE_EFFECTS),
});
export type TradeMarker = z.infer<typeof tradeMarker>;

/** A published account's bots, live against their backtests (the bots' hourly comparisons). */
export const strategyLiveCheck = z.object({
  live_days: z.number(),
  /** Weighted by the bots' trade amounts. */
  delta_pct: z.number(),
  live_return_pct: z.number(),
  backtest_return_pct: z.number(),
  computed_at: z.string(),
  bots: z.array(
    z.object({
      symbol: z.string(),
      timeframe: z.string(),
      strategy_type: z.string(),
      live_days: z.number(),
      delta_pct: z.number(),
      live_return_pct: z.number(),
      backtest_return_pct: z.number(),
      matched: z.number().int(),
      missed: z.number().int(),
      extra: z.number().int(),
      fee_diff: z.number(),
      slippage_diff: z.number(),
      /** Times in ms; equity on the bot's trade amount. */
      live_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
      backtest_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
    }),
  ),
});
export type StrategyLiveCheck = z.infer<typeof strategyLiveCheck>;

/** At most this many of an account's strategies are listed on its page (newest bots first). */
export const PUBLISHED_STRATEGIES_MAX = 20;

/**
 * A strategy the published account trades with (one per distinct bot set-up, newest first). The
 * name is always shown; the set-up only when the owner shows the rules (`show_rules`).
 */
export const publishedStrategy = z.object({
  /** A built-in type (`ma_cross`…) or `custom` for the owner's own rule set. */
  type: z.string(),
  /** The rule set's name; for a built-in, the catalogue's (the page shows its translation). */
  name: z.string(),
  symbol: z.string(),
  timeframe: z.string(),
  is_running: z.boolean(),
  /** Whether `parameters`, `rules` and the protections below are shown. */
  rules_shown: z.boolean(),
  /** A built-in's parameters (null for a rule set, or when hidden). */
  parameters: z.record(z.string(), z.number()).nullable(),
  /** A rule set's conditions in normal form (null for a built-in, or when hidden). */
  rules: z.record(z.string(), z.unknown()).nullable(),
  stop_loss_pct: z.number().nullable(),
  take_profit_pct: z.number().nullable(),
  trailing_stop_pct: z.number().nullable(),
});
export type PublishedStrategy = Omit<z.infer<typeof publishedStrategy>, 'rules'> & {
  readonly rules: RuleSet | null;
};

export const strategyDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  /** The exchange account's id (the same as `id`). */
  account: z.number().int(),
  account_type: z.enum(ACCOUNT_TYPES),
  is_paper: z.boolean(),
  user_id: z.number().int(),
  user_profile: strategyOwner.extend({ is_following: z.boolean() }),
  share_settings: z.object({
    is_public: z.boolean(),
    accept_copy: z.boolean(),
    show_trades: z.boolean(),
    show_positions: z.boolean(),
    allow_comments: z.boolean(),
    show_rules: z.boolean(),
    copiers_count: z.number().int(),
    description: z.string(),
  }),
  total_pnl_percent: z.number(),
  daily_pnl_percent: z.number(),
  /** Over all history, positive percent (the page shows it negative). */
  max_drawdown: z.number(),
  /** USDT equity (decimal string). */
  balance: decimal,
  metrics: z.object({
    daily: periodMetrics,
    weekly: periodMetrics,
    monthly: periodMetrics,
    total: periodMetrics,
  }),
  days_of_history: z.number(),
  is_new: z.boolean(),
  /** Over the requested period, oldest first (hourly; daily points for total). */
  equity_curve: z.array(equityPoint),
  /** B/S markers of the fills in the curve's range; [] when the strategy hides its trades. */
  trades: z.array(tradeMarker),
  /** Whether the viewer has a copy relation on it that is not deleted (a stopped one counts). */
  is_copying: z.boolean(),
  is_owner: z.boolean(),
  published_at: z.string().nullable(),
  /** When the metrics were last computed; null before the first computation. */
  metrics_updated_at: z.string().nullable(),
  /** Its bots live against their backtests; null when no bot of the account has been live. */
  live_vs_backtest: strategyLiveCheck.nullable(),
  /** What the account trades with: its bots' strategies, named; their rules if the owner shows them. */
  strategies: z.array(publishedStrategy),
});
export type StrategyDetail = Omit<z.infer<typeof strategyDetail>, 'strategies'> & {
  readonly strategies: PublishedStrategy[];
};

/** A fill of the strategy's account (document 2 §3 Realtime trade). */
export const strategyTrade = z.object({
  /** Unique per fill (partial fills of one order share `order_id`). */
  id: z.string(),
  order_id: z.string(),
  timestamp: z.string(),
  symbol: z.string(),
  side: z.enum(TRADE_SIDES),
  effect: z.enum(TRADE_EFFECTS),
  amount: decimal,
  price: decimal,
  /** amount × price, USDT. */
  value: decimal,
});
export type StrategyTrade = z.infer<typeof strategyTrade>;

export const strategyTradesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(STRATEGY_TRADES_LIMIT_MAX).default(LIVE_TRADES_KEPT),
});
/** Newest first. 403 when the strategy hides its trades. */
export const strategyTradeList = z.object({
  results: z.array(strategyTrade),
  count: z.number().int(),
});
export type StrategyTradeList = z.infer<typeof strategyTradeList>;

/** A current position of the strategy's account (document 2 §3 Realtime position). */
export const strategyPosition = z.object({
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  leverage: z.number(),
  /** Base-asset quantity. */
  contracts: z.number(),
  entry_price: decimal,
  /** Null when no price is known (the page falls back to the entry price). */
  mark_price: decimal.nullable(),
  unrealized_pnl: decimal,
  /** Unrealised P&L against the position's margin, percent. */
  percentage: z.number(),
});
export type StrategyPosition = z.infer<typeof strategyPosition>;
/** 403 when the strategy hides its positions. */
export const strategyPositionList = z.object({
  results: z.array(strategyPosition),
  count: z.number().int(),
});
export type StrategyPositionList = z.infer<typeof strategyPositionList>;

// ---- live updates: /ws/strategies/{id} ----------------------------------------------------------

/** What `statistics_update` carries (merged into the strategy on the page). */
export const strategyStatistics = z.object({
  total_pnl_percent: z.number(),
  daily_pnl_percent: z.number(),
  max_drawdown: z.number(),
  balance: decimal,
  days_of_history: z.number(),
  is_new: z.boolean(),
});
export type StrategyStatistics = z.infer<typeof strategyStatistics>;

/** Server → client frames. trade_update only when show_trades, position_update only when show_positions. */
export type StrategySocketFrame =
  | { type: 'trade_update'; data: StrategyTrade }
  | { type: 'position_update'; data: StrategyPosition[] }
  | { type: 'statistics_update'; data: StrategyStatistics }
  | { type: 'pong'; timestamp: number }
  /**
   * Answers a reconnection with `?after=<last trade id>` whose missed trades can no longer be
   * replayed (older than the event log keeps): reload the trades instead.
   */
  | { type: 'resync' };
/** Client → server: `{type: 'ping', timestamp}` is answered with `{type: 'pong', timestamp}`. */
export const strategySocketPing = z.object({
  type: z.literal('ping'),
  timestamp: z.number().optional(),
});
