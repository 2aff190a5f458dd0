import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const created: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qs-config-'));
  created.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ SECRET_KEY: 'k'.repeat(40), DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      port: 8000,
      marketData: 'auto',
      nodeEnv: 'development',
      databaseUrl: undefined,
    });
    expect(config.webDistDir.endsWith(path.join('packages', 'web', 'dist'))).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('runs as one process by default; api and worker roles need PostgreSQL and Redis', () => {
    const base = { SECRET_KEY: 'k'.repeat(40), DATA_DIR: tempDir() };
    expect(loadConfig(base).role).toBe('all');
    const cluster = { ...base, DATABASE_URL: 'postgres://db/qs', REDIS_URL: 'redis://r:6379' };
    expect(loadConfig({ ...cluster, ROLE: 'api' }).role).toBe('api');
    expect(loadConfig({ ...cluster, ROLE: 'worker' }).role).toBe('worker');
    expect(() => loadConfig({ ...base, ROLE: 'worker' })).toThrow(/ROLE=worker needs DATABASE_URL/);
    expect(() => loadConfig({ ...base, ROLE: 'api', DATABASE_URL: 'postgres://db/qs' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...cluster, ROLE: 'everything' })).toThrow(/ROLE/);
  });

  it('generates DATA_DIR/secret.key with mode 0600 on first start and reuses it', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first.secretKey);
  });

  it('derives the JWT secret from SECRET_KEY unless JWT_SECRET is set', () => {
    const a = loadConfig({ SECRET_KEY: 'a'.repeat(40) });
    expect(a.jwtSecret).not.toBe(a.secretKey);
    expect(loadConfig({ SECRET_KEY: 'a'.repeat(40) }).jwtSecret).toBe(a.jwtSecret);
    expect(loadConfig({ SECRET_KEY: 'a'.repeat(40), JWT_SECRET: 'j'.repeat(40) }).jwtSecret).toBe(
      'j'.repeat(40),
    );
  });

  it('reads the help centre contact details, with development defaults', () => {
    const defaults = loadConfig({ SECRET_KEY: 'k'.repeat(40), PORT: '8123' });
    expect(defaults.contact).toEqual({
      supportEmail: 'support@quantsquare.example',
      telegramUrl: 'https://t.me/quantsquare',
      xUrl: 'https://x.com/quantsquare',
      websiteUrl: 'http://localhost:8123',
    });
    const set = loadConfig({
      SECRET_KEY: 'k'.repeat(40),
      SUPPORT_EMAIL: 'care@desk.example',
      TELEGRAM_URL: 'https://t.me/desk',
      X_URL: 'https://x.com/desk',
      WEBSITE_URL: 'https://desk.example',
    });
    expect(set.contact).toEqual({
      supportEmail: 'care@desk.example',
      telegramUrl: 'https://t.me/desk',
      xUrl: 'https://x.com/desk',
      websiteUrl: 'https://desk.example',
    });
  });

  it.each([
    ['SUPPORT_EMAIL', 'not an address'],
    ['TELEGRAM_URL', 'javascript:alert(1)'],
    ['X_URL', 'ftp://x.com/desk'],
    ['WEBSITE_URL', 'desk.example'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ SECRET_KEY: 'k'.repeat(40), [name]: value })).toThrow(ConfigError);
  });

  it('reads TRUST_PROXY as none or proxy addresses, and refuses believing everyone', () => {
    const base = { SECRET_KEY: 'k'.repeat(40) };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    for (const value of ['true', '1', 'proxy.local', '10.0.0.0/33', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(ConfigError);
    }
  });

  it("keeps the spec's 60 s code cooldown unless a test server shortens it", () => {
    const base = { SECRET_KEY: 'k'.repeat(40), DATA_DIR: tempDir() };
    expect(loadConfig(base).codeCooldownSeconds).toBe(60);
    expect(loadConfig({ ...base, CODE_COOLDOWN_SECONDS: '5' }).codeCooldownSeconds).toBe(5);
    expect(() => loadConfig({ ...base, CODE_COOLDOWN_SECONDS: '0' })).toThrow(
      /CODE_COOLDOWN_SECONDS/,
    );
  });

  it('demands SECRET_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(ConfigError);
  });

  it('refuses invalid values with a readable message', () => {
    expect(() => loadConfig({ SECRET_KEY: 'k'.repeat(40), PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SECRET_KEY: 'k'.repeat(40), MARKET_DATA: 'maybe' })).toThrow(
      /MARKET_DATA/,
    );
  });
});
