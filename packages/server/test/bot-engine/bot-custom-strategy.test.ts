// A paper bot on a user's rule set (`custom:<id>`) decides through the same compiled strategy as
// the backtest: its round trips over the simulated feed are the backtest's, exits without a
// reversal included.
import type { RuleSet } from '@quantsquare/contracts';
import { candlesFromRows, compileRuleStrategy, runBacktest } from '@quantsquare/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotFixture,
  createBotFixture,
  ETH,
  insertRuleSet,
  roundTripsOf,
  SLIPPAGE_BPS,
} from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 15, 8, 0, 0);
const CANDLES = 150;

const ema3 = { indicator: 'ema', period: 3 } as const;
const sma8 = { indicator: 'sma', period: 8 } as const;
const rsi5 = { indicator: 'rsi', period: 5 } as const;
const RULES: RuleSet = {
  entry_long: { left: ema3, op: 'crosses_above', right: sma8 },
  exit_long: { left: rsi5, op: 'gt', right: { value: 65 } },
  entry_short: { left: ema3, op: 'crosses_below', right: sma8 },
  exit_short: { left: rsi5, op: 'lt', right: { value: 35 } },
};

let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

describe('a bot on a custom strategy', () => {
  it('makes the trades the backtest of its rule set makes', async () => {
    const type = await insertRuleSet(fixture, 'Rules', RULES);
    const accountId = await fixture.paperAccount({ leverage: 2 });
    const botId = await fixture.bot({ accountId, strategyType: type, parameters: {} });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    for (let k = 0; k < CANDLES; k++) {
      fixture.clock.advanceSeconds(60);
      await engine.tick();
    }
    await engine.stop();

    const series = await fixture.feed.series({
      exchange: 'binance',
      symbol: ETH,
      timeframe: '1m',
      closedCount: CANDLES + 500,
    });
    const candles = candlesFromRows(series.closed);
    const firstDecision = series.closed.findIndex((c) => c.timestamp === START);
    expect(firstDecision).toBeGreaterThan(30);
    const compiled = compileRuleStrategy(type, RULES);
    if (!compiled.ok) throw new Error('rules refused');
    const signals = compiled.strategy.compute(candles);
    const from = (indexes: readonly number[] = []) => indexes.filter((i) => i >= firstDecision);
    const backtest = runBacktest(
      candles,
      {
        buy_signals: from(signals.buy_signals),
        sell_signals: from(signals.sell_signals),
        exit_long_signals: from(signals.exit_long_signals),
        exit_short_signals: from(signals.exit_short_signals),
      },
      { feeRate: 0.0005, slippageBps: SLIPPAGE_BPS, leverage: 2 },
    );
    const expected = backtest.trades
      .filter((t) => t.reason !== 'end_of_data')
      .map((t) => ({ side: t.side, entryTime: t.entry_time, exitTime: t.exit_time }));

    const actual = (await roundTripsOf(fixture, botId, series.closed.at(-1)!.timestamp)).map(
      ({ side, entryTime, exitTime }) => ({ side, entryTime, exitTime }),
    );

    expect(expected.length).toBeGreaterThan(3);
    // Exits that open nothing: some trade ends with the bot flat until a later entry.
    const flatAfterExit = expected.some(
      (trade, k) => expected[k + 1] !== undefined && expected[k + 1]!.entryTime > trade.exitTime,
    );
    expect(flatAfterExit).toBe(true);
    expect(actual).toEqual(expected);
  }, 180_000);
});
