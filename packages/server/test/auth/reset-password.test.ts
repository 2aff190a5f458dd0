// A forgotten password: a reset_password code sent to the account's e-mail or phone sets a new
// password and ends every session; an unknown target is answered like a known one.
import { describe, expect, it } from 'vitest';
import {
  latestCode,
  PASSWORD,
  registerEmail,
  registerPhone,
  uniqueEmail,
  uniquePhone,
} from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();
const NEW_PASSWORD = 'a fresh start 2024';

type Channel = 'email' | 'phone';
const sendResetCode = (type: Channel, target: string) =>
  call(ctx.app, 'POST', '/api/auth/send-code/', {
    body: { type, target, action: 'reset_password' },
  });
const reset = (type: Channel, target: string, code: string, password = NEW_PASSWORD) =>
  call(ctx.app, 'POST', '/api/auth/reset-password/', {
    body: { type, target, code, password, password2: password },
  });
const outboxCount = async (to: string) =>
  (await call<{ count: number }>(ctx.app, 'GET', `/api/dev/outbox/?to=${encodeURIComponent(to)}`))
    .body.count;
/** A fresh reset code for the target (past the previous code's cooldown). */
async function resetCode(type: Channel, target: string): Promise<string> {
  ctx.clock.advanceSeconds(61);
  const sent = await sendResetCode(type, target);
  expect(sent.status).toBe(200);
  return latestCode(ctx.app, target);
}
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
async function emailLogin(email: string, password: string) {
  const code = await (async () => {
    ctx.clock.advanceSeconds(61);
    await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'email', target: email, action: 'login' },
    });
    return latestCode(ctx.app, email);
  })();
  return call(ctx.app, 'POST', '/api/auth/login/', {
    body: { email, password, email_code: code },
  });
}
const profileStatus = async (access: string) =>
  (await call(ctx.app, 'GET', '/api/auth/profile/', { token: access })).status;
const refreshStatus = async (refresh: string) =>
  (await call(ctx.app, 'POST', '/api/auth/refresh/', { body: { refresh } })).status;

describe('POST /api/auth/reset-password/', () => {
  it('sets a new password by e-mail code and ends every session of the account', async () => {
    const email = uniqueEmail('reset');
    const first = await registerEmail(ctx.app, email);
    const second = (await emailLogin(email, PASSWORD)).body as { access: string; refresh: string };
    const code = await resetCode('email', email);

    const res = await reset('email', email, code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String) });

    for (const session of [first, second]) {
      expect(await profileStatus(session.access)).toBe(401);
      expect(await refreshStatus(session.refresh)).toBe(401);
    }
    const old = await emailLogin(email, PASSWORD);
    expect(old.body).toMatchObject({ code: 'invalid_credentials' });
    expect((await emailLogin(email, NEW_PASSWORD)).status).toBe(200);
    // The code is used up.
    expect((await reset('email', email, code, 'yet another phrase')).status).toBe(400);
  });

  it('sets a new password by SMS code', async () => {
    const phone = uniquePhone();
    const session = await registerPhone(ctx.app, ctx.clock, phone);
    const code = await resetCode('phone', phone);
    expect((await reset('phone', phone, code)).status).toBe(200);
    expect(await refreshStatus(session.refresh)).toBe(401);

    // Signed in again by SMS, the new password is the one the account knows.
    ctx.clock.advanceSeconds(61);
    await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone, action: 'login' },
    });
    const login = await call<{ access: string }>(ctx.app, 'POST', '/api/auth/phone-login/', {
      body: { phone, code: await latestCode(ctx.app, phone) },
    });
    const change = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: login.body.access,
      body: { old_password: NEW_PASSWORD, new_password: 'and one more phrase' },
    });
    expect(change.status).toBe(200);
  });

  it('answers 400 invalid_code for a wrong code and changes nothing', async () => {
    const email = uniqueEmail('wrongcode');
    const session = await registerEmail(ctx.app, email);
    const code = await resetCode('email', email);
    const res = await reset('email', email, wrong(code));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      field_codes: { code: ['invalid_code'] },
    });
    expect(await profileStatus(session.access)).toBe(200);
    expect((await emailLogin(email, PASSWORD)).status).toBe(200);
  });

  it('does not take a login code', async () => {
    const email = uniqueEmail('logincode');
    await registerEmail(ctx.app, email);
    ctx.clock.advanceSeconds(61);
    await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'email', target: email, action: 'login' },
    });
    const res = await reset('email', email, await latestCode(ctx.app, email));
    expect(res.body).toMatchObject({ field_codes: { code: ['invalid_code'] } });
  });

  it('burns a code after 5 wrong tries, like a login code', async () => {
    const email = uniqueEmail('burn');
    await registerEmail(ctx.app, email);
    const code = await resetCode('email', email);
    for (let i = 0; i < 5; i++) expect((await reset('email', email, wrong(code))).status).toBe(400);
    expect((await reset('email', email, code)).status).toBe(400);
  });

  it('locks the target for the address after 10 wrong tries, even with the right code', async () => {
    const email = uniqueEmail('lock');
    await registerEmail(ctx.app, email);
    for (let round = 0; round < 2; round++) {
      const code = await resetCode('email', email);
      for (let i = 0; i < 5; i++) await reset('email', email, wrong(code));
    }
    const code = await resetCode('email', email);
    const locked = await reset('email', email, code);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'account_locked' });
  });

  it('refuses a common password and the own e-mail without using the code', async () => {
    const email = uniqueEmail('weakreset');
    await registerEmail(ctx.app, email);
    const code = await resetCode('email', email);
    const common = await reset('email', email, code, 'password123');
    expect(common.body).toMatchObject({ field_codes: { password: ['common_password'] } });
    const own = await reset('email', email, code, email);
    expect(own.body).toMatchObject({ field_codes: { password: ['password_like_account'] } });
    expect((await reset('email', email, code)).status).toBe(200);
  });

  it('refuses the phone number, without its country code, as the new password', async () => {
    const phone = uniquePhone();
    await registerPhone(ctx.app, ctx.clock, phone);
    const code = await resetCode('phone', phone);
    const res = await reset('phone', phone, code, phone.slice(3));
    expect(res.body).toMatchObject({ field_codes: { password: ['password_like_account'] } });
  });
});

