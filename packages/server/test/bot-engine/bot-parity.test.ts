// PARITY: a paper bot driven candle by candle on the simulated feed makes the trades runBacktest
// makes over the same closed candles (same strategy function, fee, slippage, leverage, SL/TP).
import { candlesFromRows, runBacktest, runStrategy } from '@quantsquare/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotFixture,
  createBotFixture,
  ETH,
  roundTripsOf,
  runHalfCandles,
  SLIPPAGE_BPS,
} from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 15, 8, 0, 0);
const CANDLES = 200;
const STOP_LOSS = 0.2;
const TAKE_PROFIT = 0.4;

let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

interface ComparableTrade {
  side: string;
  entryTime: number;
  exitTime: number;
  entryPrice: number;
  exitPrice: number;
  reason: string;
  pnlSign: number;
}

describe('bot engine parity with the backtest', () => {
  it('makes the same trades as runBacktest over 200 one-minute candles', async () => {
    const accountId = await fixture.paperAccount({ leverage: 2 });
    const botId = await fixture.bot({
      accountId,
      stopLossPercent: String(STOP_LOSS),
      takeProfitPercent: String(TAKE_PROFIT),
    });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    // Two polls per candle: one mid-candle (paper SL/TP on the forming candle), one at the close.
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
    expect(firstDecision).toBeGreaterThan(30);
    // The bot only decides on candles that closed after it started.
    const signals = runStrategy('ma_cross', candles, { fast_period: 3, slow_period: 8 });
    const from = (indexes: number[]) => indexes.filter((i) => i >= firstDecision);
    const backtest = runBacktest(
      candles,
      { buy_signals: from(signals.buy_signals), sell_signals: from(signals.sell_signals) },
      {
        feeRate: 0.0005,
        slippageBps: SLIPPAGE_BPS,
        leverage: 2,
        stopLossPercent: STOP_LOSS,
        takeProfitPercent: TAKE_PROFIT,
        direction: 'long_short',
      },
    );
    const expected: ComparableTrade[] = backtest.trades
      .filter((t) => t.reason !== 'end_of_data')
      .map((t) => ({
        side: t.side,
        entryTime: t.entry_time,
        exitTime: t.exit_time,
        entryPrice: t.entry_price,
        exitPrice: t.exit_price,
        reason: t.reason,
        pnlSign: Math.sign(t.pnl),
      }));

    // The bot's round trips, from its order intents (the candle each acted on) and trade rows. A
    // bot exit acting on the last compared candle fills at the open of the next one, which the
    // backtest has not got: there the trade ends as end_of_data (filtered above), so it is left
    // out of these too.
    const lastOpenMs = series.closed.at(-1)!.timestamp;
    const actual = await roundTripsOf(fixture, botId, lastOpenMs);
    const trades = await fixture.tradesOf(botId);
    const beyondData = trades.length - actual.length;

    expect(expected.length).toBeGreaterThan(5);
    expect(new Set(expected.map((t) => t.reason))).toEqual(
      new Set(['signal', 'stop_loss', 'take_profit']),
    );
    expect(
      actual.map(({ side, entryTime, exitTime, reason }) => ({
        side,
        entryTime,
        exitTime,
        reason,
      })),
    ).toEqual(
      expected.map(({ side, entryTime, exitTime, reason }) => ({
        side,
        entryTime,
        exitTime,
        reason,
      })),
    );
    const withinSlippage = (a: number, b: number) =>
      Math.abs(a - b) / b <= SLIPPAGE_BPS / 10_000 + 1e-9;
    for (const [i, trade] of actual.entries()) {
      const want = expected[i]!;
      expect(withinSlippage(trade.entryPrice, want.entryPrice), `entry ${i}`).toBe(true);
      expect(withinSlippage(trade.exitPrice, want.exitPrice), `exit ${i}`).toBe(true);
      expect(trade.pnlSign, `pnl sign ${i}`).toBe(want.pnlSign);
    }
    const row = await fixture.botRow(botId);
    expect(row.status).toBe('running');
    expect(row.totalTrades).toBe(actual.length + beyondData);
    expect(row.winningTrades + row.losingTrades).toBe(actual.length + beyondData);
    const pnlSum = trades.reduce((sum, t) => sum + Number(t.pnl), 0);
    expect(Number(row.totalProfitLoss)).toBeCloseTo(pnlSum, 6);
    // 400 engine ticks against the database: generous when the whole suite shares two cores.
  }, 180_000);
});
