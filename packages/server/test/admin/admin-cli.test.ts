// `npm run admin -- …` finds the server's database wherever it is typed, says which database it
// used, and never creates an empty one (issue 8, item 19). The real CLI process is run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const CLI = path.join(SERVER_DIR, 'src/cli/admin.ts');
const root = mkdtempSync(path.join(tmpdir(), 'qs-admin-cli-'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI from `cwd` (somewhere else than the repository) with `env`. */
function admin(args: string[], env: Record<string, string>, cwd = root) {
  const result = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: root, NODE_ENV: 'development', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run admin', () => {
  const dataDir = path.join(root, 'server-data');
  beforeAll(async () => {
    // The server's database, as a first start leaves it.
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    await database.close();
  }, 120_000);

  it('says which database it used', () => {
    const res = admin(
      ['create-staff', '--email', 'ops@example.com', '--password', 'a long password'],
      { DATA_DIR: dataDir, SECRET_KEY: TEST_SECRET_KEY },
    );
    expect(res.stderr).toContain(`Database: embedded (PGlite) at ${path.join(dataDir, 'pgdata')}`);
    expect(res.stdout).toMatch(/^Created staff user ops@example.com/);
    expect(res.status).toBe(0);
  });

  it('refuses a data dir without a database instead of creating an empty one', () => {
    const empty = path.join(root, 'nothing-here');
    const res = admin(['grant-vip', '--email', 'ops@example.com', '--days', '30'], {
      DATA_DIR: empty,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`No database at ${path.join(empty, 'pgdata')}`);
    expect(existsSync(empty)).toBe(false);
  });

  it('resolves the default ./data from the repository root, not from where it is typed', () => {
    const elsewhere = mkdtempSync(path.join(root, 'cwd-'));
    const res = admin(['grant-vip', '--email', 'ops@example.com', '--days', '30'], {}, elsewhere);
    const expected = path.join(REPO_ROOT, 'data', 'pgdata');
    // Either the repository's database exists (then it is used) or the CLI says it is missing;
    // never a database in the current folder.
    expect(res.stderr).toContain(expected);
    expect(existsSync(path.join(elsewhere, 'data'))).toBe(false);
  });
});
