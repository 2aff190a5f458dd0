// Security headers on the app, the API, uploads and the docs (issue 8, item 5). The browser
// tests (e2e/*.spec.ts) run the built app under this policy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.js';

const dist = mkdtempSync(path.join(tmpdir(), 'qs-web-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>QuantSquare</title><div id="root"></div><script type="module" src="/assets/app.js"></script>',
);
writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.info("app");');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const ctx = useTestApp({ env: { WEB_DIST_DIR: dist } });

/** The policy's directives by name. */
function directives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  it.each([
    ['the app', '/'],
    ['a client route', '/my/security'],
    ['an asset', '/assets/app.js'],
    ['an API answer', '/api/health/'],
    ['an API error', '/api/nothing/'],
    ['the API docs', '/api/docs/static/index.html'],
  ])('are on %s', async (_label, url) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { host: 'app.example.com:8443' },
    });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // No inline or evaluated script anywhere.
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    // antd's CSS-in-JS, the 2FA QR code (a data: image), the page's own websocket.
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'ws://app.example.com:8443',
      'wss://app.example.com:8443',
    ]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it('puts no odd Host header into the policy', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/health/',
      headers: { host: "evil.example'; script-src *" },
    });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });
});
