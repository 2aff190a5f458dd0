import { describe, expect, it } from 'vitest';
import {
  type CandleTableRow,
  candleTable,
  TABLE_START_MS,
  TABLE_STEP_MS,
} from '../testing/candle-table.fixture.js';
import { runBacktest } from './backtest.js';
import type { BacktestOptions, BacktestTrade } from './backtest.types.js';
import { backtestReport } from './backtest-summary.js';

type ExpectedTrade = Pick<
  BacktestTrade,
  'side' | 'entry_index' | 'exit_index' | 'entry_price' | 'exit_price' | 'reason'
> &
  Partial<Pick<BacktestTrade, 'amount' | 'pnl' | 'fee'>>;

interface Scenario {
  readonly name: string;
  readonly rows: readonly CandleTableRow[];
  readonly options?: BacktestOptions;
  readonly trades: readonly ExpectedTrade[];
  readonly finalBalance?: number;
}

// Fees are off unless the scenario is about fees, so prices read straight off the table.
const NO_FEES: BacktestOptions = { feeRate: 0 };

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'a buy on a close enters long at the next open',
    rows: [
      [100, 101, 99, 100, 'buy'],
      [102, 103, 101, 102],
      [103, 104, 102, 103],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 102,
        exit_price: 103,
        reason: 'end_of_data',
      },
    ],
  },
  {
    name: 'a stop-loss touched inside a candle exits at the stop price',
    options: { stopLossPercent: 5 },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 102, 99, 101],
      [101, 101, 94, 96],
      [96, 97, 95, 96],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 95,
        reason: 'stop_loss',
      },
    ],
    finalBalance: 9500,
  },
  {
    name: 'a take-profit touched inside a candle exits at the target price',
    options: { takeProfitPercent: 10 },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 104, 99, 103],
      [103, 111, 102, 108],
      [108, 109, 107, 108],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 110,
        reason: 'take_profit',
      },
    ],
    finalBalance: 11_000,
  },
  {
    name: 'stop-loss and take-profit touched in one candle: the stop-loss wins',
    options: { stopLossPercent: 5, takeProfitPercent: 10 },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 112, 93, 105],
      [105, 106, 104, 105],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 1,
        entry_price: 100,
        exit_price: 95,
        reason: 'stop_loss',
      },
    ],
  },
  {
    name: 'a candle that gaps below the stop exits at its open',
    options: { stopLossPercent: 5 },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 101, 99, 100],
      [90, 92, 88, 91],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 90,
        reason: 'stop_loss',
      },
    ],
  },
  {
    name: 'a short stops out above and takes profit below',
    options: { stopLossPercent: 5, takeProfitPercent: 10 },
    rows: [
      [100, 100, 100, 100, 'sell'],
      [100, 106, 99, 104],
      [104, 104, 104, 104, 'sell'],
      [100, 100, 89, 92],
    ],
    trades: [
      {
        side: 'short',
        entry_index: 1,
        exit_index: 1,
        entry_price: 100,
        exit_price: 105,
        reason: 'stop_loss',
      },
      {
        side: 'short',
        entry_index: 3,
        exit_index: 3,
        entry_price: 100,
        exit_price: 90,
        reason: 'take_profit',
      },
    ],
  },
  {
    name: 'a sell while long reverses: closes the long and opens a short at the same open',
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 110, 100, 110, 'sell'],
      [120, 120, 115, 115],
      [115, 115, 105, 105],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 120,
        reason: 'signal',
      },
      {
        side: 'short',
        entry_index: 2,
        exit_index: 3,
        entry_price: 120,
        exit_price: 105,
        reason: 'end_of_data',
        amount: 100, // 12,000 of equity at 120
        pnl: 1500,
      },
    ],
    finalBalance: 13_500,
  },
  {
    name: 'long_only: a sell closes the long and opens nothing, a lone sell is ignored',
    options: { direction: 'long_only' },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 110, 100, 110, 'sell'],
      [120, 120, 115, 115, 'sell'],
      [115, 115, 105, 105],
    ],
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 2,
        entry_price: 100,
        exit_price: 120,
        reason: 'signal',
      },
    ],
    finalBalance: 12_000,
  },
  {
    name: 'short_only: a buy closes the short and opens nothing',
    options: { direction: 'short_only' },
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 100, 100, 100, 'sell'],
      [100, 100, 90, 90, 'buy'],
      [90, 95, 90, 95],
    ],
    trades: [
      {
        side: 'short',
        entry_index: 2,
        exit_index: 3,
        entry_price: 100,
        exit_price: 90,
        reason: 'signal',
      },
    ],
    finalBalance: 11_000,
  },
  {
    name: "no trade comes from the last candle's signal",
    rows: [
      [100, 100, 100, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 101, 'buy'],
    ],
    trades: [],
    finalBalance: 10_000,
  },
  {
    name: 'a new buy while already long keeps the one position',
    rows: [
      [100, 100, 100, 100, 'buy'],
      [100, 100, 100, 100, 'buy'],
      [110, 110, 110, 110, 'sell'],
      [110, 110, 110, 110],
    ],
    options: { direction: 'long_only' },
    trades: [
      {
        side: 'long',
        entry_index: 1,
        exit_index: 3,
        entry_price: 100,
        exit_price: 110,
        reason: 'signal',
      },
    ],
  },
];

