// The user-strategies API over HTTP on a real database: writing rule sets (checked by the
// engine, refused with field codes), owner checks, and running them as `custom:<id>` in the
// strategy list, the backtest and the bot form.
import {
  backtestResponse,
  CUSTOM_STRATEGY_ID_OFFSET,
  strategyList,
  userStrategyAnswer,
} from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import {
  botBody,
  createPaperAccount,
  grantVip,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const control = new RecordingBotControl();
const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' }, botControl: () => control });

const PATH = '/api/trading/user-strategies/';
const sma = (period: number) => ({ indicator: 'sma', period });
const CROSS_RULES = {
  entry_long: { left: sma(5), op: 'crosses_above', right: sma(20) },
  exit_long: { left: sma(5), op: 'crosses_below', right: sma(20) },
  entry_short: null,
  exit_short: null,
};
const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'SMA cross',
  description: 'Fast over slow',
  rules: CROSS_RULES,
  ...overrides,
});

type ErrorBody = {
  code: string;
  fields?: Record<string, string[]>;
  field_codes: Record<string, string[]>;
};

let owner: { token: string; userId: number };
let other: { token: string; userId: number };
beforeAll(async () => {
  const first = await registerEmail(ctx.app, uniqueEmail('us-owner'));
  owner = { token: first.access, userId: Number(first.user.id) };
  const second = await registerEmail(ctx.app, uniqueEmail('us-other'));
  other = { token: second.access, userId: Number(second.user.id) };
});

