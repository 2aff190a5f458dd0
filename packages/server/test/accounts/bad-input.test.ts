import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { scriptedFactory } from '../helpers/exchange-doubles.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: (deps) => scriptedFactory(deps),
});

let token: string;
let paperId: number;
beforeAll(async () => {
  token = (await registerEmail(ctx.app, uniqueEmail('bad'))).access;
  const res = await call(ctx.app, 'POST', '/api/auth/apis/', {
    token,
    body: { name: 'Paper', exchange: 'binance', is_paper: true, default_leverage: 1 },
  });
  paperId = Number(res.body.id);
});

const live = {
  name: 'Live',
  exchange: 'binance',
  api_key: 'key-12345678',
  api_secret: 'sec',
  default_leverage: 5,
};
const huge = 'x'.repeat(10_000);

type Fields = Record<string, string[]>;

const createCases: [string, unknown, string][] = [
  ['no name', { ...live, name: undefined }, 'name'],
  ['a blank name', { ...live, name: '   ' }, 'name'],
  ['a name too long', { ...live, name: 'n'.repeat(51) }, 'name'],
  ['no exchange', { ...live, exchange: undefined }, 'exchange'],
  ['an unknown exchange', { ...live, exchange: 'kraken' }, 'exchange'],
  ['a live account without api_key', { ...live, api_key: undefined }, 'api_key'],
  ['a live account without api_secret', { ...live, api_secret: undefined }, 'api_secret'],
  ['an empty api_key', { ...live, api_key: '' }, 'api_key'],
  ['OKX live without api_password', { ...live, exchange: 'okx' }, 'api_password'],
  [
    'OKX live with a blank api_password',
    { ...live, exchange: 'okx', api_password: ' ' },
    'api_password',
  ],
  ['no default_leverage', { ...live, default_leverage: undefined }, 'default_leverage'],
  ['leverage 0', { ...live, default_leverage: 0 }, 'default_leverage'],
  ['leverage 126', { ...live, default_leverage: 126 }, 'default_leverage'],
  ['leverage 1.5', { ...live, default_leverage: 1.5 }, 'default_leverage'],
  ['leverage as words', { ...live, default_leverage: 'ten' }, 'default_leverage'],
  ['a wrong type of is_paper', { ...live, is_paper: 'yes' }, 'is_paper'],
  ['a wrong position_mode', { ...live, position_mode: 'oneway' }, 'position_mode'],
  ['a wrong account_type', { ...live, account_type: 'margin' }, 'account_type'],
  ['a huge api_key', { ...live, api_key: huge }, 'api_key'],
  ['a huge api_secret', { ...live, api_secret: huge }, 'api_secret'],
  ['a huge api_password', { ...live, exchange: 'okx', api_password: huge }, 'api_password'],
  ['an unknown field', { ...live, withdraw: true }, 'withdraw'],
  ['a negative paper_balance', { ...live, is_paper: true, paper_balance: -5 }, 'paper_balance'],
  ['a paper_balance too large', { ...live, is_paper: true, paper_balance: 1e12 }, 'paper_balance'],
];

describe('POST /api/auth/apis/ refuses bad input with field errors', () => {
  it.each(createCases)('refuses %s', async (_label, body, field) => {
    const res = await call<{ fields: Fields }>(ctx.app, 'POST', '/api/auth/apis/', { token, body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toContain(field);
  });

  it("answers 'This field is required' on api_key, api_secret and api_password", async () => {
    const res = await call<{ fields: Fields }>(ctx.app, 'POST', '/api/auth/apis/', {
      token,
      body: { name: 'OKX', exchange: 'okx', default_leverage: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      api_key: ['This field is required'],
      api_secret: ['This field is required'],
      api_password: ['This field is required'],
    });
  });

  it('refuses a body that is not an object, malformed JSON and an empty body', async () => {
    for (const payload of [[], 'text', 42, null]) {
      const res = await call(ctx.app, 'POST', '/api/auth/apis/', {
        token,
        body: JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    }
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/apis/',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    const empty = await call(ctx.app, 'POST', '/api/auth/apis/', { token });
    expect(empty.status).toBe(400);
  });

  it('refuses a body over the size limit without a 5xx', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/apis/', {
      token,
      body: { ...live, name: 'x'.repeat(2_000_000) },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('PATCH /api/auth/apis/{id}/ refuses bad input', () => {
  const patchCases: [string, unknown, string][] = [
    ['leverage 0', { default_leverage: 0 }, 'default_leverage'],
    ['leverage 126', { default_leverage: 126 }, 'default_leverage'],
    ['leverage 1.5', { default_leverage: 1.5 }, 'default_leverage'],
    ['a blank name', { name: '' }, 'name'],
    ['an empty api_secret', { api_secret: '' }, 'api_secret'],
    ['a change of exchange', { exchange: 'okx' }, 'exchange'],
    ['a change of is_paper', { is_paper: false }, 'is_paper'],
    ['a wrong type', { is_active: 'no' }, 'is_active'],
  ];
  it.each(patchCases)('refuses %s', async (_label, body, field) => {
    const res = await call<{ fields: Fields }>(ctx.app, 'PATCH', `/api/auth/apis/${paperId}/`, {
      token,
      body,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toContain(field);
  });
});

describe('account ids in paths', () => {
  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the id %s with a 400', async (id) => {
    const res = await call(ctx.app, 'GET', `/api/auth/apis/${id}/`, { token });
    expect(res.status).toBe(400);
  });

  it('answers 404 for an id nobody has', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/apis/2147483647/'],
      ['POST', '/api/auth/apis/2147483647/test_connection/'],
      ['POST', '/api/trading/accounts/2147483647/refresh/'],
    ] as const) {
      expect((await call(ctx.app, method, url, { token })).status).toBe(404);
    }
  });
});
