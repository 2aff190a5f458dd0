import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ env: { NODE_ENV: 'production' } });

describe('in production', () => {
  it('does not expose the dev outbox', async () => {
    const res = await call(ctx.app, 'GET', '/api/dev/outbox/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('still answers health', async () => {
    expect((await call(ctx.app, 'GET', '/api/health/')).status).toBe(200);
  });
});
