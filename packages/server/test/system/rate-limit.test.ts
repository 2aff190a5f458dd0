import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ config: { authIpRatePerMinute: 3 } });

describe('per-IP rate limit on the sign-in routes', () => {
  it('answers 429 rate_limited with retry_after once an address exceeds the limit', async () => {
    const body = { email: 'nobody@example.com', password: 'whatever1', email_code: '123456' };
    for (let i = 0; i < 3; i++) {
      expect((await call(ctx.app, 'POST', '/api/auth/login/', { body })).status).toBe(400);
    }
    const res = await call(ctx.app, 'POST', '/api/auth/login/', { body });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({
      code: 'rate_limited',
      error: expect.any(String),
      retry_after: expect.any(Number),
    });
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('does not limit the other routes', async () => {
    for (let i = 0; i < 5; i++)
      expect((await call(ctx.app, 'GET', '/api/health/')).status).toBe(200);
  });
});
