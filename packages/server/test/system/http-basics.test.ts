import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('health', () => {
  it('answers ok with the database kind and the version', async () => {
    const res = await call(ctx.app, 'GET', '/api/health/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      database: ctx.database.kind,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });
});

describe('error answers', () => {
  it('answers 400 invalid_json for malformed JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json', error: expect.any(String) });
  });

  it('answers 413 payload_too_large for a body over 1 MB', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'text/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers a JSON 404 not_found for an unknown API route', async () => {
    const res = await call(ctx.app, 'GET', '/api/nothing-here/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
  });

  it('answers 404 not_found for a known path with an unknown method', async () => {
    const res = await call(ctx.app, 'DELETE', '/api/health/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('answers 400 validation_failed with per-field messages for wrong types and unknown fields', async () => {
    const res = await call(ctx.app, 'POST', '/api/auth/login/', {
      body: { email: 42, password: ['x'], extra: true },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    const fields = res.body.fields as Record<string, string[]>;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['email', 'password', 'extra']));
  });

  it('answers 400 validation_failed for a JSON body that is not an object', async () => {
    for (const payload of ['[]', '"text"', '12', 'null']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('answers 400 for a POST without a body', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/login/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });
});

describe('API documentation', () => {
  it('serves the OpenAPI UI and document under /api/docs', async () => {
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const doc = await call<{ paths: Record<string, unknown> }>(ctx.app, 'GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/health/', '/api/auth/login/', '/api/auth/send-code/']),
    );
  });
});

describe('without a built web app', () => {
  it('answers / with a plain message saying the web app is not built', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('not built');
  });
});

describe('trailing slashes', () => {
  it('reaches a route without its trailing slash', async () => {
    expect((await call(ctx.app, 'GET', '/api/health')).status).toBe(200);
  });
});
