import { describe, expect, it } from 'vitest';
import { sliceCandles } from '../candles.js';
import { STRATEGY_TYPES } from '../strategies/strategies.js';
import { runStrategy } from '../strategies/strategy-parameters.js';
import { randomWalkCandles, seededRandom } from '../testing/random-candles.fixture.js';
import { runBacktest } from './backtest.js';
import type { BacktestOptions } from './backtest.types.js';

// Property: the future never changes the past. Strategy and backtest run on the first n candles
// and on n + k candles; every trade closed before the last of the n candles, and every equity
// point before it, must be identical. (Only the end_of_data exit at candle n-1 may differ.)
const OPTIONS: readonly BacktestOptions[] = [
  { stopLossPercent: 1.5, takeProfitPercent: 3, slippageBps: 5 },
  { direction: 'long_only', leverage: 3, positionSizeFraction: 0.5 },
  { direction: 'short_only', stopLossPercent: 2 },
];

describe('no look-ahead', () => {
  it.each(STRATEGY_TYPES)('%s: trades before candle n do not depend on later candles', (type) => {
    const random = seededRandom(type.length * 7919);
    let comparedTrades = 0;
    for (let round = 0; round < 6; round++) {
      const total = 700;
      const candles = randomWalkCandles(total, Math.floor(random() * 1e9));
      const prefix = 150 + Math.floor(random() * 450);
      const options = OPTIONS[round % OPTIONS.length]!;
      const short = sliceCandles(candles, prefix);

      const shortSignals = runStrategy(type, short);
      const longSignals = runStrategy(type, candles);
      expect(shortSignals.buy_signals).toEqual(longSignals.buy_signals.filter((i) => i < prefix));
      expect(shortSignals.sell_signals).toEqual(longSignals.sell_signals.filter((i) => i < prefix));

      const shortRun = runBacktest(short, shortSignals, options);
      const longRun = runBacktest(candles, longSignals, options);
      const closedEarly = shortRun.trades.filter((trade) => trade.reason !== 'end_of_data');
      expect(longRun.trades.slice(0, closedEarly.length)).toEqual(closedEarly);
      comparedTrades += closedEarly.length;
      expect(Array.from(longRun.equity.subarray(0, prefix - 1))).toEqual(
        Array.from(shortRun.equity.subarray(0, prefix - 1)),
      );
    }
    expect(comparedTrades).toBeGreaterThan(0);
  });
});
