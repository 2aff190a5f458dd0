// A live key is checked when it is added or changed (issue: junk keys were shown as 'Normal'
// until the user pressed Test): the answer and the list carry the check's verdict. The checks
// go to a local fake of Binance's API through the real ccxt client.
import type { ExchangeApi } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, createTestApp, type TestApp } from '../helpers/test-app.js';

const ACCOUNT = '/fapi/v3/account';
const INVALID_KEY = {
  kind: 'http',
  status: 401,
  body: { code: -2014, msg: 'API-key format invalid.' },
} as const;

let fake: FakePrivateExchange;
let ctx: TestApp;
let token: string;
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
  ctx = await createTestApp({ env: { EXCHANGE_URL_BINANCE: fake.url } });
  token = (await registerEmail(ctx.app, uniqueEmail('check-on-add'))).access;
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const add = (apiKey: string, apiSecret: string) =>
  call<ExchangeApi>(ctx.app, 'POST', '/api/auth/apis/', {
    token,
    body: {
      name: 'Binance',
      exchange: 'binance',
      api_key: apiKey,
      api_secret: apiSecret,
      default_leverage: 3,
    },
  });
const listed = async (id: number) =>
  (
    await call<{ results: ExchangeApi[] }>(ctx.app, 'GET', '/api/auth/apis/', { token })
  ).body.results.find((a) => a.id === id);

describe('adding a live exchange API', () => {
  it('checks a key the exchange refuses at once: saved, but not active and with the kind', async () => {
    const before = fake.calls.length;
    fake.failNext('GET', ACCOUNT, INVALID_KEY);
    const res = await add('abc', 'def');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(fake.calls.slice(before).map((c) => c.path)).toContain(ACCOUNT);
    const verdict = {
      is_active: false,
      is_enabled: true,
      last_check_ok: false,
      last_error_kind: 'invalid_key',
      last_checked_at: ctx.clock.now().toISOString(),
    };
    expect(res.body).toMatchObject(verdict);
    expect(await listed(res.body.id)).toMatchObject(verdict);
  });

  it('shows a key that works as checked and active', async () => {
    const res = await add('good-key-1234567890', 'good-secret-0987654321');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ is_active: true, last_check_ok: true, last_error: null });
    expect(res.body.last_checked_at).not.toBeNull();
  });

  it('checks new keys of an account again when they are changed', async () => {
    const created = await add('first-key-1234567890', 'first-secret-0987654321');
    expect(created.body.last_check_ok).toBe(true);
    fake.failNext('GET', ACCOUNT, INVALID_KEY);
    const changed = await call<ExchangeApi>(
      ctx.app,
      'PATCH',
      `/api/auth/apis/${created.body.id}/`,
      { token, body: { api_key: 'xyz', api_secret: 'uvw' } },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      is_active: false,
      last_check_ok: false,
      last_error_kind: 'invalid_key',
    });
    // A change of the name only is no new key: nothing is checked.
    const before = fake.calls.length;
    const renamed = await call<ExchangeApi>(
      ctx.app,
      'PATCH',
      `/api/auth/apis/${created.body.id}/`,
      { token, body: { name: 'Renamed' } },
    );
    expect(renamed.body.last_check_ok).toBe(false);
    expect(fake.calls.length).toBe(before);
  });
});
