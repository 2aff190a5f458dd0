import { describe, expect, it } from 'vitest';
import {
  enableTwoFactor,
  freshLoginCode,
  PASSWORD,
  registerEmail,
  registerPhone,
  totpAt,
  uniqueEmail,
  uniquePhone,
} from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

const login = (body: Record<string, unknown>) =>
  call(ctx.app, 'POST', '/api/auth/login/', { body });
const phoneLogin = (body: Record<string, unknown>) =>
  call(ctx.app, 'POST', '/api/auth/phone-login/', { body });
const otherCode = (code: string) => (code === '000000' ? '111111' : '000000');

describe('POST /api/auth/login/ (e-mail)', () => {
  it('signs in with password and e-mail code, answering access, refresh and user', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const res = await login({ email, password: PASSWORD, email_code: code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      access: expect.any(String),
      refresh: expect.any(String),
      user: { email, google_auth_enabled: false },
    });
  });

  it("answers 400 'Invalid email or password' for a wrong password with a valid code", async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const wrong = await login({ email, password: 'wrong password', email_code: code });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    // The code survives a mistyped password.
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
  });

  it('answers an unknown e-mail as a wrong code (no code is ever sent to it)', async () => {
    const unknown = await login({
      email: uniqueEmail('ghost'),
      password: PASSWORD,
      email_code: '123456',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: 'Invalid or expired email verification code',
      code: 'invalid_email_code',
    });
  });

  it("answers 'Email verification code is required' when the code is missing", async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const res = await login({ email, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Email verification code is required',
      code: 'code_required',
    });
  });

  it("answers 'Invalid or expired email verification code' for a wrong code", async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const res = await login({ email, password: PASSWORD, email_code: otherCode(code) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid or expired email verification code',
      code: 'invalid_email_code',
    });
  });

  it('refuses a code older than 5 minutes', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    ctx.clock.advanceSeconds(5 * 60 + 1);
    const res = await login({ email, password: PASSWORD, email_code: code });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Invalid or expired email verification code' });
  });

  it('accepts a code just before it expires', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    ctx.clock.advanceSeconds(5 * 60 - 1);
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
  });

  it('uses a code once', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
    const again = await login({ email, password: PASSWORD, email_code: code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'invalid_email_code' });
  });

  it('burns the code after 5 wrong tries, so the right code no longer works', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    for (let i = 0; i < 5; i++) {
      expect((await login({ email, password: PASSWORD, email_code: otherCode(code) })).status).toBe(
        400,
      );
    }
    const res = await login({ email, password: PASSWORD, email_code: code });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_email_code' });
  });

  it('accepts the right code after 4 wrong tries', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    for (let i = 0; i < 4; i++)
      await login({ email, password: PASSWORD, email_code: otherCode(code) });
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
  });

  it('only accepts the newest code once a new one is sent', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const first = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const second = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    if (first !== second) {
      expect((await login({ email, password: PASSWORD, email_code: first })).status).toBe(400);
    }
    expect((await login({ email, password: PASSWORD, email_code: second })).status).toBe(200);
  });
});

describe('login with two-factor authentication', () => {
  it('demands the Google code without burning the e-mail code, then accepts the retry', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const secret = await enableTwoFactor(ctx.app, ctx.clock, session.access);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);

    const demand = await login({ email, password: PASSWORD, email_code: code });
    expect(demand.status).toBe(400);
    expect(demand.body).toEqual({
      error: 'Google authentication code required',
      code: 'google_code_required',
      needs_google_auth: true,
    });

    const retry = await login({
      email,
      password: PASSWORD,
      email_code: code,
      google_code: await totpAt(secret, ctx.clock),
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      user: { google_auth_enabled: true, two_factor_enabled: true },
    });
  });

  it("answers 'Invalid Google authentication code' for a wrong Google code and keeps the e-mail code", async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const secret = await enableTwoFactor(ctx.app, ctx.clock, session.access);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const right = await totpAt(secret, ctx.clock);
    const wrong = await login({
      email,
      password: PASSWORD,
      email_code: code,
      google_code: otherCode(right),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'Invalid Google authentication code',
      code: 'invalid_google_code',
    });
    const ok = await login({ email, password: PASSWORD, email_code: code, google_code: right });
    expect(ok.status).toBe(200);
  });

  it('refuses a Google code whose time step was already used', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const secret = await enableTwoFactor(ctx.app, ctx.clock, session.access);
    const first = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const current = await totpAt(secret, ctx.clock);
    expect(
      (await login({ email, password: PASSWORD, email_code: first, google_code: current })).status,
    ).toBe(200);
    const second = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    ctx.clock.advanceSeconds(-61); // back to the same time step as the first login
    const replay = await login({
      email,
      password: PASSWORD,
      email_code: second,
      google_code: current,
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'Invalid Google authentication code' });
  });
});

