import { describe, expect, it } from 'vitest';
import { candleTable, TABLE_START_MS, TABLE_STEP_MS } from '../testing/candle-table.fixture.js';
import { runBacktest } from './backtest.js';
import type { BacktestTrade } from './backtest.types.js';
import {
  type BarTrade,
  compareLiveToBacktest,
  type LiveTradeInput,
  matchTradesByBar,
} from './live-comparison.js';

const HOUR = TABLE_STEP_MS;
const bar = (k: number) => TABLE_START_MS + k * HOUR;

describe('matchTradesByBar', () => {
  const cases: {
    name: string;
    live: BarTrade[];
    backtest: BarTrade[];
    toleranceBars?: number;
    pairs: [number, number][];
    missed: number[];
    extra: number[];
  }[] = [
    {
      name: 'pairs trades of the same bar and side',
      live: [
        { side: 'long', time: bar(1) },
        { side: 'short', time: bar(4) },
      ],
      backtest: [
        { side: 'long', time: bar(1) },
        { side: 'short', time: bar(4) },
      ],
      pairs: [
        [0, 0],
        [1, 1],
      ],
      missed: [],
      extra: [],
    },
    {
      name: 'a backtest trade without a live one is missed; a live one without a match is extra',
      live: [
        { side: 'long', time: bar(1) },
        { side: 'long', time: bar(7) },
      ],
      backtest: [
        { side: 'long', time: bar(1) },
        { side: 'short', time: bar(4) },
      ],
      pairs: [[0, 0]],
      missed: [1],
      extra: [1],
    },
    {
      name: 'the same bar with the other side does not match',
      live: [{ side: 'short', time: bar(2) }],
      backtest: [{ side: 'long', time: bar(2) }],
      pairs: [],
      missed: [0],
      extra: [0],
    },
    {
      name: 'a bar late matches only within the tolerance',
      live: [{ side: 'long', time: bar(3) }],
      backtest: [{ side: 'long', time: bar(2) }],
      toleranceBars: 1,
      pairs: [[0, 0]],
      missed: [],
      extra: [],
    },
    {
      name: 'each live trade pairs once, the earliest first',
      live: [
        { side: 'long', time: bar(5) },
        { side: 'long', time: bar(3) },
      ],
      backtest: [
        { side: 'long', time: bar(4) },
        { side: 'long', time: bar(4) },
      ],
      toleranceBars: 1,
      pairs: [
        [1, 0],
        [0, 1],
      ],
      missed: [],
      extra: [],
    },
  ];
  it.each(cases)('$name', ({ live, backtest, toleranceBars, pairs, missed, extra }) => {
    expect(matchTradesByBar(live, backtest, HOUR, toleranceBars)).toEqual({
      pairs,
      missed,
      extra,
    });
  });
});

/** A live trade that filled exactly as the backtest's did, `secondsLate` into the bar. */
function liveCopy(trade: BacktestTrade, secondsLate = 5): LiveTradeInput {
  return {
    side: trade.side,
    entry_time: trade.entry_time + secondsLate * 1000,
    exit_time: trade.reason === 'end_of_data' ? null : trade.exit_time + secondsLate * 1000,
    entry_price: trade.entry_price,
    exit_price: trade.reason === 'end_of_data' ? null : trade.exit_price,
    amount: trade.amount,
    pnl: trade.reason === 'end_of_data' ? null : trade.pnl,
    fee: trade.fee,
  };
}

