import { describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

interface Endpoint {
  method: 'POST' | 'PUT' | 'GET';
  url: string;
  authenticated: boolean;
  valid: Record<string, unknown>;
}

const HUGE = 'x'.repeat(100 * 1024);

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    url: '/api/auth/send-code/',
    authenticated: false,
    valid: { type: 'email', target: 'a@b.co', action: 'login' },
  },
  {
    method: 'POST',
    url: '/api/auth/login/',
    authenticated: false,
    valid: { email: 'a@b.co', password: 'password1', email_code: '123456' },
  },
  {
    method: 'POST',
    url: '/api/auth/phone-login/',
    authenticated: false,
    valid: { phone: '+8613800000000', code: '123456' },
  },
  {
    method: 'POST',
    url: '/api/auth/register/',
    authenticated: false,
    valid: { email: 'a@b.co', password: 'password1', password2: 'password1' },
  },
  {
    method: 'POST',
    url: '/api/auth/phone-register/',
    authenticated: false,
    valid: {
      phone: '+8613800000000',
      code: '123456',
      password: 'password1',
      password2: 'password1',
    },
  },
  { method: 'POST', url: '/api/auth/refresh/', authenticated: false, valid: { refresh: 'token' } },
  { method: 'POST', url: '/api/auth/logout/', authenticated: false, valid: { refresh: 'token' } },
  {
    method: 'PUT',
    url: '/api/auth/profile/',
    authenticated: true,
    valid: { nickname: 'nick', bio: 'bio' },
  },
  {
    method: 'POST',
    url: '/api/auth/change-password/',
    authenticated: true,
    valid: { old_password: 'password1', new_password: 'password2' },
  },
  {
    method: 'POST',
    url: '/api/auth/2fa/verify/',
    authenticated: true,
    valid: { google_code: '123456' },
  },
  {
    method: 'POST',
    url: '/api/auth/2fa/disable/',
    authenticated: true,
    valid: { google_code: '123456' },
  },
];

let token = '';
async function send(endpoint: Endpoint, body: unknown) {
  if (endpoint.authenticated && !token)
    token = (await registerEmail(ctx.app, uniqueEmail())).access;
  return call(ctx.app, endpoint.method, endpoint.url, {
    body,
    ...(endpoint.authenticated ? { token } : {}),
  });
}

function expectFieldErrors(res: { status: number; body: Record<string, unknown> }, keys: string[]) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
  const fields = res.body.fields as Record<string, string[]>;
  for (const key of keys) {
    expect(fields[key], `field ${key}`).toEqual(expect.arrayContaining([expect.any(String)]));
  }
}

describe.each(ENDPOINTS)('$method $url refuses bad input with 4xx and field errors', (endpoint) => {
  const keys = Object.keys(endpoint.valid);

  it('answers field errors for wrong types', async () => {
    const body = Object.fromEntries(keys.map((k) => [k, { nested: [1, 2] }]));
    expectFieldErrors(await send(endpoint, body), keys);
  });

  it('answers field errors for numbers and booleans in place of strings', async () => {
    const body = Object.fromEntries(keys.map((k, i) => [k, i % 2 ? true : 123456]));
    expectFieldErrors(await send(endpoint, body), keys);
  });

  it('answers field errors for missing required fields', async () => {
    const res = await send(endpoint, {});
    if (endpoint.url === '/api/auth/profile/') {
      // every profile field is optional: an empty update is valid
      expect(res.status).toBe(200);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', fields: expect.any(Object) });
  });

  it('answers field errors for 100 kB strings', async () => {
    const body = Object.fromEntries(keys.map((k) => [k, HUGE]));
    expectFieldErrors(await send(endpoint, body), keys);
  });

  it('answers a field error under the name of an unknown field', async () => {
    const res = await send(endpoint, { ...endpoint.valid, surprise: 'hello' });
    expectFieldErrors(res, ['surprise']);
    expect((res.body.fields as Record<string, string[]>).surprise).toEqual(['Unknown field']);
  });

  it('never answers 5xx for null, arrays or deeply nested values', async () => {
    for (const body of [
      null,
      [],
      [endpoint.valid],
      { ...Object.fromEntries(keys.map((k) => [k, null])) },
    ]) {
      const res = await send(endpoint, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('enum and format checks', () => {
  it('answers field errors for unknown type and action values', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'pigeon', target: 'a@b.co', action: 'delete' },
    });
    expectFieldErrors(res, ['type', 'action']);
  });

  it('answers a field error for a code that is not 6 digits', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/phone-login/', {
      body: { phone: '+8613800000000', code: '12ab' },
    });
    expectFieldErrors(res, ['code']);
  });

  it('answers a field error for an unknown outbox query parameter', async () => {
    const res = await call(ctx.app, 'GET', '/api/dev/outbox/?recipient=x');
    expectFieldErrors(res, ['recipient']);
  });
});
