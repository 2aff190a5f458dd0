// The engine's backtest report as the answer carries it: its money, prices and sizes as decimal
// strings (floatDecimal); percentages, ratios and the equity curve stay numbers.
import type { BacktestSummary } from '@quantsquare/contracts';
import type { BacktestReport } from '@quantsquare/engine';
import { floatDecimal } from '../../common/decimal-text.js';

export function backtestSummaryAnswer(report: BacktestReport): BacktestSummary {
  return {
    ...report,
    initial_balance: floatDecimal(report.initial_balance),
    final_balance: floatDecimal(report.final_balance),
    funding_paid: floatDecimal(report.funding_paid),
    trades: report.trades.map((trade) => ({
      ...trade,
      entry_price: floatDecimal(trade.entry_price),
      exit_price: floatDecimal(trade.exit_price),
      amount: floatDecimal(trade.amount),
      pnl: floatDecimal(trade.pnl),
      fee: floatDecimal(trade.fee),
    })),
    assumptions: {
      ...report.assumptions,
      initial_balance: floatDecimal(report.assumptions.initial_balance),
    },
  };
}
