import { describe, expect, it } from 'vitest';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { runBacktest } from './backtest.js';

const HOUR_MS = 3_600_000;

/** Marks every 8 hours from the candles' first (UTC-aligned) open on, all at `rate`. */
function marks(firstMs: number, count: number, rate: number) {
  const time = new Float64Array(count);
  const rates = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    time[k] = firstMs + k * 8 * HOUR_MS;
    rates[k] = rate;
  }
  return { time, rate: rates, source: 'test' };
}

describe('funding in the backtest', () => {
  const candles = randomWalkCandles(200, 21);
  const signals = { buy_signals: [5], sell_signals: [] };
  const options = { timeframe: '1h' as const, direction: 'long_only' as const };

  it('charges a long at each 8-hour mark it is held; with and without differ by exactly funding_paid', () => {
    const funding = marks(candles.time[0]!, 30, 0.0001);
    const without = runBacktest(candles, signals, options);
    const withFunding = runBacktest(candles, signals, { ...options, funding });
    const trade = withFunding.trades[0]!;
    // Entered at candle 6's open (00:00 + 6 h); marks from 08:00 (candle 8) to the last candle.
    let expected = 0;
    for (let i = 0; i < candles.time.length; i++) {
      if (i > trade.entry_index && (candles.time[i]! - candles.time[0]!) % (8 * HOUR_MS) === 0) {
        expected += trade.amount * candles.open[i]! * 0.0001;
      }
    }
    expect(withFunding.funding_paid).toBeGreaterThan(0);
    expect(withFunding.funding_paid).toBeCloseTo(expected, 9);
    expect(without.funding_paid).toBe(0);
    expect(without.final_balance - withFunding.final_balance).toBeCloseTo(
      withFunding.funding_paid,
      9,
    );
    // The equity curve carries the funding paid so far at every candle.
    let paid = 0;
    for (let i = 0; i < candles.time.length; i++) {
      if (i > trade.entry_index && (candles.time[i]! - candles.time[0]!) % (8 * HOUR_MS) === 0) {
        paid += trade.amount * candles.open[i]! * 0.0001;
      }
      expect(without.equity[i]! - withFunding.equity[i]!).toBeCloseTo(paid, 9);
    }
    expect(withFunding.assumptions.funding_rule).toContain('test rates');
    expect(without.assumptions.funding_rule).toBe('No funding charged.');
  });

  it('pays a short a positive rate and charges nothing while flat', () => {
    const funding = marks(candles.time[0]!, 30, 0.0002);
    const short = runBacktest(
      candles,
      { buy_signals: [], sell_signals: [5] },
      { timeframe: '1h', direction: 'short_only', funding },
    );
    expect(short.funding_paid).toBeLessThan(0);
    const flat = runBacktest(candles, { buy_signals: [], sell_signals: [] }, { funding });
    expect(flat.funding_paid).toBe(0);
  });
});
