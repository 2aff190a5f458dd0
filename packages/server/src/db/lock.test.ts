import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, lockFilePath } from './lock.js';

const created: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qs-lock-'));
  created.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

describe('data dir lock', () => {
  it('writes our pid into server.lock and removes it on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(lockFilePath(dir), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  it('refuses a lock held by a live process with a clear message', () => {
    const dir = tempDir();
    writeFileSync(lockFilePath(dir), `${process.ppid}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(/in use by another QuantSquare process/);
  });

  it('takes over a lock left by a dead process', () => {
    const dir = tempDir();
    writeFileSync(lockFilePath(dir), '999999999\n');
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(lockFilePath(dir), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });
});
