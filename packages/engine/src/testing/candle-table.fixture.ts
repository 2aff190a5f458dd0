// Candle tables for scenario tests (freqtrade's test_backtest_detail.py style): each row is one
// candle — open, high, low, close — and optionally the signal decided on its close.
import type { BacktestSignals } from '../backtest/backtest.types.js';
import type { Candles } from '../candles.js';

export type CandleTableRow = readonly [
  open: number,
  high: number,
  low: number,
  close: number,
  signal?: 'buy' | 'sell' | 'exit_long' | 'exit_short',
];

export const TABLE_START_MS = Date.UTC(2026, 0, 1);
export const TABLE_STEP_MS = 3_600_000;

export function candleTable(rows: readonly CandleTableRow[]): {
  candles: Candles;
  signals: BacktestSignals;
} {
  const count = rows.length;
  const candles = {
    time: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count).fill(1),
  };
  const buySignals: number[] = [];
  const sellSignals: number[] = [];
  const exitLongSignals: number[] = [];
  const exitShortSignals: number[] = [];
  rows.forEach(([open, high, low, close, signal], i) => {
    if (high < Math.max(open, close) || low > Math.min(open, close)) {
      throw new RangeError(`row ${i} is not a valid candle`);
    }
    candles.time[i] = TABLE_START_MS + i * TABLE_STEP_MS;
    candles.open[i] = open;
    candles.high[i] = high;
    candles.low[i] = low;
    candles.close[i] = close;
    if (signal === 'buy') buySignals.push(i);
    if (signal === 'sell') sellSignals.push(i);
    if (signal === 'exit_long') exitLongSignals.push(i);
    if (signal === 'exit_short') exitShortSignals.push(i);
  });
  const exits = {
    ...(exitLongSignals.length > 0 ? { exit_long_signals: exitLongSignals } : {}),
    ...(exitShortSignals.length > 0 ? { exit_short_signals: exitShortSignals } : {}),
  };
  return { candles, signals: { buy_signals: buySignals, sell_signals: sellSignals, ...exits } };
}