describe('POST /api/auth/phone-login/', () => {
  it('signs in with the SMS code', async () => {
    const phone = uniquePhone();
    await registerPhone(ctx.app, ctx.clock, phone);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'phone', phone);
    const res = await phoneLogin({ phone, code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { phone } });
  });

  it("answers 'User not found' with redirect_to register for an unknown phone", async () => {
    const res = await phoneLogin({ phone: uniquePhone(), code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'User not found',
      code: 'phone_not_registered',
      redirect_to: 'register',
    });
  });

  it("answers 'Invalid or expired verification code' for a wrong SMS code", async () => {
    const phone = uniquePhone();
    await registerPhone(ctx.app, ctx.clock, phone);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'phone', phone);
    const res = await phoneLogin({ phone, code: otherCode(code) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid or expired verification code',
      code: 'invalid_code',
    });
  });

  it('demands the Google code when 2FA is on, then accepts the same SMS code with it', async () => {
    const phone = uniquePhone();
    const session = await registerPhone(ctx.app, ctx.clock, phone);
    const secret = await enableTwoFactor(ctx.app, ctx.clock, session.access);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'phone', phone);
    const demand = await phoneLogin({ phone, code });
    expect(demand.status).toBe(400);
    expect(demand.body).toMatchObject({ code: 'google_code_required', needs_google_auth: true });
    const ok = await phoneLogin({ phone, code, google_code: await totpAt(secret, ctx.clock) });
    expect(ok.status).toBe(200);
  });
});

describe('account lock', () => {
  it('locks the account for 15 minutes after 10 failed logins, answering 429 account_locked', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    for (let i = 0; i < 10; i++) {
      const res = await login({ email, password: 'wrong password', email_code: '123456' });
      expect(res.status).toBe(400);
    }
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const locked = await login({ email, password: PASSWORD, email_code: code });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      code: 'account_locked',
      error: 'Too many failed attempts, try again later',
      retry_after: expect.any(Number),
    });
    expect(locked.body.retry_after as number).toBeLessThanOrEqual(15 * 60);
    ctx.clock.advanceSeconds(15 * 60);
    const after = await login({ email, password: PASSWORD, email_code: code });
    expect(after.status).toBe(400); // the code expired meanwhile; the lock is gone
    expect(after.body).toMatchObject({ code: 'invalid_email_code' });
    const fresh = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    expect((await login({ email, password: PASSWORD, email_code: fresh })).status).toBe(200);
  });

  it('counts every one of 10 failed logins sent at the same time, and locks', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () =>
        login({ email, password: 'wrong password', email_code: '123456' }),
      ),
    );
    expect(attempts.map((res) => res.status)).toEqual(Array(10).fill(400));
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const locked = await login({ email, password: PASSWORD, email_code: code });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'account_locked' });
  });

  it('does not lock when the failures are spread over more than the window', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    for (let i = 0; i < 12; i++) {
      await login({ email, password: 'wrong password', email_code: '123456' });
      ctx.clock.advanceSeconds(100);
    }
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
  });
});

