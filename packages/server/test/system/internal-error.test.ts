import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({
  extend: (app) => {
    app.get('/api/test/boom/', async () => {
      throw new Error('database password is hunter2');
    });
  },
});

describe('unexpected errors', () => {
  it('answers 500 internal_error with a generic message that leaks nothing', async () => {
    const res = await call(ctx.app, 'GET', '/api/test/boom/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });
});
