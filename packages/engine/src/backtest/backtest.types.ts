import type { Timeframe } from '@quantsquare/contracts';
import type { TradeLog } from './trade-log.js';

export type TradeDirection = 'long_short' | 'long_only' | 'short_only';
export type PositionSide = 'long' | 'short';
export type ExitReason = 'signal' | 'stop_loss' | 'take_profit' | 'end_of_data';

/** Ascending candle indexes; a signal at i acts at candle i+1's open (StrategySignals fits). */
export interface BacktestSignals {
  readonly buy_signals: readonly number[];
  readonly sell_signals: readonly number[];
  /** Close a long (a short) at the next open without opening the other side; default none. */
  readonly exit_long_signals?: readonly number[];
  readonly exit_short_signals?: readonly number[];
}

export interface BacktestOptions {
  /** Fee per side as a share of notional; default PLATFORM_FEE_RATE (0.0005 = 0.05%). */
  readonly feeRate?: number;
  /** Market fills move against us by this many basis points; default 0. */
  readonly slippageBps?: number;
  /** Stop-loss distance from the entry price in percent (2 = 2%); null/0 = none. */
  readonly stopLossPercent?: number | null;
  /**
   * Trailing stop in percent below the best price since entry (above it for a short); null/0 =
   * none. Each candle checks the level set by the candles before it (the order of a candle's
   * high and low is unknown), and a hit exits as a stop-loss.
   */
  readonly trailingStopPercent?: number | null;
  /** Take-profit distance from the entry price in percent; null/0 = none. */
  readonly takeProfitPercent?: number | null;
  /** Default long_short. */
  readonly direction?: TradeDirection;
  /** Notional = margin × leverage; default 1. */
  readonly leverage?: number;
  /** Margin of each position as a share of equity at entry; default 1 (all of it). */
  readonly positionSizeFraction?: number;
  /** Default 10,000 (USDT). */
  readonly initialBalance?: number;
  /** Annualises the Sharpe ratio; without it the spacing of the first two candles is used. */
  readonly timeframe?: Timeframe;
  /**
   * Perpetual funding: ascending mark times (ms) and their rates (0.0001 = 0.01%). At each mark
   * the position held then pays notional × rate (a long pays a positive rate, a short receives
   * it); none = no funding.
   */
  readonly funding?: FundingSeries;
  /** Preallocated buffer (length ≥ candle count) for the equity curve; reused, not copied. */
  readonly equityOut?: Float64Array;
}

export interface FundingSeries {
  readonly time: Float64Array;
  readonly rate: Float64Array;
  /** Where the rates come from (`simulated` or `live`), for the assumptions. */
  readonly source: string;
  /** Said after the funding rule, e.g. that the venue could not be read and marks may be missing. */
  readonly note?: string;
}

export interface BacktestTrade {
  readonly side: PositionSide;
  readonly entry_index: number;
  readonly exit_index: number;
  /** Open time (ms) of the candle whose open filled the entry. */
  readonly entry_time: number;
  /** Open time (ms) of the candle in which the exit happened. */
  readonly exit_time: number;
  /** Fill prices, slippage included. */
  readonly entry_price: number;
  readonly exit_price: number;
  /** Position size in base currency. */
  readonly amount: number;
  /** Net of both fees, in quote currency. */
  readonly pnl: number;
  /** pnl as a percentage of the margin put up. */
  readonly pnl_percent: number;
  /** Entry plus exit fee. */
  readonly fee: number;
  readonly reason: ExitReason;
}

export interface BacktestAssumptions {
  readonly initial_balance: number;
  readonly fee_rate: number;
  readonly slippage_bps: number;
  readonly leverage: number;
  readonly position_size_fraction: number;
  readonly direction: TradeDirection;
  readonly stop_loss_percent: number | null;
  readonly take_profit_percent: number | null;
  readonly trailing_stop_percent: number | null;
  readonly fill_rule: string;
  readonly sizing_rule: string;
  readonly stop_rule: string;
  readonly end_of_data_rule: string;
  readonly sharpe_rule: string;
  /** How funding was charged, or that none was. */
  readonly funding_rule: string;
  /** Where the funding rates came from (`simulated`, `live`); null when none was charged. */
  readonly funding_source: string | null;
  /**
   * True when the venue's funding history could not be read and only the stored rates were
   * charged: settlements may be missing (the funding rule says so in words).
   */
  readonly funding_incomplete: boolean;
}

export interface BacktestMetrics {
  readonly initial_balance: number;
  readonly final_balance: number;
  /** Percent. */
  readonly total_return: number;
  /** Percent, positive, over the equity curve marked to each close. */
  readonly max_drawdown: number;
  /** Percent of trades with pnl > 0. */
  readonly win_rate: number;
  /** Annualised, per-candle returns; null when it cannot be computed. */
  readonly sharpe_ratio: number | null;
  /** Gross profit / gross loss; null when there is no losing trade. */
  readonly profit_factor: number | null;
  readonly trade_count: number;
  /** Percent, first close to last close, no fees. */
  readonly buy_and_hold_return: number;
  /** Funding paid by the positions (negative: received), already in the equity and balance. */
  readonly funding_paid: number;
}

export interface BacktestResult extends BacktestMetrics {
  /** Closed trades as objects (built on first read from `trade_log`). */
  readonly trades: BacktestTrade[];
  /** Closed trades in columnar form, as the loop wrote them. */
  readonly trade_log: TradeLog;
  /** Equity marked to each candle's close, one value per candle. */
  readonly equity: Float64Array;
  /** The candles' times, aligned with `equity`. */
  readonly equity_time: Float64Array;
  readonly assumptions: BacktestAssumptions;
}

export interface EquityPoint {
  readonly time: number;
  readonly equity: number;
}

/**
 * JSON-ready form of a result: the equity curve as points. The server writes its money, prices
 * and sizes as decimal strings when it answers.
 */
export interface BacktestReport extends BacktestMetrics {
  readonly trades: BacktestTrade[];
  readonly equity_curve: EquityPoint[];
  readonly assumptions: BacktestAssumptions;
}