describe('the lock counts per client address', () => {
  // Behind a trusted proxy, so that each request names its client address.
  const proxied = useTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  const ATTACKER = '203.0.113.9';
  const OWNER = '198.51.100.20';
  const loginFrom = (address: string, body: Record<string, unknown>) =>
    call(proxied.app, 'POST', '/api/auth/login/', { body, ...from(address) });
  const codeFor = (type: 'email' | 'phone', target: string) =>
    freshLoginCode(proxied.app, proxied.clock, type, target);

  it("lets the owner sign in from another address after a stranger's 10 wrong passwords", async () => {
    const email = uniqueEmail('victim');
    await registerEmail(proxied.app, email);
    for (let i = 0; i < 10; i++) {
      const res = await loginFrom(ATTACKER, { email, password: 'guess', email_code: '123456' });
      expect(res.status).toBe(400);
    }
    // The stranger's address is locked out of the account, even with the right secrets.
    const code = await codeFor('email', email);
    const attacker = await loginFrom(ATTACKER, { email, password: PASSWORD, email_code: code });
    expect(attacker.status).toBe(429);
    expect(attacker.body).toMatchObject({ code: 'account_locked' });
    const owner = await loginFrom(OWNER, { email, password: PASSWORD, email_code: code });
    expect(owner.status).toBe(200);
  });

  it("lets the owner sign in by SMS code from another address after a stranger's 10 wrong codes", async () => {
    const phone = uniquePhone();
    await registerPhone(proxied.app, proxied.clock, phone);
    for (let i = 0; i < 10; i++) {
      const res = await call(proxied.app, 'POST', '/api/auth/phone-login/', {
        body: { phone, code: '123456' },
        ...from(ATTACKER),
      });
      expect(res.status).toBe(400);
    }
    const code = await codeFor('phone', phone);
    const locked = await call(proxied.app, 'POST', '/api/auth/phone-login/', {
      body: { phone, code },
      ...from(ATTACKER),
    });
    expect(locked.status).toBe(429);
    const owner = await call(proxied.app, 'POST', '/api/auth/phone-login/', {
      body: { phone, code },
      ...from(OWNER),
    });
    expect(owner.status).toBe(200);
  });

  it('locks an address that guesses across many accounts, and only that address', async () => {
    const SPRAYER = '203.0.113.77';
    const emails: string[] = [];
    for (let i = 0; i < 6; i++) {
      const email = uniqueEmail('spray');
      await registerEmail(proxied.app, email);
      emails.push(email);
    }
    // 9 failures on each of the first 5 accounts (under the per-account 10), 5 on the 6th:
    // 50 from one address.
    for (const [index, email] of emails.entries()) {
      for (let i = 0; i < (index < 5 ? 9 : 5); i++) {
        const res = await loginFrom(SPRAYER, { email, password: 'guess', email_code: '123456' });
        expect(res.status).toBe(400);
      }
    }
    const last = emails[5]!;
    const code = await codeFor('email', last);
    const sprayer = await loginFrom(SPRAYER, { email: last, password: PASSWORD, email_code: code });
    expect(sprayer.status).toBe(429);
    expect(sprayer.body).toMatchObject({ code: 'account_locked' });
    expect(
      (await loginFrom(OWNER, { email: last, password: PASSWORD, email_code: code })).status,
    ).toBe(200);
  });

  it('does not let an address wash its failures out by signing in to an account of its own', async () => {
    const GUESSER = '203.0.113.88';
    const own = uniqueEmail('own');
    await registerEmail(proxied.app, own);
    const targets: string[] = [];
    for (let i = 0; i < 6; i++) {
      const email = uniqueEmail('target');
      await registerEmail(proxied.app, email);
      targets.push(email);
    }
    for (const [index, email] of targets.entries()) {
      for (let i = 0; i < (index < 5 ? 9 : 5); i++) {
        await loginFrom(GUESSER, { email, password: 'guess', email_code: '123456' });
      }
      if (index === 2) {
        const code = await codeFor('email', own);
        const res = await loginFrom(GUESSER, { email: own, password: PASSWORD, email_code: code });
        expect(res.status).toBe(200);
      }
    }
    const code = await codeFor('email', own);
    expect(
      (await loginFrom(GUESSER, { email: own, password: PASSWORD, email_code: code })).status,
    ).toBe(429);
  });
});
