// Adding or changing a live exchange key asks a user with 2FA on for an authenticator code
// (the login's check and lock); paper accounts and users without 2FA are not asked. Live keys
// go to a local fake of Binance's API.
import type { ExchangeApi } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { enableTwoFactor, registerEmail, totpAt, uniqueEmail } from '../helpers/auth-flows.js';
import { call, createTestApp, type TestApp } from '../helpers/test-app.js';

let fake: FakePrivateExchange;
let ctx: TestApp;
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
  ctx = await createTestApp({ env: { EXCHANGE_URL_BINANCE: fake.url } });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const LIVE = {
  name: 'Live',
  exchange: 'binance',
  api_key: 'step-up-key-1234567890',
  api_secret: 'step-up-secret-0987654321',
  default_leverage: 3,
};
const add = (token: string, body: Record<string, unknown>) =>
  call<ExchangeApi>(ctx.app, 'POST', '/api/auth/apis/', { token, body });
const names = async (token: string) =>
  (
    await call<{ results: ExchangeApi[] }>(ctx.app, 'GET', '/api/auth/apis/', { token })
  ).body.results.map((a) => a.name);

describe('exchange keys of a user with 2FA on', () => {
  it('are added only with a valid code; nothing is saved before', async () => {
    const { access } = await registerEmail(ctx.app, uniqueEmail('keys-2fa'));
    const secret = await enableTwoFactor(ctx.app, ctx.clock, access);
    const without = await add(access, LIVE);
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({
      code: 'google_code_required',
      field_codes: { google_code: ['required'] },
    });
    const wrong = await add(access, { ...LIVE, google_code: '000000' });
    expect(wrong.body).toMatchObject({
      code: 'invalid_google_code',
      field_codes: { google_code: ['invalid_google_code'] },
    });
    expect(await names(access)).not.toContain('Live');

    const ok = await add(access, { ...LIVE, google_code: await totpAt(secret, ctx.clock) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // A paper account has no key: no code asked.
    expect((await add(access, { ...LIVE, name: 'Paper', is_paper: true })).status).toBe(201);

    // New keys need a new code; a rename does not.
    const url = `/api/auth/apis/${ok.body.id}/`;
    const newKeys = { api_key: 'other-key-1234567890', api_secret: 'other-secret-0987654321' };
    const refused = await call(ctx.app, 'PATCH', url, { token: access, body: newKeys });
    expect(refused.body).toMatchObject({ code: 'google_code_required' });
    expect((await call(ctx.app, 'PATCH', url, { token: access, body: { name: 'R' } })).status).toBe(
      200,
    );
    ctx.clock.advanceSeconds(60);
    const changed = await call<ExchangeApi>(ctx.app, 'PATCH', url, {
      token: access,
      body: { ...newKeys, google_code: await totpAt(secret, ctx.clock) },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.api_key).toBe('othe…7890');
  });

  it('are not asked for a code without 2FA', async () => {
    const { access } = await registerEmail(ctx.app, uniqueEmail('keys-no-2fa'));
    expect((await add(access, LIVE)).status).toBe(201);
  });
});
