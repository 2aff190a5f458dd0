// Exchange checks answer the failure's kind, the account's status follows its last check, and a
// check is bounded in time (issue 8, item 14), through the real ccxt client against a local fake
// of Binance's API.
import type { ConnectionTestResponse, ExchangeApi } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { FixedPrices } from '../helpers/exchange-doubles.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

const ACCOUNT = '/fapi/v3/account';
const MARKETS = '/fapi/v1/exchangeInfo';
const CHECK_BOUND_MS = 400;

let fake: FakePrivateExchange;
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
});
afterAll(async () => {
  await fake.close();
});

const ctx = useTestApp({
  config: { exchangeCheckTimeoutMs: CHECK_BOUND_MS },
  exchangeClientFactory: ({ database, clock }) =>
    createExchangeClientFactory({
      paperBalances: writePaperBalances,
      db: database.db,
      clock,
      prices: new FixedPrices(),
      paperSlippageBps: 2,
      createLiveClient: (options) =>
        createCcxtExchangeClient({ ...options, urlsOverride: fake.url }),
    }),
});

let token: string;
let accountId: number;
beforeAll(async () => {
  token = (await registerEmail(ctx.app, uniqueEmail('checks'))).access;
  const created = await call(ctx.app, 'POST', '/api/auth/apis/', {
    token,
    body: {
      name: 'Binance',
      exchange: 'binance',
      api_key: 'fake-key-1234567890',
      api_secret: 'fake-secret-0987654321',
      default_leverage: 5,
    },
  });
  accountId = Number(created.body.id);
});

const account = async () =>
  (await call<ExchangeApi>(ctx.app, 'GET', `/api/auth/apis/${accountId}/`, { token })).body;
const testConnection = () =>
  call<ConnectionTestResponse>(ctx.app, 'POST', `/api/auth/apis/${accountId}/test_connection/`, {
    token,
  });

describe('the status of an exchange account', () => {
  it('is normal after a successful check, with its time', async () => {
    const res = await testConnection();
    expect(res.body).toEqual({
      success: true,
      message: 'Connection successful',
      error_kind: null,
    });
    expect(await account()).toMatchObject({
      is_active: true,
      is_enabled: true,
      last_check_ok: true,
      last_error: null,
      last_error_kind: null,
      last_checked_at: ctx.clock.now().toISOString(),
    });
  });

  it('follows a failed check: the kind, the detail on demand, not active', async () => {
    fake.failNext('GET', ACCOUNT, {
      kind: 'http',
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    const res = await testConnection();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, error_kind: 'invalid_key' });
    expect(res.body.message).toMatch(/^Invalid API key or permissions: .*-2015/);
    expect(await account()).toMatchObject({
      is_active: false,
      is_enabled: true,
      last_check_ok: false,
      last_error_kind: 'invalid_key',
      last_error: res.body.message,
    });
    // The overview's load is a check too: it says the kind and does not count the account.
    fake.failNext('GET', ACCOUNT, {
      kind: 'http',
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    const overview = await call<{
      accounts: { id: number; is_active: boolean; error_kind: string | null }[];
      total: { active_count: number };
    }>(ctx.app, 'GET', '/api/trading/accounts/', { token });
    expect(overview.body.accounts.find((a) => a.id === accountId)).toMatchObject({
      is_active: false,
      error_kind: 'invalid_key',
    });
    expect(overview.body.total.active_count).toBe(1); // the experience account only
  });

  it('is normal again after the next successful check', async () => {
    expect(
      (await call(ctx.app, 'GET', `/api/auth/apis/${accountId}/balance/`, { token })).body,
    ).toMatchObject({ success: true, error_kind: null });
    expect(await account()).toMatchObject({ is_active: true, last_check_ok: true });
  });

  it('answers the kind on validate and balance failures too', async () => {
    // Answers that are final at once (no retry), so nothing is left for the next call.
    fake.failNext('GET', ACCOUNT, {
      kind: 'http',
      status: 400,
      body: { code: -1100, msg: 'Illegal characters found in a parameter.' },
    });
    const balance = await call(ctx.app, 'GET', `/api/auth/apis/${accountId}/balance/`, { token });
    expect(balance.body).toMatchObject({
      success: false,
      error_kind: 'invalid_order',
      balance: {},
    });
    fake.failNext('GET', ACCOUNT, {
      kind: 'http',
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    const validate = await call(ctx.app, 'POST', `/api/auth/apis/${accountId}/validate/`, {
      token,
    });
    expect(validate.body).toMatchObject({ success: false, error_kind: 'invalid_key' });
  });
});

describe('a check of an exchange that does not answer', () => {
  it('answers unavailable within its bound instead of waiting for the exchange', async () => {
    // Markets may be loaded already (clients are cached per account): the balance hangs too.
    fake.failNext('GET', MARKETS, { kind: 'hang' }, 10);
    fake.failNext('GET', ACCOUNT, { kind: 'hang' }, 10);
    const res = await testConnection();
    expect(res.body).toEqual({
      success: false,
      error_kind: 'unavailable',
      message: `Exchange unavailable, try again later: No answer within ${CHECK_BOUND_MS} ms`,
    });
    expect(await account()).toMatchObject({ is_active: false, last_error_kind: 'unavailable' });
  });

  it('is bounded at 5 seconds by default', () => {
    const config = loadConfig(
      { NODE_ENV: 'test', SECRET_KEY: TEST_SECRET_KEY },
      { generateSecret: false },
    );
    expect(config.exchangeCheckTimeoutMs).toBeLessThanOrEqual(5_000);
  });
});
