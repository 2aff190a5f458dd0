// A paper bot on a rule set with a trailing stop: its stop order follows the best price after each
// closed candle, and its round trips are the backtest's with the same trailing stop (entries,
// exits, and which exits were stops).
import type { RuleSet } from '@quantsquare/contracts';
import { candlesFromRows, compileRuleStrategy, runBacktest } from '@quantsquare/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotFixture,
  createBotFixture,
  ETH,
  insertRuleSet,
  roundTripsOf,
  runHalfCandles,
  SLIPPAGE_BPS,
} from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 15, 8, 0, 0);
const CANDLES = 160;
const TRAILING = 0.25;

const RULES: RuleSet = {
  entry_long: {
    left: { indicator: 'ema', period: 3 },
    op: 'crosses_above',
    right: { indicator: 'sma', period: 8 },
  },
  exit_long: null,
  entry_short: {
    left: { indicator: 'ema', period: 3 },
    op: 'crosses_below',
    right: { indicator: 'sma', period: 8 },
  },
  exit_short: null,
};

let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

describe('a bot with a trailing stop', () => {
  it('moves its stop with the price and exits where the backtest does', async () => {
    const type = await insertRuleSet(fixture, 'Trailing', RULES, {
      trailingStopPct: String(TRAILING),
    });
    const accountId = await fixture.paperAccount({ leverage: 2 });
    const botId = await fixture.bot({ accountId, strategyType: type, parameters: {} });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    await runHalfCandles(fixture, engine, CANDLES);
    await engine.stop();

    const series = await fixture.feed.series({
      exchange: 'binance',
      symbol: ETH,
      timeframe: '1m',
      closedCount: CANDLES + 500,
    });
    const candles = candlesFromRows(series.closed);
    const firstDecision = series.closed.findIndex((c) => c.timestamp === START);
    const compiled = compileRuleStrategy(type, RULES);
    if (!compiled.ok) throw new Error('rules refused');
    const signals = compiled.strategy.compute(candles);
    const from = (indexes: readonly number[] = []) => indexes.filter((i) => i >= firstDecision);
    const backtest = runBacktest(
      candles,
      { buy_signals: from(signals.buy_signals), sell_signals: from(signals.sell_signals) },
      {
        feeRate: 0.0005,
        slippageBps: SLIPPAGE_BPS,
        leverage: 2,
        trailingStopPercent: TRAILING,
        direction: 'long_short',
      },
    );
    const expected = backtest.trades
      .filter((t) => t.reason !== 'end_of_data')
      .map((t) => ({
        side: t.side,
        entryTime: t.entry_time,
        exitTime: t.exit_time,
        reason: t.reason as string,
      }));
    const actual = (await roundTripsOf(fixture, botId, series.closed.at(-1)!.timestamp)).map(
      ({ side, entryTime, exitTime, reason }) => ({ side, entryTime, exitTime, reason }),
    );

    // The trailing stop did the exiting in both, and moved more than once along the way.
    expect(expected.filter((t) => t.reason === 'stop_loss').length).toBeGreaterThan(3);
    const moves = (await fixture.logsOf(botId)).filter((l) => l.event === 'stop_moved');
    expect(moves.length).toBeGreaterThan(expected.length);
    expect(actual).toEqual(expected);
    // Only tighter: every move of a long raises its stop, every move of a short lowers it.
    for (const move of moves) {
      const d = move.details as { side: string; from: number; to: number };
      expect(d.side === 'long' ? d.to > d.from : d.to < d.from).toBe(true);
    }
    // One stop order rests at a time: every replaced one was cancelled.
    const stops = (await fixture.ordersOf(botId)).filter((o) => o.action === 'stop_loss');
    expect(stops.filter((o) => o.status === 'accepted').length).toBeLessThanOrEqual(1);
  }, 240_000);
});