describe('compareLiveToBacktest', () => {
  // Long at bar 1 (100 → 110 at bar 3), short at bar 3 (110 → 100 at bar 5), long from bar 5 on.
  const table = candleTable([
    [100, 100, 100, 100, 'buy'],
    [100, 100, 100, 100],
    [105, 110, 105, 110, 'sell'],
    [110, 110, 110, 110],
    [100, 100, 100, 100, 'buy'],
    [100, 100, 100, 100],
    [100, 100, 100, 100],
  ]);
  const result = runBacktest(table.candles, table.signals, { feeRate: 0.001 });
  const trades = result.trades;
  const base = {
    timeframeMs: HOUR,
    periodStart: bar(0),
    periodEnd: bar(6),
    leverage: 1,
    baseEquity: 1000,
  };

  it('finds no delta when the bot made the backtest trades', () => {
    const comparison = compareLiveToBacktest({
      ...base,
      live: trades.map((t) => liveCopy(t)),
      backtest: trades,
    });
    expect(comparison.matched_trades.map((m) => [m.side, m.time])).toEqual([
      ['long', bar(1)],
      ['short', bar(3)],
      ['long', bar(5)],
    ]);
    expect(comparison.missed_signals).toEqual([]);
    expect(comparison.extra_trades).toEqual([]);
    expect(comparison.delta_pct).toBeCloseTo(0, 10);
    expect(comparison.fee_diff).toBeCloseTo(0, 10);
    expect(comparison.slippage_diff).toBeCloseTo(0, 10);
    // The open long counts in no return: +9.79 % and +8.8 % (10 %, 9.09 % less fees).
    expect(comparison.backtest.return_pct).toBeCloseTo(
      trades[0]!.pnl_percent + trades[1]!.pnl_percent,
      10,
    );
    expect(comparison.live.equity_curve).toEqual(comparison.backtest.equity_curve);
    expect(comparison.live.equity_curve.map((p) => p.time)).toEqual([0, 1, 2, 3, 4, 5, 6].map(bar));
    expect(comparison.live.equity_curve[2]!.equity).toBe(1000);
    expect(comparison.live.equity_curve[3]!.equity).toBeCloseTo(
      1000 * (1 + trades[0]!.pnl_percent / 100),
      8,
    );
  });

  it('splits the delta into a missed signal, an extra trade, fees and slippage', () => {
    const [first, second] = trades;
    const worse: LiveTradeInput = {
      ...liveCopy(first!),
      exit_price: first!.exit_price - 1, // 1 % of the margin lost to a worse fill
      fee: first!.fee + 1, // 0.1 % more fees
      pnl: first!.pnl - first!.amount * 1 - 1,
    };
    const extra: LiveTradeInput = {
      side: 'short',
      entry_time: bar(6) + 1000,
      exit_time: bar(6) + 2000,
      entry_price: 100,
      exit_price: 98,
      amount: 10,
      pnl: 20,
      fee: 0,
    };
    const comparison = compareLiveToBacktest({
      ...base,
      live: [worse, extra],
      backtest: trades,
    });
    expect(comparison.matched_trades.map((m) => m.time)).toEqual([bar(1)]);
    expect(comparison.missed_signals.map((t) => [t.side, t.time, t.is_open])).toEqual([
      ['short', bar(3), false],
      ['long', bar(5), true],
    ]);
    expect(comparison.extra_trades.map((t) => [t.side, t.time])).toEqual([['short', bar(6)]]);
    const margin = first!.amount * first!.entry_price;
    expect(comparison.fee_diff).toBeCloseTo((-1 / margin) * 100, 10);
    expect(comparison.slippage_diff).toBeCloseTo(((-first!.amount * 1) / margin) * 100, 10);
    expect(comparison.reasons.missed_pct).toBeCloseTo(-second!.pnl_percent, 10);
    expect(comparison.reasons.extra_pct).toBeCloseTo(2, 10);
    const { missed_pct, extra_pct, fee_pct, slippage_pct, open_pct } = comparison.reasons;
    expect(missed_pct + extra_pct + fee_pct + slippage_pct + open_pct).toBeCloseTo(
      comparison.delta_pct,
      10,
    );
  });

  it('leaves out trades entered outside the period', () => {
    const comparison = compareLiveToBacktest({
      ...base,
      periodStart: bar(2),
      live: trades.map((t) => liveCopy(t)),
      backtest: trades,
    });
    expect(comparison.matched_trades.map((m) => m.time)).toEqual([bar(3), bar(5)]);
    expect(comparison.live.trades).toHaveLength(2);
    expect(comparison.live.equity_curve[0]!.time).toBe(bar(2));
  });
});
