// Common passwords and passwords equal to the account's own e-mail or phone are refused
// wherever a password is chosen, with field codes the web says in the reader's language.
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

const register = (email: string, password: string) =>
  call(ctx.app, 'POST', '/api/auth/register/', {
    body: { email, password, password2: password },
  });

describe('choosing a password at registration', () => {
  it.each(['password', 'Password123', '12345678', 'qwertyuiop', '1qaz2wsx', 'woaini1314'])(
    'refuses the common password %s with common_password',
    async (password) => {
      const res = await register(uniqueEmail('common'), password);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'validation_failed',
        fields: { password: ['This password is too common; choose another'] },
        field_codes: { password: ['common_password'] },
      });
    },
  );

  it('refuses the e-mail address itself, in any case, and its name part', async () => {
    const email = uniqueEmail('selfnamed');
    for (const password of [email, email.toUpperCase(), email.split('@')[0]!]) {
      const res = await register(email, password);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field_codes: { password: ['password_like_account'] } });
    }
    expect((await register(email, PASSWORD)).status).toBe(201);
  });

  it('refuses the phone number, with or without its country code', async () => {
    const phone = uniquePhone();
    for (const password of [phone, phone.slice(1), phone.slice(3)]) {
      await sendCode(ctx.app, 'phone', phone, 'register');
      const code = await latestCode(ctx.app, phone);
      ctx.clock.advanceSeconds(61);
      const res = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
        body: { phone, code, password, password2: password },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field_codes: { password: ['password_like_account'] } });
    }
    await registerPhone(ctx.app, ctx.clock, phone);
  });
});

describe('changing the password', () => {
  it('refuses a common password and the own e-mail, and keeps the old password', async () => {
    const email = uniqueEmail('change');
    const session = await registerEmail(ctx.app, email);
    for (const [password, fieldCode] of [
      ['password1', 'common_password'],
      [email, 'password_like_account'],
    ] as const) {
      const res = await call(ctx.app, 'POST', '/api/auth/change-password/', {
        token: session.access,
        body: { old_password: PASSWORD, new_password: password },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field_codes: { new_password: [fieldCode] } });
    }
    const ok = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: PASSWORD, new_password: 'a less guessable phrase' },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses the account's phone number as the new password", async () => {
    const phone = uniquePhone();
    const session = await registerPhone(ctx.app, ctx.clock, phone);
    const res = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: PASSWORD, new_password: phone },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field_codes: { new_password: ['password_like_account'] } });
  });
});
