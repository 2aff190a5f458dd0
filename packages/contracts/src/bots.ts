import { z } from 'zod';
import { ACCOUNT_TYPES, POSITION_MODES } from './accounts.js';
import { decimal, ID_MAX, idSchema } from './common.js';
import { EXCHANGES, TIMEFRAMES } from './limits.js';

// Trading bots and the operation log (document 1 §2 bot list and dialog, §3 Bot, Bot position,
// Operation log entry, §4 bot status, §5 bot form, §7, §8, §9).
// Money and prices in answers are decimal strings; percentages, ratios, chart series are numbers.

export const BOT_STATUSES = ['created', 'stopped', 'running', 'error'] as const;
export type BotStatus = (typeof BOT_STATUSES)[number];
/** The generic action route's actions; restart is stop, then start. */
export const BOT_ACTIONS = ['start', 'stop', 'restart'] as const;
export type BotAction = (typeof BOT_ACTIONS)[number];

export const TRADE_AMOUNT_MIN = 10;
export const TRADE_AMOUNT_DEFAULT = 100;
export const TRADE_AMOUNT_STEP = 0.01;
export const TRADE_AMOUNT_MAX = 10_000_000;
export const STOP_LOSS_MIN = 0.1;
export const STOP_LOSS_MAX = 50;
export const TAKE_PROFIT_MIN = 0.1;
export const TAKE_PROFIT_MAX = 100;
export const BOT_LIST_REFRESH_MS = 30_000;
export const OPERATION_LOG_REFRESH_MS = 5_000;

/** What a create error contains when the bot already exists (document 1 §7). */
export const BOT_EXISTS_MARKER = '已存在';

/** Codes of the bots API's refusals (beside ERROR_CODES.vipRequired); the web words them. */
export const BOT_ERROR_CODES = {
  startFailed: 'bot_start_failed',
  stopFailed: 'bot_stop_failed',
  stopBeforeDelete: 'bot_running',
  /** live-vs-backtest: the bot's strategy can no longer be compiled (e.g. its rule set is gone). */
  strategyUnavailable: 'bot_strategy_unavailable',
} as const;

export const BOT_MESSAGES = {
  alreadyExists: '该交易所账户上已存在此交易对的机器人',
  alreadyExistsDetails: 'One bot per exchange account and symbol.',
  alreadyExistsSuggestion: 'Stop or delete the existing bot, or choose another symbol or account.',
  vipRequired: 'VIP membership is required to start a bot',
  strategyUnavailable: 'The bot’s strategy is not available for a backtest',
  stopBeforeDelete: 'Please stop the bot before deleting',
  unknownAccount: 'Exchange account not found',
  unknownStrategy: 'Unknown strategy',
  customStrategyVipRequired: 'VIP membership is required to run your own strategies in bots',
  ruleSetParameters: 'A rule-set strategy takes no parameters',
} as const;

/** A number with at most two decimals (the form's step 0.01). */
const cents = z.number().refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, {
  message: 'At most two decimals',
  params: { code: 'invalid_step' },
});

export const botCreateRequest = z.strictObject({
  exchange_api: z.number().int().positive().max(ID_MAX),
  /** The strategy's id from GET /trading/strategies/. */
  strategy: z.number().int().positive().max(ID_MAX),
  symbol: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Z0-9]+\/[A-Z0-9]+(:[A-Z0-9]+)?$/, { message: 'Unknown symbol format' }),
  timeframe: z.enum(TIMEFRAMES),
  trade_amount: cents.pipe(
    z
      .number()
      .min(TRADE_AMOUNT_MIN, { message: `Trade amount must be at least ${TRADE_AMOUNT_MIN} USDT` })
      .max(TRADE_AMOUNT_MAX),
  ),
  stop_loss_percentage: z.number().min(STOP_LOSS_MIN).max(STOP_LOSS_MAX).nullable().optional(),
  take_profit_percentage: z
    .number()
    .min(TAKE_PROFIT_MIN)
    .max(TAKE_PROFIT_MAX)
    .nullable()
    .optional(),
  /**
   * A built-in strategy's parameters (missing ones take the defaults), e.g. those an
   * optimisation found; checked against the strategy's specs. A rule set takes none.
   */
  parameters: z.record(z.string().max(40), z.number()).optional(),
});
export type BotCreateRequest = z.infer<typeof botCreateRequest>;

