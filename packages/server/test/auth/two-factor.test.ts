import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { registerEmail, totpAt, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

async function startSetup(access: string) {
  const res = await call<{ secret: string; qr_code: string; otpauth_url: string }>(
    ctx.app,
    'POST',
    '/api/auth/2fa/enable/',
    { token: access },
  );
  expect(res.status).toBe(200);
  return res.body;
}
const verify = (access: string, google_code: string) =>
  call(ctx.app, 'POST', '/api/auth/2fa/verify/', { token: access, body: { google_code } });
const disable = (access: string, google_code: string) =>
  call(ctx.app, 'POST', '/api/auth/2fa/disable/', { token: access, body: { google_code } });
const security = async (access: string) =>
  (await call(ctx.app, 'GET', '/api/auth/account-security/', { token: access })).body;

describe('POST /api/auth/2fa/enable/', () => {
  it('answers a PNG QR code, the base32 secret and an otpauth URL for QuantSquare', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const setup = await startSetup(session.access);
    expect(setup.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(setup.secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(setup.otpauth_url).toContain('otpauth://totp/');
    expect(setup.otpauth_url).toContain('issuer=QuantSquare');
    expect(decodeURIComponent(setup.otpauth_url)).toContain(email);
    expect(await security(session.access)).toMatchObject({ google_auth_enabled: false });
  });

  it('stores the secret encrypted, never in plaintext', async () => {
    const email = uniqueEmail();
    const session = await registerEmail(ctx.app, email);
    const setup = await startSetup(session.access);
    const [pending] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(pending?.totpPendingSecret).toMatch(/^v1:/);
    expect(pending?.totpPendingSecret).not.toContain(setup.secret);
    await verify(session.access, await totpAt(setup.secret, ctx.clock));
    const [enabled] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(enabled?.totpSecret).toMatch(/^v1:/);
    expect(JSON.stringify(enabled)).not.toContain(setup.secret);
  });
});

describe('POST /api/auth/2fa/verify/', () => {
  it('turns 2FA on with a correct code', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const setup = await startSetup(session.access);
    const res = await verify(session.access, await totpAt(setup.secret, ctx.clock));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    expect(await security(session.access)).toMatchObject({
      google_auth_enabled: true,
      two_factor_enabled: true,
    });
  });

  it('accepts the code of the previous and of the next time step', async () => {
    const a = await registerEmail(ctx.app, uniqueEmail());
    const setupA = await startSetup(a.access);
    expect((await verify(a.access, await totpAt(setupA.secret, ctx.clock, -1))).status).toBe(200);
    const b = await registerEmail(ctx.app, uniqueEmail());
    const setupB = await startSetup(b.access);
    expect((await verify(b.access, await totpAt(setupB.secret, ctx.clock, 1))).status).toBe(200);
  });

  it('refuses a code two time steps away', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const setup = await startSetup(session.access);
    const res = await verify(session.access, await totpAt(setup.secret, ctx.clock, -2));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid Google authentication code',
      code: 'invalid_google_code',
    });
  });

  it("answers 'Start 2FA setup first' without a pending setup", async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await verify(session.access, '123456');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'two_factor_not_pending',
      error: 'Start 2FA setup first',
    });
  });

  it('refuses to start a second setup while 2FA is on', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const setup = await startSetup(session.access);
    await verify(session.access, await totpAt(setup.secret, ctx.clock));
    const again = await call(ctx.app, 'POST', '/api/auth/2fa/enable/', { token: session.access });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: '2FA is already enabled' });
  });
});

describe('POST /api/auth/2fa/disable/', () => {
  it('refuses the code of an already used time step, then turns 2FA off with a new one', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const setup = await startSetup(session.access);
    const used = await totpAt(setup.secret, ctx.clock);
    expect((await verify(session.access, used)).status).toBe(200);
    const replay = await disable(session.access, used);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'invalid_google_code' });
    ctx.clock.advanceSeconds(30);
    const res = await disable(session.access, await totpAt(setup.secret, ctx.clock));
    expect(res.status).toBe(200);
    expect(await security(session.access)).toMatchObject({ google_auth_enabled: false });
  });

  it("answers '2FA is not enabled' when it is off", async () => {
    const session = await registerEmail(ctx.app, uniqueEmail());
    const res = await disable(session.access, '123456');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'two_factor_not_enabled', error: '2FA is not enabled' });
  });
});
