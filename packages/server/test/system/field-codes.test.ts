// JSON bodies are taken as typed (no coercion), money has bounds and steps (issue 8, item 9),
// and every field error carries a stable machine code beside its message (from issue 9).
import { describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { botBody, createPaperAccount, RecordingBotControl } from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: () => new RecordingBotControl(),
});

interface ErrorBody {
  code: string;
  fields: Record<string, string[]>;
  field_codes: Record<string, string[]>;
}

const account = (overrides: Record<string, unknown>) => ({
  name: 'Paper',
  exchange: 'binance',
  is_paper: true,
  default_leverage: 5,
  ...overrides,
});

async function token() {
  return (await registerEmail(ctx.app, uniqueEmail('codes'))).access;
}

describe('JSON bodies are not coerced', () => {
  it.each([
    ['true', true],
    ['[5]', [5]],
    ['"5"', '5'],
  ])('refuses default_leverage %s on create and on update', async (_label, value) => {
    const auth = await token();
    const created = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/apis/', {
      token: auth,
      body: account({ default_leverage: value }),
    });
    expect(created.status).toBe(400);
    expect(created.body.field_codes).toEqual({ default_leverage: ['invalid_type'] });
    const id = await createPaperAccount(ctx.app, auth);
    const patched = await call<ErrorBody>(ctx.app, 'PATCH', `/api/auth/apis/${id}/`, {
      token: auth,
      body: { default_leverage: value },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.field_codes).toEqual({ default_leverage: ['invalid_type'] });
  });

  it.each([
    ['true', true],
    ['"500"', '500'],
  ])('refuses the backtest limit %s', async (_label, value) => {
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
      body: { symbol: 'BTC/USDT:USDT', limit: value },
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toEqual({ limit: ['invalid_type'] });
  });

  it('still reads numbers from query strings', async () => {
    const res = await call(
      ctx.app,
      'GET',
      '/api/trading/market-data/?symbol=BTC/USDT:USDT&timeframe=1h&limit=50',
    );
    expect(res.status).toBe(200);
    expect((res.body as { candles: unknown[] }).candles).toHaveLength(50);
  });

  it('refuses a trade amount given as text', async () => {
    const auth = await token();
    const id = await createPaperAccount(ctx.app, auth);
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/bots/', {
      token: auth,
      body: botBody(id, { trade_amount: '100' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toEqual({ trade_amount: ['invalid_type'] });
  });
});

describe('money bounds and steps', () => {
  it.each([
    ['5e-324', 5e-324, 'too_small'],
    ['99.99', 99.99, 'too_small'],
    ['1e9', 1e9, 'too_big'],
    ['100.001', 100.001, 'invalid_step'],
  ])('refuses paper_balance %s', async (_label, value, code) => {
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/apis/', {
      token: await token(),
      body: account({ paper_balance: value }),
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toEqual({ paper_balance: [code] });
  });

  it('accepts paper_balance 100 and 1234.56', async () => {
    const auth = await token();
    for (const value of [100, 1234.56]) {
      const res = await call(ctx.app, 'POST', '/api/auth/apis/', {
        token: auth,
        body: account({ paper_balance: value }),
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ paper_balance: String(value) });
    }
  });

  it.each([
    ['5', 5, 'too_small'],
    ['10.001', 10.001, 'invalid_step'],
    ['1e12', 1e12, 'too_big'],
  ])('refuses trade_amount %s', async (_label, value, code) => {
    const auth = await token();
    const id = await createPaperAccount(ctx.app, auth);
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/bots/', {
      token: auth,
      body: botBody(id, { trade_amount: value }),
    });
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toEqual({ trade_amount: [code] });
  });
});

describe('field codes', () => {
  it('carries one code per message, same keys, for schema errors', async () => {
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/register/', {
      body: { email: 'not-an-email', password: 'short', extra: 1 },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.field_codes)).toEqual(Object.keys(res.body.fields));
    expect(res.body.field_codes).toMatchObject({
      email: ['invalid_email'],
      password: ['too_short'],
      password2: ['required'],
      extra: ['unknown_field'],
    });
  });

  it('names enum, integer, range and format errors', async () => {
    const auth = await token();
    const id = await createPaperAccount(ctx.app, auth);
    const res = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/bots/', {
      token: auth,
      body: botBody(id, {
        timeframe: '2h',
        strategy: 1.5,
        stop_loss_percentage: 60,
        symbol: 'btc-usdt',
      }),
    });
    expect(res.body.field_codes).toEqual({
      timeframe: ['invalid_choice'],
      strategy: ['not_integer'],
      stop_loss_percentage: ['too_big'],
      symbol: ['invalid_format'],
    });
  });

  it("carries the server's own rules", async () => {
    const mismatch = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/register/', {
      body: {
        email: uniqueEmail('mismatch'),
        password: 'long enough pass',
        password2: 'another long pass',
        invitation_code: 'NOSUCH',
      },
    });
    expect(mismatch.body.field_codes).toEqual({
      password2: ['password_mismatch'],
      invitation_code: ['invalid_invitation_code'],
    });

    const auth = await token();
    const bot = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/bots/', {
      token: auth,
      body: botBody(999_999, { strategy: 99 }),
    });
    expect(bot.body.field_codes).toEqual({
      exchange_api: ['unknown_account'],
      strategy: ['unknown_strategy'],
    });

    const live = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/apis/', {
      token: auth,
      body: { name: 'Live', exchange: 'okx', default_leverage: 3 },
    });
    expect(live.body.field_codes).toEqual({
      api_key: ['required'],
      api_secret: ['required'],
      api_password: ['required'],
    });

    const parameters = await call<ErrorBody>(ctx.app, 'POST', '/api/trading/backtest/', {
      body: {
        symbol: 'BTC/USDT:USDT',
        parameters: { fast_period: 7.5, nonsense: 1, slow_period: 'x' },
      },
    });
    expect(parameters.body.field_codes).toEqual({
      'parameters.nonsense': ['unknown_parameter'],
      'parameters.fast_period': ['not_integer'],
      'parameters.slow_period': ['invalid_type'],
    });

    const code = await call<ErrorBody>(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: 'call me' },
    });
    expect(code.body.field_codes).toEqual({ target: ['invalid_phone'] });
  });

  it('answers query string errors with codes too', async () => {
    const res = await call<ErrorBody>(ctx.app, 'GET', '/api/trading/market-data/?limit=5000');
    expect(res.body.field_codes).toEqual({ symbol: ['required'], limit: ['too_big'] });
  });
});
