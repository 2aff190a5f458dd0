// Every check of a secret is counted before it runs and locks the account like a login
// (issue 8, items 4, 7 and 8). Run on PostgreSQL too: the bursts are real there.
import { describe, expect, it } from 'vitest';
import {
  enableTwoFactor,
  freshLoginCode,
  PASSWORD,
  registerEmail,
  totpAt,
  uniqueEmail,
} from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();
const limited = useTestApp({ config: { authIpRatePerMinute: 3 } });

const login = (body: Record<string, unknown>) =>
  call(ctx.app, 'POST', '/api/auth/login/', { body });

const statuses = (responses: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describe('the login lock within a burst', () => {
  it('answers 429 to every attempt past the 10th of 30 concurrent wrong passwords', async () => {
    const email = uniqueEmail('burst');
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login({ email, password: `wrong password ${i}`, email_code: code }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 10, 429: 20 });
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.body).toMatchObject({ code: 'account_locked' });
    }
    // The right password and a fresh code are refused too until the lock ends.
    const fresh = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    expect((await login({ email, password: PASSWORD, email_code: fresh })).status).toBe(429);
  });
});

describe('login checks the e-mail code before the password', () => {
  it('answers the same whether the password is right or wrong while the code is missing or wrong', async () => {
    const email = uniqueEmail('oracle');
    await registerEmail(ctx.app, email);
    const missingRight = await login({ email, password: PASSWORD });
    const missingWrong = await login({ email, password: 'wrong password' });
    expect(missingRight.body).toEqual({
      error: 'Email verification code is required',
      code: 'code_required',
    });
    expect(missingWrong.body).toEqual(missingRight.body);

    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    const badCode = code === '000000' ? '111111' : '000000';
    const wrongCodeRight = await login({ email, password: PASSWORD, email_code: badCode });
    const wrongCodeWrong = await login({ email, password: 'wrong password', email_code: badCode });
    expect(wrongCodeRight.body).toEqual({
      error: 'Invalid or expired email verification code',
      code: 'invalid_email_code',
    });
    expect(wrongCodeWrong.body).toEqual(wrongCodeRight.body);

    // Only with the valid code does the password answer.
    const wrongPassword = await login({ email, password: 'wrong password', email_code: code });
    expect(wrongPassword.body).toMatchObject({ code: 'invalid_credentials' });
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(200);
  });

  it('burns a code used with 5 wrong passwords', async () => {
    const email = uniqueEmail('wearcode');
    await registerEmail(ctx.app, email);
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    for (let i = 0; i < 5; i++) {
      const res = await login({ email, password: 'wrong password', email_code: code });
      expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    }
    const res = await login({ email, password: PASSWORD, email_code: code });
    expect(res.body).toMatchObject({ code: 'invalid_email_code' });
  });
});

describe('2FA disable is throttled and locked like a login', () => {
  it('locks after 10 wrong Google codes, even for the right one, and locks the login too', async () => {
    const email = uniqueEmail('2fa-lock');
    const session = await registerEmail(ctx.app, email);
    const secret = await enableTwoFactor(ctx.app, ctx.clock, session.access);
    const right = await totpAt(secret, ctx.clock);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(ctx.app, 'POST', '/api/auth/2fa/disable/', {
          token: session.access,
          body: { google_code: wrong },
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 10, 429: 20 });
    const withRight = await call(ctx.app, 'POST', '/api/auth/2fa/disable/', {
      token: session.access,
      body: { google_code: right },
    });
    expect(withRight.status).toBe(429);
    expect(withRight.body).toMatchObject({
      code: 'account_locked',
      retry_after: expect.any(Number),
    });
    const code = await freshLoginCode(ctx.app, ctx.clock, 'email', email);
    expect((await login({ email, password: PASSWORD, email_code: code })).status).toBe(429);

    ctx.clock.advanceSeconds(15 * 60);
    const refreshed = await call<{ access: string }>(ctx.app, 'POST', '/api/auth/refresh/', {
      body: { refresh: session.refresh },
    });
    const after = await call(ctx.app, 'POST', '/api/auth/2fa/disable/', {
      token: refreshed.body.access,
      body: { google_code: await totpAt(secret, ctx.clock) },
    });
    expect(after.status).toBe(200);
  });

  it('limits the calls per address like the sign-in routes', async () => {
    const session = await registerEmail(limited.app, uniqueEmail('2fa-ip'));
    const codes = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        await call(limited.app, 'POST', '/api/auth/2fa/disable/', {
          token: session.access,
          body: { google_code: '123456' },
        }),
      );
    }
    expect(codes.at(-1)?.status).toBe(429);
    expect(codes.at(-1)?.body).toMatchObject({ code: 'rate_limited' });
  });
});

