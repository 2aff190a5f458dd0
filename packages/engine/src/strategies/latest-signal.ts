import type { BacktestSignals } from '../backtest/backtest.types.js';

export type SignalAction = 'buy' | 'sell';

/**
 * The action decided on the close of candle `index` (null for none, or for a buy and a sell on
 * the same candle, which cancel out as in the backtest). The live bot asks this for the last
 * closed candle and acts at the next open, as the backtest does.
 */
export function signalAt(signals: BacktestSignals, index: number): SignalAction | null {
  const isBuy = signals.buy_signals.includes(index);
  const isSell = signals.sell_signals.includes(index);
  if (isBuy === isSell) return null;
  return isBuy ? 'buy' : 'sell';
}