export const botPosition = z.object({
  id: z.number().int(),
  side: z.enum(['long', 'short']),
  /** Base-asset quantity (decimal string, as every figure of the position but the percentage). */
  amount: decimal,
  entry_price: decimal,
  stop_loss: decimal.nullable(),
  take_profit: decimal.nullable(),
  unrealized_pnl: decimal,
  unrealized_pnl_percentage: z.number(),
});
export type BotPosition = z.infer<typeof botPosition>;

export const bot = z.object({
  id: z.number().int(),
  symbol: z.string(),
  exchange: z.enum(EXCHANGES),
  exchange_api: z.number().int(),
  exchange_api_name: z.string(),
  account_type: z.enum(ACCOUNT_TYPES),
  position_mode: z.enum(POSITION_MODES),
  is_paper: z.boolean(),
  strategy: z.number().int(),
  strategy_type: z.string(),
  strategy_name: z.string(),
  /** The parameters the bot's strategy runs with. */
  strategy_parameters: z.record(z.string(), z.number()),
  timeframe: z.enum(TIMEFRAMES),
  /** USDT (decimal string). */
  trade_amount: decimal,
  stop_loss_percentage: z.number().nullable(),
  take_profit_percentage: z.number().nullable(),
  status: z.enum(BOT_STATUSES),
  /** VIP active: starting needs it. */
  can_start: z.boolean(),
  data_fresh: z.boolean(),
  total_trades: z.number().int(),
  winning_trades: z.number().int(),
  losing_trades: z.number().int(),
  /** Percent. */
  win_rate: z.number(),
  /** Realised, net of fees, USDT (decimal string). */
  total_profit_loss: decimal,
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  last_trade_at: z.string().nullable(),
  open_positions: z.array(botPosition),
  created_at: z.string(),
});
export type Bot = z.infer<typeof bot>;
export const botList = z.object({ results: z.array(bot), count: z.number().int() });
export type BotList = z.infer<typeof botList>;

/** Answer of create, start and stop: the spec's `success` envelope around the bot. */
export const botActionResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  bot: bot.optional(),
});
export type BotActionResponse = z.infer<typeof botActionResponse>;

/** The '已存在' error of a second bot on the same account and symbol (HTTP 409). */
export const botExistsError = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string(),
  details: z.string(),
  suggestion: z.string(),
  existing_bot: z.object({ id: z.number().int(), status: z.enum(BOT_STATUSES) }),
});

export const OPERATION_LOG_TYPES = [
  'user_action',
  'bot_action',
  'trade',
  'error',
  'system',
] as const;
export type OperationLogType = (typeof OPERATION_LOG_TYPES)[number];

/**
 * What an entry records. `message` says it in English for API clients; the web says it in the
 * reader's language from `event` and the entry's `details` (older entries have no event).
 */
export const OPERATION_LOG_EVENTS = [
  'bot_created',
  'bot_started',
  'bot_stopped',
  'bot_deleted',
  'bot_failed',
  'api_created',
  'api_updated',
  'api_deleted',
  'signal_open',
  'signal_skipped',
  'position_closing',
  'trade_opened',
  'trade_closed',
  'order_never_sent',
  'order_reconciled',
  'position_mismatch',
  'resume_retry',
  /** A trailing stop moved (details: side, from, to, trailing_percent). */
  'stop_moved',
  /** A webhook signal's order failed (details: webhook_config_id, signal_id, error_kind). */
  'webhook_failed',
  /** A copy relation's order failed (details: relation_id, reason — a copy miss reason, error_kind). */
  'copy_failed',
  /**
   * A copy relation stopped (details: relation_id, reason: max_loss | leader_drawdown with
   * `limit` and `copy_mode`; user; leader_gone — the strategy's account was deleted;
   * account_deleted — the follower's own account was deleted).
   */
  'copy_stopped',
  /** The follower started a copy (details: relation_id, copy_amount, copy_mode). */
  'copy_created',
  'copy_paused',
  'copy_resumed',
  /** The follower changed a copy's settings (details: relation_id, copy_amount, max_loss or null). */
  'copy_updated',
  'copy_deleted',
  /** An account's risk settings changed (details: account_id and the limits). */
  'risk_updated',
  /** An account's risk state changed (details: account_id, state, reason, equity where read). */
  'risk_state_changed',
] as const;
export type OperationLogEvent = (typeof OPERATION_LOG_EVENTS)[number];