describe('an unknown target', () => {
  it('is answered like a known one by send-code, limited alike, and sent nothing', async () => {
    const known = uniqueEmail('known');
    await registerEmail(ctx.app, known);
    const unknown = uniqueEmail('nobody');
    ctx.clock.advanceSeconds(61);
    const answers = [await sendResetCode('email', known), await sendResetCode('email', unknown)];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1]?.body).toEqual(answers[0]?.body);
    expect(await outboxCount(unknown)).toBe(0);
    expect(await outboxCount(known)).toBe(1);

    // The cooldown answers both alike too.
    const again = [await sendResetCode('email', known), await sendResetCode('email', unknown)];
    expect(again.map((a) => a.status)).toEqual([429, 429]);
    expect(again[1]?.body).toEqual(again[0]?.body);
  });

  it('is answered like a wrong code by reset-password', async () => {
    const known = uniqueEmail('known2');
    await registerEmail(ctx.app, known);
    const unknown = uniqueEmail('nobody2');
    const code = await resetCode('email', known);
    await sendResetCode('email', unknown);
    const forKnown = await reset('email', known, wrong(code));
    const forUnknown = await reset('email', unknown, code);
    expect(forUnknown.status).toBe(400);
    expect(forUnknown.body).toEqual(forKnown.body);
  });

  it('answers the same for an unknown phone', async () => {
    const phone = uniquePhone();
    ctx.clock.advanceSeconds(61);
    const sent = await sendResetCode('phone', phone);
    expect(sent.status).toBe(200);
    expect(await outboxCount(phone)).toBe(0);
    const res = await reset('phone', phone, '123456');
    expect(res.body).toMatchObject({ field_codes: { code: ['invalid_code'] } });
  });
});

describe('the API document', () => {
  it('lists send-code with the reset action and reset-password among the auth routes', () => {
    const spec = ctx.app.swagger() as {
      paths: Record<string, Record<string, { tags?: string[]; requestBody?: unknown }>>;
    };
    const resetRoute = spec.paths['/api/auth/reset-password/']?.post;
    expect(resetRoute?.tags).toEqual(['auth']);
    expect(JSON.stringify(resetRoute?.requestBody)).toContain('password2');
    const sendCode = spec.paths['/api/auth/send-code/']?.post;
    expect(JSON.stringify(sendCode?.requestBody)).toContain('reset_password');
  });
});
