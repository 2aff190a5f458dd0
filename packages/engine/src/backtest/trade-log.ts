// Closed trades in columnar form, written by the backtest loop without allocating an object per
// trade; `tradesFromLog` turns them into BacktestTrade objects at the API boundary.
import type { BacktestTrade, ExitReason } from './backtest.types.js';

export const EXIT_REASONS: readonly ExitReason[] = [
  'signal',
  'stop_loss',
  'take_profit',
  'end_of_data',
];
export const EXIT_SIGNAL = 0;
export const EXIT_STOP_LOSS = 1;
export const EXIT_TAKE_PROFIT = 2;
export const EXIT_END_OF_DATA = 3;

export interface TradeLog {
  /** Number of trades written; the arrays may be longer. */
  count: number;
  /** 1 long, -1 short. */
  readonly side: Int8Array;
  readonly entryIndex: Int32Array;
  readonly exitIndex: Int32Array;
  readonly entryPrice: Float64Array;
  readonly exitPrice: Float64Array;
  readonly amount: Float64Array;
  /** Net of both fees. */
  readonly pnl: Float64Array;
  /** Entry plus exit fee. */
  readonly fee: Float64Array;
  readonly margin: Float64Array;
  /** Index into EXIT_REASONS. */
  readonly reason: Uint8Array;
}

export function createTradeLog(capacity: number): TradeLog {
  return {
    count: 0,
    side: new Int8Array(capacity),
    entryIndex: new Int32Array(capacity),
    exitIndex: new Int32Array(capacity),
    entryPrice: new Float64Array(capacity),
    exitPrice: new Float64Array(capacity),
    amount: new Float64Array(capacity),
    pnl: new Float64Array(capacity),
    fee: new Float64Array(capacity),
    margin: new Float64Array(capacity),
    reason: new Uint8Array(capacity),
  };
}

export function tradesFromLog(log: TradeLog, time: Float64Array): BacktestTrade[] {
  const trades: BacktestTrade[] = new Array(log.count);
  for (let k = 0; k < log.count; k++) {
    const pnl = log.pnl[k]!;
    trades[k] = {
      side: log.side[k] === 1 ? 'long' : 'short',
      entry_index: log.entryIndex[k]!,
      exit_index: log.exitIndex[k]!,
      entry_time: time[log.entryIndex[k]!]!,
      exit_time: time[log.exitIndex[k]!]!,
      entry_price: log.entryPrice[k]!,
      exit_price: log.exitPrice[k]!,
      amount: log.amount[k]!,
      pnl,
      pnl_percent: (pnl / log.margin[k]!) * 100,
      fee: log.fee[k]!,
      reason: EXIT_REASONS[log.reason[k]!] ?? 'signal',
    };
  }
  return trades;
}
