import { describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('GET /api/auth/account-security/', () => {
  it('answers the e-mail, phone and 2FA flags', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const res = await call(ctx.app, 'GET', '/api/auth/account-security/', {
      token: session.access,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email,
      phone: null,
      google_auth_enabled: false,
      two_factor_enabled: false,
    });
  });
});

describe('/api/auth/profile/', () => {
  it('answers the user with nickname, bio and avatar_url', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const res = await call(ctx.app, 'GET', '/api/auth/profile/', { token: session.access });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email,
      platform_balance: '0.00000000',
      nickname: '',
      bio: '',
      avatar_url: null,
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('updates nickname and bio, trimming them', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await call(ctx.app, 'PUT', '/api/auth/profile/', {
      token: session.access,
      body: { nickname: '  Trader Joe ', bio: 'Trend follower' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nickname: 'Trader Joe', bio: 'Trend follower' });
    const partial = await call(ctx.app, 'PUT', '/api/auth/profile/', {
      token: session.access,
      body: { bio: 'Mean reversion' },
    });
    expect(partial.body).toMatchObject({ nickname: 'Trader Joe', bio: 'Mean reversion' });
  });

  it('refuses a nickname over 30 and a bio over 200 characters with field errors', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await call(ctx.app, 'PUT', '/api/auth/profile/', {
      token: session.access,
      body: { nickname: 'n'.repeat(31), bio: 'b'.repeat(201) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      fields: { nickname: [expect.any(String)], bio: [expect.any(String)] },
    });
  });

  it('refuses to change fields that are not editable', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await call(ctx.app, 'PUT', '/api/auth/profile/', {
      token: session.access,
      body: { is_staff: true, platform_balance: '1000' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      fields: { is_staff: ['Unknown field'], platform_balance: ['Unknown field'] },
    });
  });
});
