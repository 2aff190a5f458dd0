import { z } from 'zod';
import { decimal } from './common.js';
import { EXCHANGES, TIMEFRAMES } from './limits.js';

// Market data, strategies and backtests (document 1, sections 3 and 7). Public calls.
// Money and prices in answers are decimal strings; percentages, ratios and chart series
// (candles, indicator lines, equity curves) are numbers. Requests take numbers.

export const MARKET_DATA_SOURCES = ['live', 'simulated'] as const;
export type MarketDataSource = (typeof MARKET_DATA_SOURCES)[number];

/** Used by the dashboard when the server answers no symbols (document 1 §2). */
export const DEFAULT_SYMBOLS = ['ETH/USDT:USDT', 'BTC/USDT:USDT', 'DOGE/USDT:USDT'] as const;
export const DEFAULT_EXCHANGE = 'binance';
export const DEFAULT_TIMEFRAME = '1h';
export const DEFAULT_STRATEGY_TYPE = 'ma_cross';

export const CANDLE_LIMIT_MAX = 1000;
export const CANDLE_LIMIT_DEFAULT = 1000;
export const CHART_INITIAL_VIEW_CANDLES = 100;
export const CHART_REFRESH_MS = 30_000;
export const FRESHNESS_REFRESH_MS = 5 * 60_000;
/** Auto-refresh of the dashboard by timeframe (document 1 §9). */
export const AUTO_REFRESH_MS: Readonly<Record<(typeof TIMEFRAMES)[number], number>> = {
  '1m': 30_000,
  '5m': 150_000,
  '15m': 450_000,
  '1h': 30 * 60_000,
  '4h': 2 * 60 * 60_000,
  '1d': 12 * 60 * 60_000,
};
export const WELCOME_MODAL_DELAY_MS = 1500;
/** Chart times are shown at UTC+8. */
export const DISPLAY_UTC_OFFSET_HOURS = 8;

export const TRADE_DIRECTIONS = ['long_short', 'long_only', 'short_only'] as const;

const exchange = z.enum(EXCHANGES);
const timeframe = z.enum(TIMEFRAMES);
/** A ccxt unified swap symbol such as BTC/USDT:USDT. */
const symbol = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Z0-9]+\/[A-Z0-9]+(:[A-Z0-9]+)?$/, { message: 'Unknown symbol format' });
/** Query strings are text, so their numbers are coerced; JSON bodies never are. */
const queryLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(CANDLE_LIMIT_MAX)
  .default(CANDLE_LIMIT_DEFAULT);
const bodyLimit = z.number().int().min(1).max(CANDLE_LIMIT_MAX).default(CANDLE_LIMIT_DEFAULT);

export const strategyParameterSpec = z.object({
  name: z.string(),
  display_name: z.string(),
  default: z.number(),
  min: z.number(),
  max: z.number(),
  integer: z.boolean(),
});

export const strategyInfo = z.object({
  id: z.number().int(),
  type: z.string(),
  name: z.string(),
  description: z.string(),
  /** Default values, keyed by parameter name. */
  parameters: z.record(z.string(), z.number()),
  parameter_specs: z.array(strategyParameterSpec),
});
export type StrategyInfo = z.infer<typeof strategyInfo>;
export const strategyList = z.object({ results: z.array(strategyInfo), count: z.number().int() });
export type StrategyList = z.infer<typeof strategyList>;

export const symbolsQuery = z.strictObject({ exchange: exchange.default(DEFAULT_EXCHANGE) });
export const symbolsResponse = z.object({
  exchange,
  source: z.enum(MARKET_DATA_SOURCES),
  symbols: z.array(z.string()),
});
export type SymbolsResponse = z.infer<typeof symbolsResponse>;

export const marketDataQuery = z.strictObject({
  symbol,
  timeframe: timeframe.default(DEFAULT_TIMEFRAME),
  limit: queryLimit,
  exchange: exchange.default(DEFAULT_EXCHANGE),
  /** Whose signals and lines the indicators carry; ma_cross by default. */
  strategy_type: z.string().trim().max(40).default(DEFAULT_STRATEGY_TYPE),
});
export type MarketDataQuery = z.infer<typeof marketDataQuery>;

/** `timestamp` is the candle's open time in milliseconds (UTC). */
export const candle = z.object({
  timestamp: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
});
export type Candle = z.infer<typeof candle>;

const indicatorLine = z.array(z.number().nullable());

/**
 * One entry per candle (null until defined); signals are candle indexes. Each strategy carries
 * its own lines: moving averages (ma_fast/ma_slow, empty when the strategy has none), Bollinger
 * bands, the RSI or the MACD with its signal line and histogram.
 */
export const chartIndicators = z.object({
  ma_fast: indicatorLine,
  ma_slow: indicatorLine,
  bb_upper: indicatorLine.optional(),
  bb_middle: indicatorLine.optional(),
  bb_lower: indicatorLine.optional(),
  rsi: indicatorLine.optional(),
  macd: indicatorLine.optional(),
  macd_signal: indicatorLine.optional(),
  macd_histogram: indicatorLine.optional(),
  buy_signals: z.array(z.number().int()),
  sell_signals: z.array(z.number().int()),
});
export type ChartIndicators = z.infer<typeof chartIndicators>;

export const dataFreshness = z.object({
  is_fresh: z.boolean(),
  delay_seconds: z.number(),
  max_allowed_delay: z.number(),
  source: z.enum(MARKET_DATA_SOURCES),
  /** Open time (ms) of the newest candle, null when there is none. */
  last_candle_time: z.number().nullable(),
});
export type DataFreshness = z.infer<typeof dataFreshness>;

