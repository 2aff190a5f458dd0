import { describe, expect, it } from 'vitest';
import { type CandleTableRow, candleTable } from '../testing/candle-table.fixture.js';
import { runBacktest } from './backtest.js';
import type { BacktestOptions, BacktestTrade } from './backtest.types.js';

type ExpectedTrade = Pick<
  BacktestTrade,
  'side' | 'entry_index' | 'exit_index' | 'entry_price' | 'exit_price' | 'reason'
>;

interface Scenario {
  readonly name: string;
  readonly rows: readonly CandleTableRow[];
  readonly options?: BacktestOptions;
  readonly trades: readonly ExpectedTrade[];
}

const NO_FEES: BacktestOptions = { feeRate: 0 };

// Exit-only signals (rule sets) and the trailing stop, in the candle-table style.
const SCENARIOS: readonly Scenario[] = [
  {
    name: 'an exit_long closes a long at the next open and opens nothing',
    rows: [
      [100, 101, 99, 100, 'buy'],
      [101, 103, 100, 102, 'exit_long'],
      [104, 105, 103, 104],
      [105, 106, 104, 105],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 101,
        exit_price: 104,
        reason: 'signal',
      },
    ],
  },
  {
    name: 'an exit_short does nothing to a long',
    rows: [
      [100, 101, 99, 100, 'buy'],
      [101, 103, 100, 102, 'exit_short'],
      [104, 105, 103, 104],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 101,
        exit_price: 104,
        reason: 'end_of_data',
      },
    ],
  },
  {
    name: 'an exit_short closes a short; a later sell opens a new one',
    rows: [
      [100, 101, 99, 100, 'sell'],
      [100, 100, 97, 98, 'exit_short'],
      [97, 98, 96, 97, 'sell'],
      [96, 97, 95, 96],
      [95, 96, 94, 95],
    ],
    trades: [
      {
        side: 'short',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 97,
        reason: 'signal',
      },
      {
        side: 'short',
        entry_index: 3,
        exit_index: 4,
        entry_price: 96,
        exit_price: 95,
        reason: 'end_of_data',
      },
    ],
  },
  {
    name: 'a trailing stop follows the highs of earlier candles and exits as a stop-loss',
    // Entry 100 at candle 1; highs 110 (candle 1), 120 (candle 2) → level 108 from candle 3 on.
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 110, 99, 109],
      [109, 120, 109, 118],
      [118, 119, 107, 110],
      [110, 111, 109, 110],
    ],
    options: { ...NO_FEES, trailingStopPercent: 10 },
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 3,
        entry_price: 100,
        exit_price: 108,
        reason: 'stop_loss',
      },
    ],
  },
  {
    name: "a trailing stop does not use the candle's own high (the order inside it is unknown)",
    // Candle 1 reaches 120 and falls to 95: its level is still 90 (from the entry at 100). The
    // next candle's level is 108, and it opens below it: the exit is at that open.
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 120, 95, 106],
      [106, 107, 100, 101],
    ],
    options: { ...NO_FEES, trailingStopPercent: 10 },
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 106,
        reason: 'stop_loss',
      },
    ],
  },
  {
    name: 'a short trails the lows; the fixed stop wins while it is tighter',
    rows: [
      [100, 100, 100, 100, 'sell'],
      [100, 101, 80, 81],
      [81, 89, 80, 85],
    ],
    options: { ...NO_FEES, trailingStopPercent: 10, stopLossPercent: 5 },
    trades: [
      {
        side: 'short',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 88,
        reason: 'stop_loss',
      },
    ],
  },
];

describe('exit signals and trailing stops (candle tables)', () => {
  it.each(SCENARIOS)('$name', ({ rows, options, trades }) => {
    const { candles, signals } = candleTable(rows);
    const result = runBacktest(candles, signals, options ?? NO_FEES);
    expect(
      result.trades.map(({ side, entry_index, exit_index, entry_price, exit_price, reason }) => ({
        side,
        entry_index,
        exit_index,
        entry_price,
        exit_price: Number(exit_price.toFixed(8)),
        reason,
      })),
    ).toEqual(trades);
  });

  it('lists the trailing stop among the assumptions', () => {
    const { candles, signals } = candleTable([[100, 101, 99, 100, 'buy']]);
    expect(runBacktest(candles, signals, { trailingStopPercent: 3 }).assumptions).toMatchObject({
      trailing_stop_percent: 3,
    });
  });
});
