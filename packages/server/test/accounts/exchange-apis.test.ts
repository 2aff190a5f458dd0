import { exchangeApi, exchangeApiList, PAPER_BALANCE_DEFAULT } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { exchangeAccounts } from '../../src/db/schema/index.js';
import type { ExchangeAccountCredentials } from '../../src/exchange/exchange-client-factory.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { scriptedFactory } from '../helpers/exchange-doubles.js';
import { call, useTestApp } from '../helpers/test-app.js';

const seen: ExchangeAccountCredentials[] = [];
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: (deps) => scriptedFactory(deps, undefined, seen),
});

const API_KEY = 'live-key-AAAA-1111-plaintext';
const API_SECRET = 'live-secret-BBBB-2222-plaintext';
const API_PASSWORD = 'okx-pass-CCCC-3333-plaintext';
const SECRETS = [API_KEY, API_SECRET, API_PASSWORD];

let token: string;
beforeAll(async () => {
  token = (await registerEmail(ctx.app, uniqueEmail('apis'))).access;
});

const create = (body: Record<string, unknown>) =>
  call<Record<string, unknown>>(ctx.app, 'POST', '/api/auth/apis/', { token, body });

describe('POST /api/auth/apis/', () => {
  it('creates a paper account with the default 10,000 USDT, hedge mode and classic type', async () => {
    const res = await create({
      name: 'Paper',
      exchange: 'binance',
      is_paper: true,
      default_leverage: 5,
    });
    expect(res.status).toBe(201);
    const body = exchangeApi.parse(res.body);
    expect(body).toMatchObject({
      name: 'Paper',
      is_paper: true,
      position_mode: 'hedge',
      account_type: 'classic',
      paper_balance: String(PAPER_BALANCE_DEFAULT),
      api_key: null,
      has_api_password: false,
      is_active: true,
      last_error: null,
    });
  });

  it('ignores keys sent for a paper account and stores none', async () => {
    const res = await create({
      name: 'Paper with keys',
      exchange: 'okx',
      is_paper: true,
      default_leverage: 3,
      api_key: 'ignored-key-123456',
      api_secret: 'ignored-secret',
      paper_balance: 2500.5,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      api_key: null,
      has_api_password: false,
      paper_balance: '2500.5',
    });
  });

  it('creates a live OKX account with its passphrase, answering only the masked key', async () => {
    const res = await create({
      name: 'OKX live',
      exchange: 'okx',
      api_key: API_KEY,
      api_secret: API_SECRET,
      api_password: API_PASSWORD,
      default_leverage: 10,
      position_mode: 'net',
      account_type: 'unified',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      api_key: 'live…text',
      has_api_password: true,
      paper_balance: null,
      position_mode: 'net',
      account_type: 'unified',
    });
    for (const secret of SECRETS) expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it('masks a key of 8 characters or fewer completely', async () => {
    const res = await create({
      name: 'Short key',
      exchange: 'binance',
      api_key: 'abcd1234',
      api_secret: 'short-secret',
      default_leverage: 1,
    });
    expect(res.status).toBe(201);
    expect(res.body.api_key).toBe('****');
  });

  it('drops api_password for binance', async () => {
    const res = await create({
      name: 'Binance',
      exchange: 'binance',
      api_key: 'binance-key-0001',
      api_secret: 'binance-secret',
      api_password: 'not-for-binance',
      default_leverage: 20,
    });
    expect(res.status).toBe(201);
    expect(res.body.has_api_password).toBe(false);
    const id = Number(res.body.id);
    await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token });
    expect(seen.find((a) => a.id === id)?.apiPassword).toBeNull();
  });

  it('hands the decrypted keys and testnet flag to the exchange client', async () => {
    const res = await create({
      name: 'Testnet',
      exchange: 'okx',
      api_key: 'testnet-key-000111',
      api_secret: 'testnet-secret',
      api_password: 'testnet-pass',
      is_testnet: true,
      default_leverage: 2,
    });
    const id = Number(res.body.id);
    await call(ctx.app, 'GET', `/api/auth/apis/${id}/balance/`, { token });
    expect(seen.find((a) => a.id === id)).toMatchObject({
      apiKey: 'testnet-key-000111',
      apiSecret: 'testnet-secret',
      apiPassword: 'testnet-pass',
      isTestnet: true,
      isPaper: false,
      positionMode: 'hedge',
    });
  });
});

