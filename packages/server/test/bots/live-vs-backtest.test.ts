// GET /trading/bots/{id}/live-vs-backtest/ on the real bot engine, a paper account and the
// simulated feed: once the candles have closed, the bot's trades are the backtest's trades.

import {
  type ApiError,
  CUSTOM_STRATEGY_ID_OFFSET,
  type LiveVsBacktest,
  liveVsBacktest,
} from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/common/secret-box.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import type { BotEngine } from '../../src/workers/bot-engine/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { createBot, createPaperAccount, grantVip } from '../helpers/bot-flows.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

let engine: BotEngine | undefined;
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: ({ database, clock, config, marketFeed }) => {
    engine = createBotEngineWithCore({
      db: database.db,
      clock,
      feed: marketFeed,
      pollIntervalMs: 3_600_000,
      clients: createAccountClientCache({
        secretBox: createSecretBox(TEST_SECRET_KEY),
        factory: testClientFactory({ config, db: database.db, clock, marketFeed }),
      }),
    });
    return engine;
  },
});

const CANDLES = 240;
const path = (id: number) => `/api/trading/bots/${id}/live-vs-backtest/`;
/** A price in an answer: a decimal string in plain notation. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** A VIP user's paper bot on 1m candles, started over HTTP. */
async function startedBot(strategyOverrides: Record<string, unknown> = {}) {
  const session = await registerEmail(ctx.app, uniqueEmail('livebt'));
  await grantVip(ctx.database, ctx.clock, Number(session.user.id));
  const token = session.access;
  const accountId = await createPaperAccount(ctx.app, token, { default_leverage: 2 });
  const id = await createBot(ctx.app, token, accountId, {
    timeframe: '1m',
    trade_amount: 1000,
    stop_loss_percentage: 0.3,
    take_profit_percentage: 0.6,
    ...strategyOverrides,
  });
  const started = await call(ctx.app, 'POST', `/api/trading/bots/${id}/start/`, { token });
  expect(started.status).toBe(200);
  return { token, refresh: session.refresh, id };
}

/** A fresh access token: hours of clock time pass while the candles run. */
async function freshToken(refresh: string): Promise<string> {
  const res = await call<{ access: string }>(ctx.app, 'POST', '/api/auth/refresh/', {
    body: { refresh },
  });
  expect(res.status).toBe(200);
  return res.body.access;
}

/** Two polls per candle: one mid-candle (paper SL/TP on the forming candle), one at the close. */
async function runCandles(count: number) {
  for (let k = 0; k < count; k++) {
    ctx.clock.advanceSeconds(30);
    await engine!.tick();
    ctx.clock.advanceSeconds(30);
    await engine!.tick();
  }
}

