// A paper bot on a rule set with a trailing stop: its stop order follows the best price after each
// closed candle, and its round trips are the backtest's with the same trailing stop (entries,
// exits, and which exits were stops).
import type { RuleSet } from '@quantsquare/contracts';
import {
  candlesFromRows,
  compileRuleStrategy,
  runBacktest,
  TIMEFRAME_MS,
} from '@quantsquare/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userStrategies } from '../../src/db/schema/index.js';
import { type BotFixture, createBotFixture, ETH, SLIPPAGE_BPS } from './bot-engine-fixture.js';

const MINUTE = TIMEFRAME_MS['1m'];
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
    const now = fixture.clock.now();
    const [stored] = await fixture.database.db
      .insert(userStrategies)
      .values({
        userId: fixture.userId,
        name: 'Trailing',
        rules: RULES,
        trailingStopPct: String(TRAILING),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const type = `custom:${stored!.id}`;
    const accountId = await fixture.paperAccount({ leverage: 2 });
    const botId = await fixture.bot({ accountId, strategyType: type, parameters: {} });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    // Two polls per candle: one mid-candle (the paper stop on the forming candle), one at close.
    for (let k = 0; k < CANDLES; k++) {
      fixture.clock.advanceSeconds(30);
      await engine.tick();
      fixture.clock.advanceSeconds(30);
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
        reason: t.reason,
      }));

    const orders = (await fixture.ordersOf(botId)).filter((o) => o.status === 'filled');
    const trades = await fixture.tradesOf(botId);
    const actual: { side: string; entryTime: number; exitTime: number; reason: string }[] = [];
    let entry: (typeof orders)[number] | undefined;
    for (const order of orders) {
      if (order.action === 'open_long' || order.action === 'open_short') {
        entry = order;
        continue;
      }
      const trade = trades[actual.length];
      if (!entry || !trade) throw new Error('an exit without an entry');
      // A resting stop fills inside the candle that reaches it; a market close at the next open.
      const isResting = order.action === 'stop_loss';
      const hitCandle = Math.floor(trade.closedAt.getTime() / MINUTE) * MINUTE;
      actual.push({
        side: trade.side,
        entryTime: entry.candleTimeMs + MINUTE,
        exitTime: isResting ? hitCandle : order.candleTimeMs + MINUTE,
        reason: trade.reason,
      });
      entry = undefined;
    }
    const lastOpenMs = series.closed.at(-1)!.timestamp;
    if (actual.at(-1) && actual.at(-1)!.exitTime > lastOpenMs) actual.pop();

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
