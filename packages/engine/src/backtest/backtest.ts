// Event-free, single-pass backtest over columnar candles. Per candle i, in this order:
//   1. at the open: act on the signal decided at candle i-1's close (exit and/or entry);
//   2. inside the candle: stop-loss, then take-profit, of the open position (entry candle too);
//   3. at the close: mark equity to the close into a preallocated Float64Array.
// The loop allocates nothing per candle; trades go to a preallocated columnar log and become
// objects only when `trades` is first read. The steps and the run's state: backtest-run.ts.
import type { Candles } from '../candles.js';
import { grossPnl } from '../position/pnl.js';
import type {
  BacktestOptions,
  BacktestResult,
  BacktestSignals,
  BacktestTrade,
} from './backtest.types.js';
import { describeAssumptions, resolveOptions } from './backtest-options.js';
import {
  actOnSignals,
  exitAtEnd,
  exitOnProtective,
  FLAT,
  LONG,
  SHORT,
  startRun,
} from './backtest-run.js';
import { summarise } from './backtest-summary.js';
import { tradesFromLog } from './trade-log.js';

/**
 * Runs `signals` over `candles`. Pure and deterministic. A signal on the last candle is never
 * acted on (there is no next open); a position still open after the last candle is closed at
 * the last close (reason end_of_data, slippage and fee charged, like freqtrade's force exit),
 * so `final_balance` equals the last equity point. Gaps: a candle that opens beyond the stop
 * (or the target) exits at its open. Market fills (signal, stop-loss, end-of-data) pay
 * slippage; take-profit is a resting limit order filled at its price. No liquidation model.
 */
export function runBacktest(
  candles: Candles,
  signals: BacktestSignals,
  options: BacktestOptions = {},
): BacktestResult {
  const settings = resolveOptions(options);
  const { open, high, low, close, time } = candles;
  const candleTotal = close.length;
  const equity =
    options.equityOut && options.equityOut.length >= candleTotal
      ? options.equityOut.subarray(0, candleTotal)
      : new Float64Array(candleTotal);
  // The engine's position rules (src/position/), shared with the live bot and paper exchange.
  const hasProtection =
    settings.stopLossPercent !== null ||
    settings.takeProfitPercent !== null ||
    settings.trailingStopPercent !== null;
  const run = startRun(settings, signals);

  // Funding marks, charged at the first candle open at or after each one, on the position held
  // before that open's fills (for timeframes up to 8 h the marks are candle opens).
  const fundingTimes = options.funding?.time;
  const fundingRates = options.funding?.rate;
  const fundingCount = fundingTimes?.length ?? 0;
  let fundingCursor = 0;
  let fundingPaid = 0;
  const firstTime = candleTotal > 0 ? time[0]! : 0;
  while (fundingCursor < fundingCount && fundingTimes![fundingCursor]! < firstTime) fundingCursor++;

  for (let i = 0; i < candleTotal; i++) {
    const candleOpen = open[i]!;
    while (fundingCursor < fundingCount && fundingTimes![fundingCursor]! <= time[i]!) {
      if (run.side !== FLAT) {
        const payment = run.side * run.amount * candleOpen * fundingRates![fundingCursor]!;
        run.balance -= payment;
        fundingPaid += payment;
      }
      fundingCursor++;
    }
    const signalIndex = i - 1; // the signal decided at the previous close acts at this open
    if (
      signalIndex >= run.nextBuy ||
      signalIndex >= run.nextSell ||
      signalIndex >= run.nextExitLong ||
      signalIndex >= run.nextExitShort
    ) {
      actOnSignals(run, i, signalIndex, candleOpen);
    }
    if (run.side !== FLAT && hasProtection) exitOnProtective(run, i, candleOpen, high[i]!, low[i]!);
    const side = run.side;
    if (side === LONG && high[i]! > run.bestPrice) run.bestPrice = high[i]!;
    else if (side === SHORT && low[i]! < run.bestPrice) run.bestPrice = low[i]!;

    equity[i] =
      side === FLAT
        ? run.balance
        : run.balance + grossPnl(side, run.amount, run.entryPrice, close[i]!);
  }

  if (run.side !== FLAT && candleTotal > 0) {
    const last = candleTotal - 1;
    exitAtEnd(run, last, close[last]!);
    equity[last] = run.balance;
  }

  const log = run.log;
  let trades: BacktestTrade[] | undefined;
  return {
    trade_log: log,
    // Trade objects are built on first read, so a benchmark or an optimiser that only needs
    // the metrics never allocates them.
    get trades() {
      trades ??= tradesFromLog(log, time);
      return trades;
    },
    equity,
    equity_time: time,
    ...summarise(candles, equity, log, settings, options),
    funding_paid: fundingPaid,
    assumptions: describeAssumptions(settings, options.funding?.source, options.funding?.note),
  };
}