describe('live against backtest of a paper bot', () => {
  it('lists the same trades as the backtest once their candles have closed', async () => {
    const { token, refresh, id } = await startedBot();
    const before = await call<LiveVsBacktest>(ctx.app, 'GET', path(id), { token });
    expect(before.status).toBe(200);
    expect(before.body.period).toBeNull();
    expect(before.body.matched_trades).toEqual([]);

    await runCandles(CANDLES);
    const res = await call<LiveVsBacktest>(ctx.app, 'GET', path(id), {
      token: await freshToken(refresh),
    });
    expect(res.status).toBe(200);
    const answer = res.body;
    expect(answer.period?.candles).toBeGreaterThanOrEqual(CANDLES);
    expect(answer.period?.is_truncated).toBe(false);
    expect(answer.backtest.trades.length).toBeGreaterThan(5);
    // Every trade pairs with one of the same bar and side: nothing missed, nothing extra.
    expect(answer.missed_signals).toEqual([]);
    expect(answer.extra_trades).toEqual([]);
    const entries = (trades: LiveVsBacktest['live']['trades']) =>
      trades.map((t) => ({ side: t.side, time: t.time }));
    expect(entries(answer.live.trades)).toEqual(entries(answer.backtest.trades));
    expect(answer.matched_trades).toHaveLength(answer.backtest.trades.length);
    for (const pair of answer.matched_trades) {
      if (!pair.live.is_open && !pair.backtest.is_open) {
        expect(pair.live.exit_time, `exit of ${pair.time}`).toBe(pair.backtest.exit_time);
      }
    }
    // Only the last one may differ in being open: a bot exit on the last closed candle fills
    // at the forming candle's open, which the backtest has not got yet.
    const mixed = answer.matched_trades.filter((p) => p.live.is_open !== p.backtest.is_open);
    expect(mixed.length).toBeLessThanOrEqual(1);
    if (mixed[0]) expect(mixed[0]).toBe(answer.matched_trades.at(-1));
    // The gap is fills only: paper slippage on the take-profit the backtest fills at its price.
    const { missed_pct, extra_pct, fee_pct, slippage_pct, open_pct } = answer.reasons;
    expect(missed_pct).toBe(0);
    expect(extra_pct).toBe(0);
    expect(missed_pct + extra_pct + fee_pct + slippage_pct + open_pct).toBeCloseTo(
      answer.delta_pct,
      8,
    );
    expect(Math.abs(answer.delta_pct)).toBeLessThan(0.05);
    expect(Math.abs(answer.fee_diff)).toBeLessThan(0.05);
    expect(Math.abs(answer.slippage_diff)).toBeLessThan(0.05 * answer.matched_trades.length);
    expect(answer.live.equity_curve).toHaveLength(answer.period!.candles);
    expect(answer.backtest.equity_curve.map((p) => p.time)).toEqual(
      answer.live.equity_curve.map((p) => p.time),
    );
    expect(answer.assumptions).toMatchObject({ fee_rate: 0.0005, slippage_bps: 2, leverage: 2 });
    // Prices are decimal strings (an open trade's exit null); percentages stay numbers.
    liveVsBacktest.parse(answer);
    const trades = [
      ...answer.live.trades,
      ...answer.backtest.trades,
      ...answer.matched_trades.flatMap((pair) => [pair.live, pair.backtest]),
    ];
    for (const trade of trades) {
      expect(trade.entry_price).toMatch(PLAIN_DECIMAL);
      if (trade.is_open) expect(trade.exit_price).toBeNull();
      else expect(trade.exit_price).toMatch(PLAIN_DECIMAL);
      expect(typeof trade.fee_pct).toBe('number');
    }
  }, 180_000);

  it('compares a bot on the user’s own rule set (custom:<id>) with its backtest', async () => {
    const { token, refresh } = await startedBot();
    const rules = {
      entry_long: {
        left: { indicator: 'ema', period: 3 },
        op: 'crosses_above',
        right: { indicator: 'sma', period: 8 },
      },
      exit_long: { left: { indicator: 'rsi', period: 5 }, op: 'gt', right: { value: 65 } },
      entry_short: {
        left: { indicator: 'ema', period: 3 },
        op: 'crosses_below',
        right: { indicator: 'sma', period: 8 },
      },
      exit_short: { left: { indicator: 'rsi', period: 5 }, op: 'lt', right: { value: 35 } },
    };
    const created = await call<{ id: number }>(ctx.app, 'POST', '/api/trading/user-strategies/', {
      token,
      body: { name: 'EMA over SMA, RSI exits', rules },
    });
    expect(created.status).toBe(201);
    const accountId = await createPaperAccount(ctx.app, token, {
      name: 'Rules',
      default_leverage: 1,
    });
    const id = await createBot(ctx.app, token, accountId, {
      strategy: CUSTOM_STRATEGY_ID_OFFSET + created.body.id,
      symbol: 'ETH/USDT:USDT',
      timeframe: '1m',
      trade_amount: 1000,
      stop_loss_percentage: null,
      take_profit_percentage: null,
    });
    const started = await call(ctx.app, 'POST', `/api/trading/bots/${id}/start/`, { token });
    expect(started.status).toBe(200);
    await runCandles(150);

    const res = await call<LiveVsBacktest>(ctx.app, 'GET', path(id), {
      token: await freshToken(refresh),
    });
    expect(res.status).toBe(200);
    expect(res.body.strategy_type).toBe(`custom:${created.body.id}`);
    expect(res.body.backtest.trades.length).toBeGreaterThan(3);
    expect(res.body.missed_signals).toEqual([]);
    expect(res.body.extra_trades).toEqual([]);
    expect(res.body.matched_trades).toHaveLength(res.body.backtest.trades.length);
    expect(Math.abs(res.body.delta_pct)).toBeLessThan(0.05);
  }, 180_000);

  it('is the owner’s only: another user gets 404, a visitor 401', async () => {
    const { id } = await startedBot();
    const other = await registerEmail(ctx.app, uniqueEmail('other'));
    const foreign = await call<ApiError>(ctx.app, 'GET', path(id), { token: other.access });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const visitor = await call<ApiError>(ctx.app, 'GET', path(id));
    expect(visitor.status).toBe(401);
    const missing = await call<ApiError>(ctx.app, 'GET', path(999_999), { token: other.access });
    expect(missing.status).toBe(404);
  });
});