export const marketDataResponse = z.object({
  exchange,
  symbol: z.string(),
  timeframe,
  source: z.enum(MARKET_DATA_SOURCES),
  strategy_type: z.string(),
  candles: z.array(candle),
  indicators: chartIndicators,
  freshness: dataFreshness,
});
export type MarketDataResponse = z.infer<typeof marketDataResponse>;

export const backtestSettings = z.strictObject({
  initial_balance: z.number().min(10).max(1e9).multipleOf(0.01).optional(),
  fee_rate: z.number().min(0).max(0.01).optional(),
  slippage_bps: z.number().min(0).max(500).optional(),
  stop_loss_percentage: z.number().min(0.1).max(50).optional(),
  take_profit_percentage: z.number().min(0.1).max(100).optional(),
  /** Trailing stop in percent from the best price since entry (the builder's preview). */
  trailing_stop_percentage: z.number().min(0.1).max(50).optional(),
  direction: z.enum(TRADE_DIRECTIONS).optional(),
  leverage: z.number().min(1).max(125).optional(),
  /** Share of equity put up as margin per position, 0–1. */
  position_size: z.number().gt(0).max(1).optional(),
});
export type BacktestSettings = z.infer<typeof backtestSettings>;

export const backtestRequest = z.strictObject({
  symbol,
  timeframe: timeframe.default(DEFAULT_TIMEFRAME),
  strategy_type: z.string().trim().max(40).default(DEFAULT_STRATEGY_TYPE),
  /** Checked against the strategy's own parameter specs (400 with fields on a bad one). */
  parameters: z.record(z.string(), z.unknown()).optional(),
  /**
   * A rule set not saved yet (the strategy builder's live preview): run instead of
   * `strategy_type`, checked as a saved one is (field errors under `rules.`).
   */
  rules: z.record(z.string(), z.unknown()).optional(),
  exchange: exchange.default(DEFAULT_EXCHANGE),
  limit: bodyLimit,
  settings: backtestSettings.optional(),
  /** Charge perpetual funding at the 8-hour marks; default true for perpetual (`:`) symbols. */
  include_funding: z.boolean().optional(),
});
export type BacktestRequest = z.infer<typeof backtestRequest>;

export const backtestTrade = z.object({
  side: z.enum(['long', 'short']),
  entry_index: z.number().int(),
  exit_index: z.number().int(),
  entry_time: z.number(),
  exit_time: z.number(),
  entry_price: decimal,
  exit_price: decimal,
  amount: decimal,
  pnl: decimal,
  pnl_percent: z.number(),
  fee: decimal,
  reason: z.enum(['signal', 'stop_loss', 'take_profit', 'end_of_data']),
});
export type BacktestTradeRow = z.infer<typeof backtestTrade>;

export const backtestAssumptions = z.object({
  initial_balance: decimal,
  fee_rate: z.number(),
  slippage_bps: z.number(),
  leverage: z.number(),
  position_size_fraction: z.number(),
  direction: z.enum(TRADE_DIRECTIONS),
  stop_loss_percent: z.number().nullable(),
  take_profit_percent: z.number().nullable(),
  trailing_stop_percent: z.number().nullable(),
  fill_rule: z.string(),
  sizing_rule: z.string(),
  stop_rule: z.string(),
  end_of_data_rule: z.string(),
  sharpe_rule: z.string(),
  funding_rule: z.string(),
  funding_source: z.string().nullable(),
  /** The venue's funding history could not be read: only stored rates were charged. */
  funding_incomplete: z.boolean(),
});

export const backtestSummary = z.object({
  equity_curve: z.array(z.object({ time: z.number(), equity: z.number() })),
  initial_balance: decimal,
  final_balance: decimal,
  total_return: z.number(),
  max_drawdown: z.number(),
  win_rate: z.number(),
  sharpe_ratio: z.number().nullable(),
  profit_factor: z.number().nullable(),
  trade_count: z.number().int(),
  buy_and_hold_return: z.number(),
  /** Funding paid by the positions in USDT (negative: received); in the equity curve. */
  funding_paid: decimal,
  trades: z.array(backtestTrade),
  assumptions: backtestAssumptions,
});
export type BacktestSummary = z.infer<typeof backtestSummary>;

export const backtestResponse = z.object({
  exchange,
  symbol: z.string(),
  timeframe,
  source: z.enum(MARKET_DATA_SOURCES),
  strategy_type: z.string(),
  parameters: z.record(z.string(), z.number()),
  /** The candles the backtest ran on, so the chart and the result always agree. */
  candles: z.array(candle),
  indicators: chartIndicators,
  backtest: backtestSummary,
  /** Where the funding rates came from; null when no funding was charged. */
  funding_source: z.enum(MARKET_DATA_SOURCES).nullable(),
});
export type BacktestResponse = z.infer<typeof backtestResponse>;

export const dataFreshnessQuery = z.strictObject({
  symbol,
  timeframe: timeframe.default(DEFAULT_TIMEFRAME),
  exchange: exchange.default(DEFAULT_EXCHANGE),
});

export const timeframeStatus = z.object({
  is_fresh: z.boolean(),
  delay_seconds: z.number(),
  last_candle_time: z.number().nullable(),
});
export const marketStatusResponse = z.object({
  exchanges: z.record(
    z.string(),
    z.object({
      source: z.enum(MARKET_DATA_SOURCES),
      symbols: z.record(
        z.string(),
        z.object({ timeframes: z.record(z.string(), timeframeStatus) }),
      ),
    }),
  ),
});
export type MarketStatusResponse = z.infer<typeof marketStatusResponse>;
