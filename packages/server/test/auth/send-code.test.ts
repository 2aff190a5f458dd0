import { describe, expect, it } from 'vitest';
import {
  latestCode,
  registerEmail,
  sendCode,
  uniqueEmail,
  uniquePhone,
} from '../helpers/auth-flows.js';
import { call, createTestApp, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('POST /api/auth/send-code/', () => {
  it('sends a 6-digit e-mail code to the outbox and answers the cooldown and lifetime', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const res = await sendCode(ctx.app, 'email', email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: expect.any(String),
      cooldown_seconds: 60,
      expires_in_seconds: 300,
    });
    expect(await latestCode(ctx.app, email)).toMatch(/^\d{6}$/);
  });

  it("writes the code in the reader's language (Accept-Language), Chinese by default", async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const latest = async () =>
      (
        await call<{ results: { subject: string; body: string; code: string }[] }>(
          ctx.app,
          'GET',
          `/api/dev/outbox/?to=${encodeURIComponent(email)}`,
        )
      ).body.results[0]!;
    const send = (headers: Record<string, string>) =>
      call(ctx.app, 'POST', '/api/auth/send-code/', {
        body: { type: 'email', target: email, action: 'login' },
        headers,
      });

    expect((await send({ 'accept-language': 'en' })).status).toBe(200);
    const english = await latest();
    expect(english.subject).toBe('Your QuantSquare verification code');
    expect(english.body).toContain(`Your QuantSquare verification code is ${english.code}`);

    ctx.clock.advanceSeconds(61); // past the resend cooldown
    expect((await send({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' })).status).toBe(200);
    const chinese = await latest();
    expect(chinese.subject).toBe('QuantSquare 验证码');
    expect(chinese.body).toContain(`您的 QuantSquare 验证码是 ${chinese.code}`);

    ctx.clock.advanceSeconds(61);
    expect((await send({ 'accept-language': 'fr-FR, en;q=0.5' })).status).toBe(200);
    expect((await latest()).subject).toBe('Your QuantSquare verification code');

    ctx.clock.advanceSeconds(61);
    expect((await send({})).status).toBe(200);
    expect((await latest()).subject).toBe('QuantSquare 验证码');
  });

  it('normalises the e-mail target to lower case', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const res = await sendCode(ctx.app, 'email', `  ${email.toUpperCase()} `);
    expect(res.status).toBe(200);
    expect(await latestCode(ctx.app, email)).toMatch(/^\d{6}$/);
  });

  it('answers not_registered with redirect_to register for a login code to an unknown e-mail', async () => {
    const res = await sendCode(ctx.app, 'email', uniqueEmail('nobody'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Email not registered',
      code: 'not_registered',
      redirect_to: 'register',
    });
  });

  it("answers 'User not found' with redirect_to register for a login code to an unknown phone", async () => {
    const res = await sendCode(ctx.app, 'phone', uniquePhone());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'User not found',
      code: 'phone_not_registered',
      redirect_to: 'register',
    });
  });

  it('refuses a register code for an already registered e-mail', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const res = await sendCode(ctx.app, 'email', email, 'register');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'already_registered',
      error: 'Email already registered',
    });
  });

  it('sends a register code by SMS to a new phone', async () => {
    const phone = uniquePhone();
    const res = await sendCode(ctx.app, 'phone', phone, 'register');
    expect(res.status).toBe(200);
    const outbox = await call<{ results: { channel: string; code: string }[] }>(
      ctx.app,
      'GET',
      `/api/dev/outbox/?to=${encodeURIComponent(phone)}`,
    );
    expect(outbox.body.results[0]).toMatchObject({
      channel: 'sms',
      code: expect.stringMatching(/^\d{6}$/),
    });
  });

  it('answers a field error on target for an invalid e-mail or phone', async () => {
    const badEmail = await sendCode(ctx.app, 'email', 'not-an-email', 'register');
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({
      code: 'validation_failed',
      fields: { target: [expect.any(String)] },
    });
    const badPhone = await sendCode(ctx.app, 'phone', 'call me maybe', 'register');
    expect(badPhone.status).toBe(400);
    expect(badPhone.body).toMatchObject({
      code: 'validation_failed',
      fields: { target: [expect.any(String)] },
    });
  });

  it('answers 429 code_cooldown with the seconds left within 60 s of the last code', async () => {
    const phone = uniquePhone();
    expect((await sendCode(ctx.app, 'phone', phone, 'register')).status).toBe(200);
    ctx.clock.advanceSeconds(20);
    const res = await sendCode(ctx.app, 'phone', phone, 'register');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'code_cooldown', retry_after: 40 });
    expect(res.body.error).toContain('40');
    ctx.clock.advanceSeconds(40);
    expect((await sendCode(ctx.app, 'phone', phone, 'register')).status).toBe(200);
  });

  it('answers 429 code_daily_limit after 10 codes in 24 hours, and sends again a day later', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 10; i++) {
      expect((await sendCode(ctx.app, 'phone', phone, 'register')).status).toBe(200);
      ctx.clock.advanceSeconds(61);
    }
    const refused = await sendCode(ctx.app, 'phone', phone, 'register');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'code_daily_limit',
      retry_after: expect.any(Number),
    });
    ctx.clock.advanceSeconds(24 * 60 * 60);
    expect((await sendCode(ctx.app, 'phone', phone, 'register')).status).toBe(200);
  });

  it("answers 400 send_failed 'Failed to send code' when delivery fails, and no cooldown starts", async () => {
    const failing = await createTestApp({
      smsProvider: {
        send: async () => {
          throw new Error('provider down');
        },
      },
    });
    try {
      const phone = uniquePhone();
      const res = await sendCode(failing.app, 'phone', phone, 'register');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Failed to send code', code: 'send_failed' });
      const again = await sendCode(failing.app, 'phone', phone, 'register');
      expect(again.body).toMatchObject({ code: 'send_failed' });
    } finally {
      await failing.close();
    }
  });
});
