import { describe, expect, it } from 'vitest';
import {
  latestCode,
  PASSWORD,
  registerEmail,
  registerPhone,
  sendCode,
  uniqueEmail,
  uniquePhone,
} from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('POST /api/auth/register/', () => {
  it('creates the account and signs in at once (201, auto_login, tokens, user)', async () => {
    const email = uniqueEmail();
    const res = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: { email, password: PASSWORD, password2: PASSWORD },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      auto_login: true,
      message: expect.any(String),
      access: expect.any(String),
      refresh: expect.any(String),
      user: {
        username: email,
        email,
        phone: null,
        platform_balance: '0.00000000',
        is_vip: false,
        is_vip_active: false,
        vip_expires_at: null,
        invitation_code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/),
        google_auth_enabled: false,
        two_factor_enabled: false,
        is_staff: false,
      },
    });
  });

  it("answers field errors 'Passwords do not match' and 'Email already registered'", async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const res = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: { email, password: PASSWORD, password2: 'something else' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      fields: { email: ['Email already registered'], password2: ['Passwords do not match'] },
    });
  });

  it("answers 'Invalid invitation code' on invitation_code for an unknown code", async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: {
        email: uniqueEmail(),
        password: PASSWORD,
        password2: PASSWORD,
        invitation_code: 'ZZZZZZZZ',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ fields: { invitation_code: ['Invalid invitation code'] } });
  });

  it('links the new user to the owner of a valid invitation code', async () => {
    const inviter = await registerEmail(ctx.app, uniqueEmail('inviter'));
    const res = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: {
        email: uniqueEmail('invitee'),
        password: PASSWORD,
        password2: PASSWORD,
        invitation_code: String(inviter.user.invitation_code).toLowerCase(),
      },
    });
    expect(res.status).toBe(201);
  });

  it('refuses a password shorter than 8 characters with a field error', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: { email: uniqueEmail(), password: 'short', password2: 'short' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ fields: { password: [expect.stringContaining('8')] } });
  });
});

describe('POST /api/auth/phone-register/', () => {
  it('registers a phone with its SMS code and signs in', async () => {
    const phone = uniquePhone();
    const session = await registerPhone(ctx.app, ctx.clock, phone);
    expect(session.user).toMatchObject({ username: phone, phone, email: null });
  });

  it("answers 'Invalid or expired verification code' on code for a wrong code", async () => {
    const phone = uniquePhone();
    await sendCode(ctx.app, 'phone', phone, 'register');
    const code = await latestCode(ctx.app, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code: wrong, password: PASSWORD, password2: PASSWORD },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      fields: { code: ['Invalid or expired verification code'] },
    });
  });

  it('does not accept a login code for registration', async () => {
    const phone = uniquePhone();
    const res = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code: '123456', password: PASSWORD, password2: PASSWORD },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ fields: { code: ['Invalid or expired verification code'] } });
  });

  it('keeps the code usable when another field is wrong, and uses it once', async () => {
    const phone = uniquePhone();
    await sendCode(ctx.app, 'phone', phone, 'register');
    const code = await latestCode(ctx.app, phone);
    const mismatch = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code, password: PASSWORD, password2: 'different one' },
    });
    expect(mismatch.body).toMatchObject({ fields: { password2: ['Passwords do not match'] } });
    const ok = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code, password: PASSWORD, password2: PASSWORD },
    });
    expect(ok.status).toBe(201);
    const again = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code, password: PASSWORD, password2: PASSWORD },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ fields: { phone: ['Phone number already registered'] } });
  });
});
