// Step-up for money and keys: a user with 2FA on confirms a withdrawal and a new webhook key
// with an authenticator code (the login's check and lock); users without 2FA are not asked.
import { LOGIN_MAX_FAILURES } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { walletTransactions } from '../../src/db/schema/index.js';
import { enableTwoFactor, totpAt } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  adjust,
  balanceOf,
  newUser,
  TRC20_ADDRESS,
  useLedgerCheck,
  type WalletUser,
} from '../helpers/wallet-flows.js';
import { createConfig } from '../webhooks/webhook-flows.js';

const t = useTestApp({ env: { MARKET_DATA: 'simulated' } });
useLedgerCheck(t);

const withdraw = (user: WalletUser, body: Record<string, unknown> = {}) =>
  call(t.app, 'POST', '/api/auth/withdraw/', {
    token: user.access,
    body: { amount: 10, address: TRC20_ADDRESS, network: 'TRC20', ...body },
  });

const withdrawals = async (user: WalletUser) =>
  (
    await t.database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, user.id))
  ).filter((row) => row.type === 'withdraw');

async function twoFactorUser(coins = '50') {
  const user = await newUser(t, { prefix: 'step-up' });
  if (Number(coins) > 0) await adjust(t, user.email, coins);
  const secret = await enableTwoFactor(t.app, t.clock, user.access);
  return { user, secret };
}

describe('a withdrawal of a user with 2FA on', () => {
  it('is refused without a code, with a field error and its code, and debits nothing', async () => {
    const { user } = await twoFactorUser();
    const res = await withdraw(user);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'google_code_required',
      needs_google_auth: true,
      fields: { google_code: ['Google authentication code required'] },
      field_codes: { google_code: ['required'] },
    });
    expect(await balanceOf(t, user)).toBe('50.00000000');
    expect(await withdrawals(user)).toHaveLength(0);
  });

  it('is refused with a wrong code and made with the right one', async () => {
    const { user, secret } = await twoFactorUser();
    const wrong = await withdraw(user, { google_code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      code: 'invalid_google_code',
      field_codes: { google_code: ['invalid_google_code'] },
    });
    expect(await balanceOf(t, user)).toBe('50.00000000');

    const code = await totpAt(secret, t.clock);
    const ok = await withdraw(user, { google_code: code, request_id: 'step-up-1' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(await balanceOf(t, user)).toBe('40.00000000');
    // The same code is accepted once; a retry of the same request is answered without one.
    const reused = await withdraw(user, { google_code: code, amount: 5 });
    expect(reused.body).toMatchObject({ code: 'invalid_google_code' });
    const retried = await withdraw(user, { request_id: 'step-up-1' });
    expect(retried.status).toBe(201);
    expect(await withdrawals(user)).toHaveLength(1);
  });

  it('locks after a few wrong codes, as a login does (429), even for the right code', async () => {
    const { user, secret } = await twoFactorUser();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      expect((await withdraw(user, { google_code: '000000' })).status).toBe(400);
    }
    const locked = await withdraw(user, { google_code: await totpAt(secret, t.clock) });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'account_locked' });
    expect(await balanceOf(t, user)).toBe('50.00000000');
  });

  it('is not asked of a user without 2FA', async () => {
    const user = await newUser(t, { prefix: 'no-2fa' });
    await adjust(t, user.email, '50');
    expect((await withdraw(user)).status).toBe(201);
  });
});

describe('regenerating a webhook key of a user with 2FA on', () => {
  it('needs a valid code; the old URL stays until then', async () => {
    const { user, secret } = await twoFactorUser('0');
    const accounts = await call<{ results: { id: number }[] }>(t.app, 'GET', '/api/auth/apis/', {
      token: user.access,
    });
    const config = await createConfig(t.app, user.access, accounts.body.results[0]!.id);
    const url = `/api/webhook-trading/configs/${config.id}/regenerate-key/`;
    const without = await call(t.app, 'POST', url, { token: user.access });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ field_codes: { google_code: ['required'] } });
    const wrong = await call(t.app, 'POST', url, {
      token: user.access,
      body: { google_code: '000000' },
    });
    expect(wrong.body).toMatchObject({ field_codes: { google_code: ['invalid_google_code'] } });
    const shown = await call<{ key_hint: string }>(
      t.app,
      'GET',
      `/api/webhook-trading/configs/${config.id}/`,
      { token: user.access },
    );
    expect(shown.body.key_hint).toBe(config.body.key_hint);

    const ok = await call<{ key_visible: boolean; webhook_url: string }>(t.app, 'POST', url, {
      token: user.access,
      body: { google_code: await totpAt(secret, t.clock) },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.key_visible).toBe(true);
    expect(ok.body.webhook_url).not.toBe(config.body.webhook_url);
  });

  it('is not asked of a user without 2FA', async () => {
    const user = await newUser(t, { prefix: 'no-2fa' });
    const accounts = await call<{ results: { id: number }[] }>(t.app, 'GET', '/api/auth/apis/', {
      token: user.access,
    });
    const config = await createConfig(t.app, user.access, accounts.body.results[0]!.id);
    const res = await call(
      t.app,
      'POST',
      `/api/webhook-trading/configs/${config.id}/regenerate-key/`,
      { token: user.access },
    );
    expect(res.status).toBe(200);
  });
});
