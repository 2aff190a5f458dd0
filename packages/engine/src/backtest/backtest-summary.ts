import type { Candles } from '../candles.js';
import { TIMEFRAME_MS } from '../timeframes.js';
import type {
  BacktestMetrics,
  BacktestOptions,
  BacktestReport,
  BacktestResult,
} from './backtest.types.js';
import { maxDrawdownPercent, periodsPerYear, sharpeRatio, tradeStats } from './backtest-metrics.js';
import type { ResolvedOptions } from './backtest-options.js';
import type { TradeLog } from './trade-log.js';

/** The metrics of a finished run (one pass each over the equity curve and the trade log). */
export function summarise(
  candles: Candles,
  equity: Float64Array,
  log: TradeLog,
  settings: ResolvedOptions,
  options: BacktestOptions,
): Omit<BacktestMetrics, 'funding_paid'> {
  const { initialBalance } = settings;
  const finalBalance = equity.length > 0 ? equity[equity.length - 1]! : initialBalance;
  const candleMs = options.timeframe
    ? TIMEFRAME_MS[options.timeframe]
    : candles.time.length > 1
      ? candles.time[1]! - candles.time[0]!
      : 0;
  const firstClose = candles.close[0];
  const lastClose = candles.close[candles.close.length - 1];
  const stats = tradeStats(log.pnl, log.count);
  return {
    initial_balance: initialBalance,
    final_balance: finalBalance,
    total_return: (finalBalance / initialBalance - 1) * 100,
    max_drawdown: maxDrawdownPercent(equity, initialBalance),
    win_rate: stats.win_rate,
    sharpe_ratio:
      candleMs > 0 ? sharpeRatio(equity, initialBalance, periodsPerYear(candleMs)) : null,
    profit_factor: stats.profit_factor,
    trade_count: log.count,
    buy_and_hold_return:
      firstClose !== undefined && lastClose !== undefined && firstClose > 0
        ? (lastClose / firstClose - 1) * 100
        : 0,
  };
}

/** The equity curve as [{time, equity}] points for the API. */
export function equityCurvePoints(result: Pick<BacktestResult, 'equity' | 'equity_time'>) {
  const points: { time: number; equity: number }[] = new Array(result.equity.length);
  for (let i = 0; i < result.equity.length; i++) {
    points[i] = { time: result.equity_time[i]!, equity: result.equity[i]! };
  }
  return points;
}

/** JSON-ready form of a result (equity curve as points, no typed arrays). */
export function backtestReport(result: BacktestResult): BacktestReport {
  const { equity: _equity, equity_time: _equityTime, trade_log: _tradeLog, ...rest } = result;
  return { ...rest, equity_curve: equityCurvePoints(result) };
}
