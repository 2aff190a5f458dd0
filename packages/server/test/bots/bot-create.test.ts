// The bots API with a recording BotControl standing in for the bot engine (the engine has its
// own tests); creating never reaches the engine.
import { BOT_MESSAGES, botExistsError, bot as botSchema } from '@quantsquare/contracts';
import { STRATEGIES } from '@quantsquare/engine';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bots } from '../../src/db/schema/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import {
  BOT_SYMBOL,
  botBody,
  createBot,
  createPaperAccount,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const control = new RecordingBotControl();
const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' }, botControl: () => control });

type Fields = Record<string, string[]>;

let token: string;
let accountId: number;
let otherAccountId: number;
beforeAll(async () => {
  token = (await registerEmail(ctx.app, uniqueEmail('botc'))).access;
  accountId = await createPaperAccount(ctx.app, token);
  const other = (await registerEmail(ctx.app, uniqueEmail('botc-other'))).access;
  otherAccountId = await createPaperAccount(ctx.app, other);
});

describe('POST /api/trading/bots/', () => {
  it('runs the strategy with the parameters given (an optimisation best) and refuses bad ones', async () => {
    const ownAccount = await createPaperAccount(ctx.app, token, { name: 'Optimised' });
    const res = await call<{ bot: Record<string, unknown> }>(
      ctx.app,
      'POST',
      '/api/trading/bots/',
      {
        token,
        body: botBody(ownAccount, {
          symbol: 'DOGE/USDT:USDT',
          parameters: { fast_period: 5, slow_period: 30 },
        }),
      },
    );
    expect(res.status).toBe(201);
    expect(botSchema.parse(res.body.bot).strategy_parameters).toEqual({
      fast_period: 5,
      slow_period: 30,
    });
    const refused = await call<{ field_codes: Fields }>(ctx.app, 'POST', '/api/trading/bots/', {
      token,
      body: botBody(ownAccount, {
        symbol: 'SOL/USDT:USDT',
        parameters: { fast_period: 40, slow_period: 30 },
      }),
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.field_codes)).toEqual(['parameters.fast_period']);
  });

  it('creates a bot with the strategy defaults and answers 201 with the bot', async () => {
    const res = await call<{ success: boolean; message: string; bot: Record<string, unknown> }>(
      ctx.app,
      'POST',
      '/api/trading/bots/',
      { token, body: botBody(accountId, { symbol: 'ETH/USDT:USDT', trade_amount: 10.5 }) },
    );
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Bot created successfully!');
    const bot = botSchema.parse(res.body.bot);
    expect(bot).toMatchObject({
      symbol: 'ETH/USDT:USDT',
      exchange: 'binance',
      exchange_api: accountId,
      exchange_api_name: 'Paper',
      account_type: 'classic',
      position_mode: 'hedge',
      is_paper: true,
      strategy: 1,
      strategy_type: 'ma_cross',
      strategy_name: STRATEGIES.ma_cross.display_name,
      timeframe: '1h',
      trade_amount: '10.5',
      stop_loss_percentage: 2,
      take_profit_percentage: 5,
      status: 'created',
      can_start: false,
      total_trades: 0,
      win_rate: 0,
      total_profit_loss: '0',
      last_error: null,
      last_error_at: null,
      last_trade_at: null,
      open_positions: [],
    });
    const [row] = await ctx.database.db.select().from(bots).where(eq(bots.id, bot.id));
    const defaults = Object.fromEntries(
      STRATEGIES.ma_cross.parameters.map((spec) => [spec.name, spec.default]),
    );
    expect(row?.strategyParameters).toEqual(defaults);
    expect(control.calls).toEqual([]);
  });

  it('accepts a bot without stop-loss and take-profit', async () => {
    const res = await call<{ bot: { stop_loss_percentage: null; take_profit_percentage: null } }>(
      ctx.app,
      'POST',
      '/api/trading/bots/',
      {
        token,
        body: botBody(accountId, {
          symbol: 'DOGE/USDT:USDT',
          stop_loss_percentage: undefined,
          take_profit_percentage: null,
        }),
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.bot.stop_loss_percentage).toBeNull();
    expect(res.body.bot.take_profit_percentage).toBeNull();
  });

  it("answers 409 '已存在' with details, suggestion and the existing bot for a second bot", async () => {
    const firstId = await createBot(ctx.app, token, accountId, { symbol: 'SOL/USDT:USDT' });
    const res = await call(ctx.app, 'POST', '/api/trading/bots/', {
      token,
      body: botBody(accountId, { symbol: 'SOL/USDT:USDT', timeframe: '4h', strategy: 2 }),
    });
    expect(res.status).toBe(409);
    const body = botExistsError.parse(res.body);
    expect(body).toEqual({
      success: false,
      error: BOT_MESSAGES.alreadyExists,
      code: 'conflict',
      details: BOT_MESSAGES.alreadyExistsDetails,
      suggestion: BOT_MESSAGES.alreadyExistsSuggestion,
      existing_bot: { id: firstId, status: 'created' },
    });
    expect(body.error).toContain('已存在');
  });

  it('allows the same symbol on another account of the user', async () => {
    const second = await createPaperAccount(ctx.app, token, { name: 'Second' });
    await createBot(ctx.app, token, accountId, { symbol: 'XRP/USDT:USDT' });
    const res = await call(ctx.app, 'POST', '/api/trading/bots/', {
      token,
      body: botBody(second, { symbol: 'XRP/USDT:USDT' }),
    });
    expect(res.status).toBe(201);
  });

  it('refuses an anonymous call with 401', async () => {
    const res = await call(ctx.app, 'POST', '/api/trading/bots/', { body: botBody(accountId) });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/trading/bots/ refuses what breaks a rule with field errors', () => {
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['no exchange_api', () => botBody(accountId, { exchange_api: undefined }), 'exchange_api'],
    ['exchange_api as text', () => botBody(accountId, { exchange_api: 'one' }), 'exchange_api'],
    ['no strategy', () => botBody(accountId, { strategy: undefined }), 'strategy'],
    ['strategy as text', () => botBody(accountId, { strategy: 'ma_cross' }), 'strategy'],
    ['an unknown strategy id', () => botBody(accountId, { strategy: 999 }), 'strategy'],
    ['no symbol', () => botBody(accountId, { symbol: undefined }), 'symbol'],
    ['a symbol as a number', () => botBody(accountId, { symbol: 42 }), 'symbol'],
    ['a malformed symbol', () => botBody(accountId, { symbol: 'btc-usdt' }), 'symbol'],
    [
      'a symbol the feed does not list',
      () => botBody(accountId, { symbol: 'NOPE/USDT:USDT' }),
      'symbol',
    ],
    ['no timeframe', () => botBody(accountId, { timeframe: undefined }), 'timeframe'],
    ['an unknown timeframe', () => botBody(accountId, { timeframe: '2h' }), 'timeframe'],
    ['no trade_amount', () => botBody(accountId, { trade_amount: undefined }), 'trade_amount'],
    ['trade_amount 9.99', () => botBody(accountId, { trade_amount: 9.99 }), 'trade_amount'],
    ['trade_amount 10.001', () => botBody(accountId, { trade_amount: 10.001 }), 'trade_amount'],
    ["trade_amount 'abc'", () => botBody(accountId, { trade_amount: 'abc' }), 'trade_amount'],
    ['a negative trade_amount', () => botBody(accountId, { trade_amount: -100 }), 'trade_amount'],
    [
      'stop-loss 0.05',
      () => botBody(accountId, { stop_loss_percentage: 0.05 }),
      'stop_loss_percentage',
    ],
    [
      'stop-loss 51',
      () => botBody(accountId, { stop_loss_percentage: 51 }),
      'stop_loss_percentage',
    ],
    [
      'stop-loss as text',
      () => botBody(accountId, { stop_loss_percentage: '2' }),
      'stop_loss_percentage',
    ],
    [
      'take-profit 101',
      () => botBody(accountId, { take_profit_percentage: 101 }),
      'take_profit_percentage',
    ],
    [
      'take-profit 0.05',
      () => botBody(accountId, { take_profit_percentage: 0.05 }),
      'take_profit_percentage',
    ],
    ['an unknown field', () => botBody(accountId, { leverage: 10 }), 'leverage'],
    ["someone else's account", () => botBody(otherAccountId), 'exchange_api'],
    ['an account that does not exist', () => botBody(2_000_000), 'exchange_api'],
  ];

  it.each(cases)('refuses %s', async (_label, body, field) => {
    const res = await call<{ code: string; fields: Fields }>(
      ctx.app,
      'POST',
      '/api/trading/bots/',
      {
        token,
        body: body(),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.fields)).toContain(field);
  });

  it("says 'Exchange account not found' for someone else's account", async () => {
    const res = await call<{ fields: Fields }>(ctx.app, 'POST', '/api/trading/bots/', {
      token,
      body: botBody(otherAccountId),
    });
    expect(res.body.fields.exchange_api).toEqual([BOT_MESSAGES.unknownAccount]);
  });

  it('refuses an inactive account', async () => {
    const inactive = await createPaperAccount(ctx.app, token, { name: 'Off', is_active: false });
    const res = await call<{ fields: Fields }>(ctx.app, 'POST', '/api/trading/bots/', {
      token,
      body: botBody(inactive),
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.exchange_api).toEqual(['Exchange account is inactive']);
  });

  it('refuses a body that is not an object, and malformed JSON, with 400', async () => {
    for (const payload of ['[]', '"bot"', '{"exchange_api":']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/trading/bots/',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('has created no bot on the symbols it refused', async () => {
    const res = await call<{ results: { symbol: string }[] }>(
      ctx.app,
      'GET',
      '/api/trading/bots/',
      {
        token,
      },
    );
    expect(res.body.results.map((bot) => bot.symbol)).not.toContain(BOT_SYMBOL);
  });
});