describe('backtest scenarios (candle tables)', () => {
  it.each(SCENARIOS)('$name', (scenario) => {
    const { candles, signals } = candleTable(scenario.rows);
    const result = runBacktest(candles, signals, { ...NO_FEES, ...scenario.options });
    expect(result.trades).toHaveLength(scenario.trades.length);
    scenario.trades.forEach((expected, k) => {
      const actual = result.trades[k]!;
      for (const [field, value] of Object.entries(expected)) {
        const got = actual[field as keyof BacktestTrade];
        if (typeof value === 'number') {
          expect(got, `trade ${k} ${field}`).toBeCloseTo(value, 9);
        } else {
          expect(got, `trade ${k} ${field}`).toBe(value);
        }
      }
      expect(actual.entry_time).toBe(TABLE_START_MS + expected.entry_index * TABLE_STEP_MS);
      expect(actual.exit_time).toBe(TABLE_START_MS + expected.exit_index * TABLE_STEP_MS);
    });
    if (scenario.finalBalance !== undefined) {
      expect(result.final_balance).toBeCloseTo(scenario.finalBalance, 9);
    }
    expect(result.equity).toHaveLength(scenario.rows.length);
    expect(result.equity[result.equity.length - 1]).toBeCloseTo(result.final_balance, 9);
  });
});

describe('backtest costs and sizing', () => {
  const roundTrip = candleTable([
    [100, 100, 100, 100, 'buy'],
    [100, 100, 100, 100, 'sell'],
    [110, 110, 110, 110],
  ]);

  it('charges the fee rate on the notional of each side', () => {
    const result = runBacktest(roundTrip.candles, roundTrip.signals, {
      feeRate: 0.0005,
      direction: 'long_only',
    });
    const trade = result.trades[0]!;
    expect(trade.amount).toBeCloseTo(100, 9); // 10,000 at 100
    expect(trade.fee).toBeCloseTo(5 + 5.5, 9); // 0.05% of 10,000 in, of 11,000 out
    expect(trade.pnl).toBeCloseTo(1000 - 10.5, 9);
    expect(result.final_balance).toBeCloseTo(10_989.5, 9);
  });

  it('uses 0.05% per side by default', () => {
    const result = runBacktest(roundTrip.candles, roundTrip.signals, { direction: 'long_only' });
    expect(result.trades[0]!.fee).toBeCloseTo(10.5, 9);
    expect(result.assumptions.fee_rate).toBe(0.0005);
    expect(result.initial_balance).toBe(10_000);
  });

  it('fills buys higher and sells lower by the slippage', () => {
    const result = runBacktest(roundTrip.candles, roundTrip.signals, {
      feeRate: 0,
      slippageBps: 10,
      direction: 'long_only',
    });
    const trade = result.trades[0]!;
    expect(trade.entry_price).toBeCloseTo(100.1, 9);
    expect(trade.exit_price).toBeCloseTo(109.89, 9);
    expect(trade.pnl).toBeCloseTo((10_000 / 100.1) * (109.89 - 100.1), 9);
  });

  it('sizes by a share of equity times leverage', () => {
    const result = runBacktest(roundTrip.candles, roundTrip.signals, {
      feeRate: 0,
      leverage: 3,
      positionSizeFraction: 0.5,
      direction: 'long_only',
    });
    const trade = result.trades[0]!;
    expect(trade.amount).toBeCloseTo(150, 9); // 5,000 margin × 3 at 100
    expect(trade.pnl).toBeCloseTo(1500, 9);
    expect(trade.pnl_percent).toBeCloseTo(30, 9); // of the 5,000 margin
  });

  it('lists the assumptions it used', () => {
    const result = runBacktest(roundTrip.candles, roundTrip.signals, {
      slippageBps: 5,
      stopLossPercent: 2,
    });
    expect(result.assumptions).toMatchObject({
      initial_balance: 10_000,
      fee_rate: 0.0005,
      slippage_bps: 5,
      leverage: 1,
      position_size_fraction: 1,
      direction: 'long_short',
      stop_loss_percent: 2,
      take_profit_percent: null,
    });
    expect(result.assumptions.fill_rule).toMatch(/next candle open/);
  });

  it('refuses signals that are not ascending', () => {
    expect(() => runBacktest(roundTrip.candles, { buy_signals: [1, 0], sell_signals: [] })).toThrow(
      RangeError,
    );
  });
});

describe('equity curve', () => {
  const table = candleTable([
    [100, 100, 100, 100, 'buy'],
    [100, 105, 100, 104],
    [104, 104, 98, 98],
    [98, 99, 97, 99],
  ]);

  it('has one point per candle, marked to the close', () => {
    const result = runBacktest(table.candles, table.signals, { feeRate: 0 });
    expect(Array.from(result.equity)).toEqual([10_000, 10_400, 9800, 9900]);
  });

  it('writes into a preallocated buffer when one is given', () => {
    const buffer = new Float64Array(10);
    const result = runBacktest(table.candles, table.signals, { feeRate: 0, equityOut: buffer });
    expect(result.equity.buffer).toBe(buffer.buffer);
    expect(buffer[1]).toBe(10_400);
  });

  it('turns into {time, equity} points for the API', () => {
    const report = backtestReport(runBacktest(table.candles, table.signals, { feeRate: 0 }));
    expect(report.equity_curve).toHaveLength(4);
    expect(report.equity_curve[1]).toEqual({
      time: TABLE_START_MS + TABLE_STEP_MS,
      equity: 10_400,
    });
    expect(report.trades).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('answers an empty run on no candles', () => {
    const empty = candleTable([]);
    const result = runBacktest(empty.candles, empty.signals);
    expect(result.equity).toHaveLength(0);
    expect(result.final_balance).toBe(10_000);
    expect(result.trade_count).toBe(0);
  });
});