export const operationLogQuery = z.strictObject({
  type: z.enum(OPERATION_LOG_TYPES).optional(),
  bot: idSchema.optional(),
  /** ISO time: entries at or after it. */
  since: z.iso.datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type OperationLogQuery = z.infer<typeof operationLogQuery>;

export const operationLogEntry = z.object({
  id: z.number().int(),
  type: z.enum(OPERATION_LOG_TYPES),
  bot_id: z.number().int().nullable(),
  bot_symbol: z.string().nullable(),
  event: z.enum(OPERATION_LOG_EVENTS).nullable(),
  message: z.string(),
  /** Structured facts of the entry; `pnl` on closing trades. */
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type OperationLogEntry = z.infer<typeof operationLogEntry>;
export const operationLogList = z.object({
  results: z.array(operationLogEntry),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type OperationLogList = z.infer<typeof operationLogList>;

// Live against backtest (GET /trading/bots/{id}/live-vs-backtest/): the bot's trades over its
// live period against the backtest of the same strategy on the same closed candles.

/** One side of a compared trade; times are the open times (ms) of the bars it filled in. */
export const comparedTrade = z.object({
  side: z.enum(['long', 'short']),
  time: z.number(),
  exit_time: z.number().nullable(),
  entry_price: decimal,
  exit_price: decimal.nullable(),
  /** Net pnl in percent of the margin; null while open. */
  pnl_pct: z.number().nullable(),
  fee_pct: z.number(),
  is_open: z.boolean(),
});
export type ComparedTrade = z.infer<typeof comparedTrade>;

export const comparisonSide = z.object({
  /** Σ of the closed trades' pnl % of their margin (not compounded). */
  return_pct: z.number(),
  trades: z.array(comparedTrade),
  /** Trade amount plus the closed trades' returns, one point per bar of the period. */
  equity_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
});

export const liveVsBacktest = z.object({
  bot_id: z.number().int(),
  symbol: z.string(),
  timeframe: z.enum(TIMEFRAMES),
  strategy_type: z.string(),
  /** null: the bot has not been live for one closed candle yet (everything else is empty). */
  period: z
    .object({
      /** Open time (ms) of the first and of the last closed bar compared. */
      start: z.number(),
      end: z.number(),
      /** When the bot was first started. */
      live_since: z.string(),
      candles: z.number().int(),
      days: z.number(),
      /** The live period is longer than the candles the feed serves: only its end is compared. */
      is_truncated: z.boolean(),
    })
    .nullable(),
  live: comparisonSide,
  backtest: comparisonSide,
  /** live.return_pct − backtest.return_pct, percentage points. */
  delta_pct: z.number(),
  matched_trades: z.array(
    z.object({
      time: z.number(),
      side: z.enum(['long', 'short']),
      live: comparedTrade,
      backtest: comparedTrade,
    }),
  ),
  missed_signals: z.array(comparedTrade),
  extra_trades: z.array(comparedTrade),
  /** Part of the delta from fees of matched trades (negative: live paid more). */
  fee_diff: z.number(),
  /** Part of the delta from fill prices of matched trades (negative: live filled worse). */
  slippage_diff: z.number(),
  /** Each reason's part of delta_pct; they add up to it. */
  reasons: z.object({
    missed_pct: z.number(),
    extra_pct: z.number(),
    fee_pct: z.number(),
    slippage_pct: z.number(),
    open_pct: z.number(),
  }),
  assumptions: z.object({
    fee_rate: z.number(),
    slippage_bps: z.number(),
    leverage: z.number(),
    stop_loss_percent: z.number().nullable(),
    take_profit_percent: z.number().nullable(),
    /** A trailing stop from the bot's rule set (live bots move their stop as the backtest does). */
    trailing_stop_percent: z.number().nullable(),
    return_rule: z.string(),
  }),
});
export type LiveVsBacktest = z.infer<typeof liveVsBacktest>;
