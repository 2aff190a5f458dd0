import { describe, expect, it } from 'vitest';
import { candleTable } from '../testing/candle-table.fixture.js';
import { runBacktest } from './backtest.js';
import { maxDrawdownPercent, sharpeRatio, tradeStats } from './backtest-metrics.js';

// Three long trades, no fees: +1,000 (100 → 110), −1,100 (110 → 99), +495 (100 → 105).
// The equity peaks at 11,000 (candles 2-3) and bottoms at 9,900 (candles 5-7): a 10% drawdown.
const KNOWN_CASE = candleTable([
  [100, 100, 100, 100, 'buy'],
  [100, 105, 100, 105],
  [105, 110, 105, 110, 'sell'],
  [110, 110, 110, 110, 'buy'],
  [110, 110, 100, 100],
  [100, 100, 99, 99, 'sell'],
  [99, 100, 99, 100, 'buy'],
  [100, 100, 100, 100],
  [100, 105, 100, 105, 'sell'],
  [105, 105, 105, 105],
]);

describe('metrics on a known case', () => {
  const result = runBacktest(KNOWN_CASE.candles, KNOWN_CASE.signals, {
    feeRate: 0,
    direction: 'long_only',
    timeframe: '1h',
  });

  it('produces the three trades', () => {
    expect(result.trades.map((trade) => Math.round(trade.pnl))).toEqual([1000, -1100, 495]);
    expect(result.trade_count).toBe(3);
  });

  it('measures return, drawdown, win rate and profit factor', () => {
    expect(result.final_balance).toBeCloseTo(10_395, 9);
    expect(result.total_return).toBeCloseTo(3.95, 9);
    expect(result.max_drawdown).toBeCloseTo(10, 9);
    expect(result.win_rate).toBeCloseTo(200 / 3, 9);
    expect(result.profit_factor).toBeCloseTo(1495 / 1100, 9);
    expect(result.buy_and_hold_return).toBeCloseTo(5, 9);
  });

  it('annualises the Sharpe ratio of per-candle returns by the timeframe', () => {
    const equity = [10_000, ...Array.from(result.equity)];
    const returns = equity.slice(1).map((value, i) => value / equity[i]! - 1);
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1);
    const expected = (mean / Math.sqrt(variance)) * Math.sqrt(365 * 24);
    expect(result.sharpe_ratio).toBeCloseTo(expected, 9);
  });
});

describe('metric functions', () => {
  it('counts drawdown from the initial balance as the first peak', () => {
    expect(maxDrawdownPercent(new Float64Array([9000, 9500, 12_000, 10_800]), 10_000)).toBeCloseTo(
      10,
      9,
    );
  });

  it('has no Sharpe ratio without variation', () => {
    expect(sharpeRatio(new Float64Array([10_000, 10_000, 10_000]), 10_000, 8760)).toBeNull();
  });

  it('has no profit factor without a losing trade, and a zero win rate without trades', () => {
    expect(tradeStats([10, 20]).profit_factor).toBeNull();
    expect(tradeStats([]).win_rate).toBe(0);
    expect(tradeStats([10, -5, 0, -5])).toEqual({
      win_rate: 25,
      profit_factor: 1,
      winning_trades: 1,
      losing_trades: 2,
    });
  });
});
