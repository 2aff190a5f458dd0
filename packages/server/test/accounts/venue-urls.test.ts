// EXCHANGE_URL_BINANCE / EXCHANGE_URL_OKX: a live account's venue is where the operator says (a
// regional host, a stand-in venue). With the variable set, adding the account, its connection
// check and its reads go to that address through the app's own client factory.
import type { ConnectionTestResponse } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, createTestApp, TEST_SECRET_KEY, type TestApp } from '../helpers/test-app.js';

let okx: FakePrivateExchange;
let ctx: TestApp;
beforeAll(async () => {
  okx = await startFakeExchange({ exchange: 'okx' });
  // The app's own factory (no test double): only the variable points it at the stand-in.
  ctx = await createTestApp({ env: { EXCHANGE_URL_OKX: `${okx.url}/` } });
});
afterAll(async () => {
  await ctx?.close();
  await okx?.close();
});

describe('a venue base URL from the configuration', () => {
  it('is read once, without its trailing slash, and refuses what is not http(s)', () => {
    const config = loadConfig(
      { SECRET_KEY: TEST_SECRET_KEY, EXCHANGE_URL_BINANCE: 'https://fapi.example.test/' },
      { generateSecret: false },
    );
    expect(config.exchangeUrls).toEqual({ binance: 'https://fapi.example.test' });
    expect(() =>
      loadConfig(
        { SECRET_KEY: TEST_SECRET_KEY, EXCHANGE_URL_OKX: 'ftp://okx.example.test' },
        { generateSecret: false },
      ),
    ).toThrow(/EXCHANGE_URL_OKX/);
  });

  it('sends a live OKX account and its connection check to the configured venue', async () => {
    const { access } = await registerEmail(ctx.app, uniqueEmail('venue-url'));
    const before = okx.calls.length;
    const created = await call(ctx.app, 'POST', '/api/auth/apis/', {
      token: access,
      body: {
        name: 'OKX',
        exchange: 'okx',
        api_key: 'venue-url-key-1234567890',
        api_secret: 'venue-url-secret-0987654321',
        api_password: 'venue-url-pass',
        default_leverage: 3,
      },
    });
    expect(created.status).toBe(201);
    const checked = await call<ConnectionTestResponse>(
      ctx.app,
      'POST',
      `/api/auth/apis/${created.body.id}/test_connection/`,
      { token: access },
    );
    expect(checked.body).toMatchObject({ success: true, error_kind: null });
    const paths = okx.calls.slice(before).map((c) => c.path);
    expect(paths).toContain('/api/v5/public/instruments');
    expect(paths.some((p) => p.startsWith('/api/v5/account/'))).toBe(true);
    // The key went with the requests to the stand-in, never anywhere else.
    expect(
      okx.calls
        .slice(before)
        .some((c) => c.headers['ok-access-key'] === 'venue-url-key-1234567890'),
    ).toBe(true);
  });
});