describe('GET, PATCH and DELETE /api/auth/apis/{id}/', () => {
  it('lists the accounts as {results, count}', async () => {
    const res = await call(ctx.app, 'GET', '/api/auth/apis/', { token });
    expect(res.status).toBe(200);
    const body = exchangeApiList.parse(res.body);
    expect(body.count).toBe(body.results.length);
    expect(body.count).toBeGreaterThanOrEqual(5);
  });

  it('reads, edits and deletes an account', async () => {
    const created = await create({
      name: 'Editable',
      exchange: 'binance',
      is_paper: true,
      default_leverage: 1,
    });
    const id = Number(created.body.id);
    const one = await call(ctx.app, 'GET', `/api/auth/apis/${id}/`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, name: 'Editable' });

    const patched = await call(ctx.app, 'PATCH', `/api/auth/apis/${id}/`, {
      token,
      body: { name: 'Renamed', default_leverage: 125, position_mode: 'net', is_active: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Renamed',
      default_leverage: 125,
      position_mode: 'net',
      is_active: false,
    });

    const deleted = await call(ctx.app, 'DELETE', `/api/auth/apis/${id}/`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      success: true,
      message: 'API deleted',
      deleted_bots: [],
      closed_positions: [],
    });
    expect((await call(ctx.app, 'GET', `/api/auth/apis/${id}/`, { token })).status).toBe(404);
    expect((await call(ctx.app, 'DELETE', `/api/auth/apis/${id}/`, { token })).status).toBe(404);
  });

  it('replaces the keys of a live account on PATCH and clears its last error', async () => {
    const created = await create({
      name: 'Rekey',
      exchange: 'binance',
      api_key: 'bad-key-000000001',
      api_secret: 'secret',
      default_leverage: 1,
    });
    const id = Number(created.body.id);
    const failed = await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token });
    expect(failed.body.success).toBe(false);
    expect(
      (await call(ctx.app, 'GET', `/api/auth/apis/${id}/`, { token })).body.last_error,
    ).toMatch(/^Invalid API key or permissions/);
    const patched = await call(ctx.app, 'PATCH', `/api/auth/apis/${id}/`, {
      token,
      body: { api_key: 'good-key-000000002', api_secret: 'new-secret' },
    });
    expect(patched.body).toMatchObject({ api_key: 'good…0002', last_error: null });
    const ok = await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token });
    expect(ok.body).toEqual({
      success: true,
      message: 'Connection successful',
      error_kind: null,
    });
  });

  it('needs a login for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/apis/'],
      ['POST', '/api/auth/apis/'],
      ['GET', '/api/auth/apis/1/'],
      ['POST', '/api/auth/apis/1/test_connection/'],
      ['GET', '/api/trading/accounts/'],
    ] as const) {
      expect((await call(ctx.app, method, url, { body: {} })).status).toBe(401);
    }
  });
});

