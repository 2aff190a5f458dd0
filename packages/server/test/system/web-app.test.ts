import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const dist = mkdtempSync(path.join(tmpdir(), 'qs-web-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>QuantSquare</title><div id="root"></div>',
);
writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.info("app");');
// As the build writes it: a hashed chunk with its brotli copy beside it.
const chunk = `export const chart = ${JSON.stringify('x'.repeat(4000))};`;
writeFileSync(path.join(dist, 'assets', 'chart-Ab12Cd34.js'), chunk);
writeFileSync(path.join(dist, 'assets', 'chart-Ab12Cd34.js.br'), brotliCompressSync(chunk));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const ctx = useTestApp({ env: { WEB_DIST_DIR: dist } });

describe('serving the built web app', () => {
  it('serves index.html at /', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves static files', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('console.info');
  });

  it('lets browsers keep hashed assets for a year, and revalidate the page itself', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/chart-Ab12Cd34.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/dashboard']) {
      const page = await ctx.app.inject({ method: 'GET', url });
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("sends the build's brotli copy to a browser that accepts it, the plain file to others", async () => {
    const url = '/assets/chart-Ab12Cd34.js';
    const compressed = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toContain('accept-encoding');
    expect(compressed.rawPayload.length).toBeLessThan(chunk.length / 4);
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(chunk);

    const plain = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': '' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(chunk);
  });

  it.each(['/login', '/my/security', '/dashboard', '/strategy/12?tab=trades'])(
    'answers index.html for the client route %s',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
    },
  );

  it('keeps unknown /api routes a JSON 404', async () => {
    const res = await call(ctx.app, 'GET', '/api/unknown/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('answers 404 for a missing asset file instead of the app', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
  });

  it('does not serve files outside the dist directory', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/..%2F..%2Fetc%2Fpasswd' });
    expect(res.body).not.toContain('root:');
  });

  it('still answers the API', async () => {
    expect((await call(ctx.app, 'GET', '/api/health/')).status).toBe(200);
  });
});