async function createStrategy(token: string, overrides: Record<string, unknown> = {}) {
  const res = await call(ctx.app, 'POST', PATH, { token, body: body(overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return userStrategyAnswer.parse(res.body);
}

describe('writing user strategies', () => {
  it('creates a strategy, answering it with its custom type and the rules in normal form', async () => {
    const res = await call(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({ stop_loss_pct: 2.5, trailing_stop_pct: 4 }),
    });
    expect(res.status).toBe(201);
    const created = userStrategyAnswer.parse(res.body);
    expect(created).toMatchObject({
      type: `custom:${created.id}`,
      name: 'SMA cross',
      stop_loss_pct: 2.5,
      take_profit_pct: null,
      trailing_stop_pct: 4,
      rules: {
        entry_long: {
          left: { indicator: 'sma', period: 5, offset: 0 },
          op: 'crosses_above',
          right: { indicator: 'sma', period: 20, offset: 0 },
        },
        entry_short: null,
      },
    });
    const listed = await call<{ results: { id: number }[] }>(ctx.app, 'GET', PATH, {
      token: owner.token,
    });
    expect(listed.body.results.map((strategy) => strategy.id)).toContain(created.id);
  });

  it('refuses an invalid rule set with a code per field', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({
        rules: {
          entry_long: {
            all: [
              { left: { indicator: 'rsi', period: 0 }, op: 'lt', right: { value: 30 } },
              { left: 'close', op: 'above', right: { value: 1 } },
            ],
          },
        },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.field_codes).toEqual({
      'rules.entry_long.all.0.left.period': ['too_small'],
      'rules.entry_long.all.1.op': ['invalid_choice'],
    });
  });

  it('refuses groups nested deeper than four and more than twenty comparisons', async () => {
    const leaf = { left: 'close', op: 'gt', right: { value: 1 } };
    const deep = { all: [{ any: [{ all: [{ any: [{ all: [leaf] }] }] }] }] };
    const many = { any: Array.from({ length: 21 }, () => leaf) };
    const tooDeep = await call<ErrorBody>(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({ rules: { entry_long: deep } }),
    });
    expect(tooDeep.body.field_codes).toEqual({
      'rules.entry_long.all.0.any.0.all.0.any.0': ['too_deep'],
    });
    const tooMany = await call<ErrorBody>(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({ rules: { entry_long: many } }),
    });
    expect(tooMany.body.field_codes).toEqual({ rules: ['too_many_leaves'] });
  });

  it('refuses a missing name and a rule set without an entry', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({ name: '', rules: { exit_long: CROSS_RULES.exit_long } }),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.field_codes)).toContain('name');
  });

  it('answers 400 with no_entry for rules that could never open a position', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', PATH, {
      token: owner.token,
      body: body({ rules: { exit_long: CROSS_RULES.exit_long } }),
    });
    expect(res.body.field_codes).toEqual({ 'rules.entry_long': ['no_entry'] });
  });

  it('replaces and deletes its own strategy', async () => {
    const created = await createStrategy(owner.token);
    const replaced = await call(ctx.app, 'PUT', `${PATH}${created.id}/`, {
      token: owner.token,
      body: body({ name: 'Renamed', take_profit_pct: 6 }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Renamed', take_profit_pct: 6 });
    const removed = await call(ctx.app, 'DELETE', `${PATH}${created.id}/`, { token: owner.token });
    expect(removed.status).toBe(204);
    const gone = await call(ctx.app, 'GET', `${PATH}${created.id}/`, { token: owner.token });
    expect(gone.status).toBe(404);
  });

  it("answers 404 for another user's strategy on every verb", async () => {
    const created = await createStrategy(owner.token);
    const url = `${PATH}${created.id}/`;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', body({ name: 'Mine now' })],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(ctx.app, method, url, { token: other.token, body: payload });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    const still = await call(ctx.app, 'GET', url, { token: owner.token });
    expect(still.body).toMatchObject({ name: 'SMA cross' });
  });

  it('answers 401 without a token', async () => {
    expect((await call(ctx.app, 'GET', PATH)).status).toBe(401);
    expect((await call(ctx.app, 'POST', PATH, { body: body() })).status).toBe(401);
  });
});

describe('running user strategies', () => {
  it('lists own strategies as custom:<id> for their owner only', async () => {
    const created = await createStrategy(owner.token, { name: 'Listed' });
    const mine = strategyList.parse(
      (await call(ctx.app, 'GET', '/api/trading/strategies/', { token: owner.token })).body,
    );
    expect(mine.results).toContainEqual(
      expect.objectContaining({
        id: CUSTOM_STRATEGY_ID_OFFSET + created.id,
        type: `custom:${created.id}`,
        name: 'Listed',
      }),
    );
    expect(mine.results[0]?.type).toBe('ma_cross');
    for (const token of [other.token, undefined]) {
      const theirs = strategyList.parse(
        (await call(ctx.app, 'GET', '/api/trading/strategies/', { token })).body,
      );
      expect(theirs.results.some((entry) => entry.type.startsWith('custom:'))).toBe(false);
    }
  });

  it('backtests a custom strategy to the trades of the built-in it spells out', async () => {
    const created = await createStrategy(owner.token);
    const request = {
      symbol: 'ETH/USDT:USDT',
      timeframe: '1h',
      exchange: 'binance',
      limit: 800,
    };
    const custom = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      token: owner.token,
      body: { ...request, strategy_type: created.type },
    });
    expect(custom.status).toBe(200);
    const builtIn = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      body: {
        ...request,
        strategy_type: 'ma_cross',
        parameters: { fast_period: 5, slow_period: 20 },
        settings: { direction: 'long_only' },
      },
    });
    const fromRules = backtestResponse.parse(custom.body);
    const fromBuiltIn = backtestResponse.parse(builtIn.body);
    expect(fromRules.strategy_type).toBe(created.type);
    expect(fromRules.backtest.trade_count).toBeGreaterThan(0);
    expect(fromRules.backtest.trades).toEqual(fromBuiltIn.backtest.trades);
    expect(fromRules.indicators.ma_fast).toEqual(fromBuiltIn.indicators.ma_fast);
  });

  it("applies the strategy's own stop-loss and trailing stop in the backtest", async () => {
    const created = await createStrategy(owner.token, {
      stop_loss_pct: 1,
      trailing_stop_pct: 1.5,
    });
    const res = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      token: owner.token,
      body: { symbol: 'ETH/USDT:USDT', strategy_type: created.type, limit: 800 },
    });
    const report = backtestResponse.parse(res.body).backtest;
    expect(report.assumptions).toMatchObject({
      stop_loss_percent: 1,
      trailing_stop_percent: 1.5,
    });
    expect(report.trades.some((trade) => trade.reason === 'stop_loss')).toBe(true);
  });

  it('backtests unsaved rules inline (the builder preview) as the saved strategy runs', async () => {
    const created = await createStrategy(owner.token);
    const request = { symbol: 'ETH/USDT:USDT', limit: 600 };
    const saved = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      token: owner.token,
      body: { ...request, strategy_type: created.type },
    });
    const inline = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      body: { ...request, rules: CROSS_RULES, settings: { trailing_stop_percentage: 2 } },
    });
    expect(inline.status).toBe(200);
    const fromSaved = backtestResponse.parse(saved.body).backtest;
    const fromInline = backtestResponse.parse(inline.body);
    expect(fromInline.strategy_type).toBe('custom');
    expect(fromInline.backtest.assumptions.trailing_stop_percent).toBe(2);
    const withoutTrail = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      body: { ...request, rules: CROSS_RULES },
    });
    expect(backtestResponse.parse(withoutTrail.body).backtest.trades).toEqual(fromSaved.trades);
  });

  it('refuses invalid inline rules with codes under rules.', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
      body: {
        symbol: 'ETH/USDT:USDT',
        rules: { entry_long: { left: { indicator: 'sma' }, op: 'gt', right: 'close' } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toEqual({ 'rules.entry_long.left.period': ['required'] });
  });

  it("refuses another user's custom strategy in a backtest as an unknown strategy", async () => {
    const created = await createStrategy(owner.token);
    for (const token of [other.token, undefined]) {
      const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
        token,
        body: { symbol: 'ETH/USDT:USDT', strategy_type: created.type },
      });
      expect(res.status).toBe(400);
      expect(res.body.field_codes).toEqual({ strategy_type: ['unknown_strategy'] });
    }
  });

  it('refuses a custom strategy in a bot without VIP, with its own code', async () => {
    const user = await registerEmail(ctx.app, uniqueEmail('us-nonvip'));
    const created = await createStrategy(user.access);
    const accountId = await createPaperAccount(ctx.app, user.access);
    const res = await call(ctx.app, 'POST', '/api/trading/bots/', {
      token: user.access,
      body: botBody(accountId, { strategy: CUSTOM_STRATEGY_ID_OFFSET + created.id }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'custom_strategy_vip_required' });
  });

  it('creates a bot on a custom strategy for a VIP, and keeps the strategy while the bot exists', async () => {
    const user = await registerEmail(ctx.app, uniqueEmail('us-vip'));
    await grantVip(ctx.database, ctx.clock, Number(user.user.id));
    const created = await createStrategy(user.access);
    const accountId = await createPaperAccount(ctx.app, user.access);
    const res = await call<{ bot: Record<string, unknown> }>(
      ctx.app,
      'POST',
      '/api/trading/bots/',
      {
        token: user.access,
        body: botBody(accountId, { strategy: CUSTOM_STRATEGY_ID_OFFSET + created.id }),
      },
    );
    expect(res.status).toBe(201);
    // The bot is named by the rule set it runs, in its answer and in the list.
    expect(res.body.bot).toMatchObject({
      strategy: CUSTOM_STRATEGY_ID_OFFSET + created.id,
      strategy_type: created.type,
      strategy_name: 'SMA cross',
    });
    const listed = await call<{ results: Record<string, unknown>[] }>(
      ctx.app,
      'GET',
      '/api/trading/bots/',
      { token: user.access },
    );
    expect(listed.body.results).toEqual([
      expect.objectContaining({ strategy_type: created.type, strategy_name: 'SMA cross' }),
    ]);
    const removed = await call(ctx.app, 'DELETE', `${PATH}${created.id}/`, { token: user.access });
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ code: 'strategy_in_use' });
  });

  it("refuses another user's custom strategy in a bot as unknown", async () => {
    const created = await createStrategy(owner.token);
    await grantVip(ctx.database, ctx.clock, other.userId);
    const accountId = await createPaperAccount(ctx.app, other.token);
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/bots/', {
      token: other.token,
      body: botBody(accountId, { strategy: CUSTOM_STRATEGY_ID_OFFSET + created.id }),
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toMatchObject({ strategy: ['unknown_strategy'] });
  });
});
