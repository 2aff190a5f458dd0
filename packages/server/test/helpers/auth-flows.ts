import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import type { ManualClock } from '../../src/common/clock.js';
import { call } from './test-app.js';

export const PASSWORD = 'correct horse battery';

export interface Session {
  access: string;
  refresh: string;
  user: Record<string, unknown>;
}

let counter = 0;
/** A distinct e-mail address per call, so tests in one file never collide. */
export const uniqueEmail = (prefix = 'user'): string =>
  `${prefix}${++counter}_${Date.now() % 100000}@example.com`;
export const uniquePhone = (): string =>
  `+86138${String(Date.now() % 100000).padStart(5, '0')}${String(++counter).padStart(3, '0')}`;

/** The newest code in the dev outbox for `to`. */
export async function latestCode(app: FastifyInstance, to: string): Promise<string> {
  const res = await call<{ results: { code: string | null }[] }>(
    app,
    'GET',
    `/api/dev/outbox/?to=${encodeURIComponent(to)}`,
  );
  const code = res.body.results[0]?.code;
  if (!code) throw new Error(`No code in the outbox for ${to}`);
  return code;
}

export async function sendCode(
  app: FastifyInstance,
  type: 'email' | 'phone',
  target: string,
  action: 'login' | 'register' = 'login',
) {
  return call(app, 'POST', '/api/auth/send-code/', { body: { type, target, action } });
}

export async function registerEmail(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
): Promise<Session> {
  const res = await call<Session>(app, 'POST', '/api/auth/register/', {
    body: { email, password, password2: password },
  });
  if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function registerPhone(
  app: FastifyInstance,
  clock: ManualClock,
  phone: string,
  password = PASSWORD,
): Promise<Session> {
  const sent = await sendCode(app, 'phone', phone, 'register');
  if (sent.status !== 200) throw new Error(`send-code failed: ${JSON.stringify(sent.body)}`);
  const code = await latestCode(app, phone);
  clock.advanceSeconds(61); // past the send cooldown for the next code
  const res = await call<Session>(app, 'POST', '/api/auth/phone-register/', {
    body: { phone, code, password, password2: password },
  });
  if (res.status !== 201) throw new Error(`phone register failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sends a login code (moving the clock past any cooldown first) and answers it. */
export async function freshLoginCode(
  app: FastifyInstance,
  clock: ManualClock,
  type: 'email' | 'phone',
  target: string,
): Promise<string> {
  clock.advanceSeconds(61);
  const sent = await sendCode(app, type, target, 'login');
  if (sent.status !== 200) throw new Error(`send-code failed: ${JSON.stringify(sent.body)}`);
  return latestCode(app, target);
}

export async function loginEmail(
  app: FastifyInstance,
  clock: ManualClock,
  email: string,
  password = PASSWORD,
): Promise<Session> {
  const code = await freshLoginCode(app, clock, 'email', email);
  const res = await call<Session>(app, 'POST', '/api/auth/login/', {
    body: { email, password, email_code: code },
  });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The TOTP code of `secret` at the clock's time (optionally some steps away). */
export function totpAt(secret: string, clock: ManualClock, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + stepOffset * 30 });
}

/** Turns 2FA on for the session's user and answers the base32 secret. */
export async function enableTwoFactor(
  app: FastifyInstance,
  clock: ManualClock,
  access: string,
): Promise<string> {
  const enabled = await call<{ secret: string }>(app, 'POST', '/api/auth/2fa/enable/', {
    token: access,
  });
  if (enabled.status !== 200) throw new Error(`2fa enable failed: ${JSON.stringify(enabled.body)}`);
  const verified = await call(app, 'POST', '/api/auth/2fa/verify/', {
    token: access,
    body: { google_code: await totpAt(enabled.body.secret, clock) },
  });
  if (verified.status !== 200)
    throw new Error(`2fa verify failed: ${JSON.stringify(verified.body)}`);
  clock.advanceSeconds(90); // the used step must not be reused by the caller's next code
  return enabled.body.secret;
}
