import type { BacktestSignals } from '../backtest/backtest.types.js';

/**
 * buy: close a short, open a long; sell: the reverse; exit_long / exit_short: close that side
 * only; exit: close whichever side is held (both exits fired).
 */
export type SignalAction = 'buy' | 'sell' | 'exit_long' | 'exit_short' | 'exit';

/**
 * The action decided on the close of candle `index` (null for none, or for a buy and a sell on
 * the same candle, which cancel out as in the backtest). The live bot asks this for the last
 * closed candle and acts at the next open, as the backtest does.
 */
export function signalAt(signals: BacktestSignals, index: number): SignalAction | null {
  const isBuy = signals.buy_signals.includes(index);
  const isSell = signals.sell_signals.includes(index);
  if (isBuy !== isSell) return isBuy ? 'buy' : 'sell';
  const isExitLong = signals.exit_long_signals?.includes(index) ?? false;
  const isExitShort = signals.exit_short_signals?.includes(index) ?? false;
  if (isExitLong && isExitShort) return 'exit';
  if (isExitLong) return 'exit_long';
  return isExitShort ? 'exit_short' : null;
}