describe('test_connection, validate and balance', () => {
  const liveAccount = async (apiKey: string) =>
    Number(
      (
        await create({
          name: `Live ${apiKey}`,
          exchange: 'binance',
          api_key: apiKey,
          api_secret: 'some-secret',
          default_leverage: 3,
        })
      ).body.id,
    );

  it('answers a paper account: connection successful, trade-only key, 10,000 USDT', async () => {
    const created = await create({
      name: 'Paper checks',
      exchange: 'binance',
      is_paper: true,
      default_leverage: 1,
    });
    const id = Number(created.body.id);
    expect(
      (await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token })).body,
    ).toEqual({
      success: true,
      message: 'Connection successful',
      error_kind: null,
    });
    expect((await call(ctx.app, 'POST', `/api/auth/apis/${id}/validate/`, { token })).body).toEqual(
      {
        success: true,
        message: 'API key is valid',
        error_kind: null,
        permissions: { can_trade: true, can_withdraw: false, ip_restricted: null },
        warnings: [],
      },
    );
    expect((await call(ctx.app, 'GET', `/api/auth/apis/${id}/balance/`, { token })).body).toEqual({
      success: true,
      balance: { USDT: { total: '10000', free: '10000', used: '0' } },
      message: 'Balance fetched',
      error_kind: null,
    });
  });

  it('warns about a key that can withdraw and has no IP allowlist', async () => {
    const id = await liveAccount('withdraw-key-00001');
    const res = await call(ctx.app, 'POST', `/api/auth/apis/${id}/validate/`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      permissions: { can_trade: true, can_withdraw: true, ip_restricted: false },
    });
    expect(res.body.warnings).toContain(
      'This key can withdraw funds: we recommend a trade-only key with an IP allowlist',
    );
  });

  it('answers success:false with a clear message for an invalid key, never a 5xx', async () => {
    const id = await liveAccount('bad-key-000000003');
    const test = await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token });
    expect(test.status).toBe(200);
    expect(test.body.success).toBe(false);
    expect(test.body.message).toMatch(/^Invalid API key or permissions/);
    const validate = await call(ctx.app, 'POST', `/api/auth/apis/${id}/validate/`, { token });
    expect(validate.status).toBe(200);
    expect(validate.body).toMatchObject({
      success: false,
      permissions: { can_trade: null, can_withdraw: null, ip_restricted: null },
      warnings: [],
    });
    const balance = await call(ctx.app, 'GET', `/api/auth/apis/${id}/balance/`, { token });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ success: false, balance: {} });
    expect(balance.body.message).toMatch(/^Invalid API key or permissions/);
  });

  it('tells the user to try later when the exchange is unavailable', async () => {
    const id = await liveAccount('down-key-00000004');
    const test = await call(ctx.app, 'POST', `/api/auth/apis/${id}/test_connection/`, { token });
    expect(test.status).toBe(200);
    expect(test.body.success).toBe(false);
    expect(test.body.message).toMatch(/^Exchange unavailable, try again later/);
  });

  it('answers a live account balance per currency', async () => {
    const id = await liveAccount('good-key-00000005');
    const res = await call(ctx.app, 'GET', `/api/auth/apis/${id}/balance/`, { token });
    expect(res.body).toEqual({
      success: true,
      balance: { USDT: { total: '500', free: '400', used: '100' } },
      message: 'Balance fetched',
      error_kind: null,
    });
  });
});

describe('secrets at rest', () => {
  it('stores no plaintext key, secret or passphrase and answers none of them', async () => {
    const created = await create({
      name: 'Secret check',
      exchange: 'okx',
      api_key: API_KEY,
      api_secret: API_SECRET,
      api_password: API_PASSWORD,
      default_leverage: 1,
    });
    expect(created.status).toBe(201);
    // Every column of every row, as the database holds them.
    const rows = await ctx.database.db.select().from(exchangeAccounts);
    const dump = JSON.stringify(rows);
    for (const secret of SECRETS) expect(dump).not.toContain(secret);
    const stored = rows.find((r) => r.id === created.body.id);
    expect(stored?.apiSecretEncrypted).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(stored?.apiPasswordEncrypted).toMatch(/^v1:/);

    const answers = [
      await call(ctx.app, 'GET', '/api/auth/apis/', { token }),
      await call(ctx.app, 'GET', `/api/auth/apis/${created.body.id}/`, { token }),
      await call(ctx.app, 'PATCH', `/api/auth/apis/${created.body.id}/`, {
        token,
        body: { name: 'x' },
      }),
      await call(ctx.app, 'POST', `/api/auth/apis/${created.body.id}/validate/`, { token }),
      await call(ctx.app, 'GET', '/api/trading/accounts/', { token }),
    ];
    for (const answer of answers) {
      for (const secret of SECRETS) expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
  });
});