describe('2FA setup is throttled and locked like a login', () => {
  const startSetup = async (app: typeof ctx.app, access: string) =>
    (await call<{ secret: string }>(app, 'POST', '/api/auth/2fa/enable/', { token: access })).body
      .secret;

  it('answers 429 past the 10th of 30 concurrent wrong setup codes, even for the right one', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('2fa-setup'));
    const secret = await startSetup(ctx.app, session.access);
    const right = await totpAt(secret, ctx.clock);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(ctx.app, 'POST', '/api/auth/2fa/verify/', {
          token: session.access,
          body: { google_code: wrong },
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 10, 429: 20 });
    const withRight = await call(ctx.app, 'POST', '/api/auth/2fa/verify/', {
      token: session.access,
      body: { google_code: right },
    });
    expect(withRight.status).toBe(429);
    expect(withRight.body).toMatchObject({ code: 'account_locked' });

    // The lock ends with its window; the setup is still pending and the right code works.
    ctx.clock.advanceSeconds(15 * 60);
    const refreshed = await call<{ access: string }>(ctx.app, 'POST', '/api/auth/refresh/', {
      body: { refresh: session.refresh },
    });
    const after = await call(ctx.app, 'POST', '/api/auth/2fa/verify/', {
      token: refreshed.body.access,
      body: { google_code: await totpAt(secret, ctx.clock) },
    });
    expect(after.status).toBe(200);
  });

  it('limits the calls per address like the sign-in routes', async () => {
    const session = await registerEmail(limited.app, uniqueEmail('2fa-setup-ip'));
    await startSetup(limited.app, session.access);
    let last = { status: 0, body: {} as Record<string, unknown> };
    for (let i = 0; i < 4; i++) {
      last = await call(limited.app, 'POST', '/api/auth/2fa/verify/', {
        token: session.access,
        body: { google_code: '123456' },
      });
    }
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ code: 'rate_limited' });
  });
});

describe('password change is throttled and locked like a login', () => {
  it('locks after 10 wrong old passwords sent at once, even for the right one', async () => {
    const email = uniqueEmail('pw-lock');
    const session = await registerEmail(ctx.app, email);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(ctx.app, 'POST', '/api/auth/change-password/', {
          token: session.access,
          body: { old_password: `not it ${i}`, new_password: 'a brand new password' },
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 10, 429: 20 });
    const right = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: PASSWORD, new_password: 'a brand new password' },
    });
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ code: 'account_locked' });
  });

  it('clears the count after a right old password', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('pw-clear'));
    for (let i = 0; i < 9; i++) {
      await call(ctx.app, 'POST', '/api/auth/change-password/', {
        token: session.access,
        body: { old_password: 'not it', new_password: 'a brand new password' },
      });
    }
    const right = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: PASSWORD, new_password: 'a brand new password' },
    });
    expect(right.status).toBe(200);
    const wrongAgain = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: 'not it', new_password: 'another new password' },
    });
    expect(wrongAgain.status).toBe(400);
    expect(wrongAgain.body).toMatchObject({
      field_codes: { old_password: ['old_password_incorrect'] },
    });
  });

  it('limits the calls per address like the sign-in routes', async () => {
    const session = await registerEmail(limited.app, uniqueEmail('pw-ip'));
    let last = { status: 0 };
    for (let i = 0; i < 4; i++) {
      last = await call(limited.app, 'POST', '/api/auth/change-password/', {
        token: session.access,
        body: { old_password: 'not it', new_password: 'a brand new password' },
      });
    }
    expect(last.status).toBe(429);
  });
});
