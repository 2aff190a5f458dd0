import { describe, expect, it } from 'vitest';
import { loginEmail, PASSWORD, registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

const refresh = (token: string) =>
  call(ctx.app, 'POST', '/api/auth/refresh/', { body: { refresh: token } });
const security = (access: string) =>
  call(ctx.app, 'GET', '/api/auth/account-security/', { token: access });

describe('authenticated routes', () => {
  it('answers 401 unauthorized without a token, with a malformed token and with a refresh token', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const none = await call(ctx.app, 'GET', '/api/auth/account-security/');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
    expect((await security('not-a-jwt')).status).toBe(401);
    expect((await security(session.refresh)).status).toBe(401);
    const basic = await call(ctx.app, 'GET', '/api/auth/account-security/', {
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
  });

  it('answers 401 once the access token is older than 15 minutes', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    expect((await security(session.access)).status).toBe(200);
    ctx.clock.advanceSeconds(15 * 60 + 1);
    const expired = await security(session.access);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'token_invalid' });
  });

  it('answers 401 before validating the body of an authenticated route', async () => {
    const res = await call(ctx.app, 'PUT', '/api/auth/profile/', { body: { nickname: 42 } });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/refresh/', () => {
  it('answers a new token pair and rotates the refresh token', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await refresh(session.refresh);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access: expect.any(String), refresh: expect.any(String) });
    expect(res.body.refresh).not.toBe(session.refresh);
    expect((await security(res.body.access as string)).status).toBe(200);
  });

  it('treats a reused refresh token as stolen: 401 and the whole session is revoked', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const rotated = await refresh(session.refresh);
    expect(rotated.status).toBe(200);
    const replay = await refresh(session.refresh);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      error: 'Refresh token already used; this login has been signed out',
      code: 'refresh_reused',
    });
    expect((await refresh(rotated.body.refresh as string)).status).toBe(401);
    expect((await security(rotated.body.access as string)).status).toBe(401);
    expect((await security(session.access)).status).toBe(401);
  });

  it('answers 401 for a refresh token older than 7 days', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    ctx.clock.advanceSeconds(7 * 24 * 60 * 60 + 1);
    expect((await refresh(session.refresh)).status).toBe(401);
  });

  it('answers 401 for an access token given as a refresh token, and for garbage', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    expect((await refresh(session.access)).status).toBe(401);
    expect((await refresh('garbage')).status).toBe(401);
  });
});

describe('POST /api/auth/logout/', () => {
  it('revokes the session with the refresh token alone', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await call(ctx.app, 'POST', '/api/auth/logout/', {
      body: { refresh: session.refresh },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    expect((await security(session.access)).status).toBe(401);
    expect((await refresh(session.refresh)).status).toBe(401);
  });

  it('leaves the other sessions of the user signed in', async () => {
    const email = uniqueEmail();
    const first = await registerEmail(ctx.app, email);
    const second = await loginEmail(ctx.app, ctx.clock, email);
    await call(ctx.app, 'POST', '/api/auth/logout/', { body: { refresh: first.refresh } });
    expect((await security(second.access)).status).toBe(200);
  });
});

describe('POST /api/auth/change-password/', () => {
  it('changes the password and revokes every other session but not the current one', async () => {
    const email = uniqueEmail();
    const other = await registerEmail(ctx.app, email);
    const current = await loginEmail(ctx.app, ctx.clock, email);
    const newPassword = 'a brand new password';
    const res = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: current.access,
      body: { old_password: PASSWORD, new_password: newPassword },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await security(current.access)).status).toBe(200);
    expect((await refresh(current.refresh)).status).toBe(200);
    expect((await security(other.access)).status).toBe(401);
    expect((await refresh(other.refresh)).status).toBe(401);
    await expect(loginEmail(ctx.app, ctx.clock, email, PASSWORD)).rejects.toThrow(/login failed/);
    expect((await loginEmail(ctx.app, ctx.clock, email, newPassword)).access).toEqual(
      expect.any(String),
    );
  });

  it("answers 'Old password is incorrect' on old_password", async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await call(ctx.app, 'POST', '/api/auth/change-password/', {
      token: session.access,
      body: { old_password: 'not my password', new_password: 'a brand new password' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      fields: { old_password: ['Old password is incorrect'] },
    });
  });
});
