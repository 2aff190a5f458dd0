import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  extend: (app) => {
    app.get('/api/test/boom/', async () => {
      throw new Error('database password is hunter2');
    });
    // As drizzle reports a statement PostgreSQL rolled back: the driver's error as the cause.
    for (const [path, code] of [
      ['deadlock', '40P01'],
      ['serialization', '40001'],
      ['unique', '23505'],
      ['gone', '23503'],
    ]) {
      app.post(`/api/test/${path}/`, async () => {
        throw new Error('Failed query: update "users" set "platform_balance" = $1', {
          cause: Object.assign(new Error('driver error'), { code }),
        });
      });
    }
  },
});

describe('unexpected errors', () => {
  it('answers 500 internal_error with a generic message that leaks nothing', async () => {
    const res = await call(ctx.app, 'GET', '/api/test/boom/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('answers 409 when the database rolled the transaction back for another one, or a row it refers to went', async () => {
    for (const path of ['deadlock', 'serialization']) {
      const res = await call(ctx.app, 'POST', `/api/test/${path}/`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'Another change was being saved at the same moment; nothing was changed. Try again.',
        code: 'concurrent_change',
      });
    }
    const gone = await call(ctx.app, 'POST', '/api/test/gone/');
    expect(gone.status).toBe(409);
    expect(gone.body).toEqual({
      error: 'Something this request refers to was deleted meanwhile; nothing was changed.',
      code: 'reference_gone',
    });
    // Other database failures stay internal errors, their text kept out of the answer.
    const res = await call(ctx.app, 'POST', '/api/test/unique/');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('platform_balance');
  });
});
