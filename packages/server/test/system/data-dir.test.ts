// DATA_DIR and everything under it belong to the server's user alone (issue 8, item 6): the real
// server process is started on a data dir that an earlier run left open to everybody.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(path.join(tmpdir(), 'qs-data-dir-'));
const dataDir = path.join(root, 'data');
let server: ChildProcess | undefined;

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (links not followed) with its permission bits. */
function modes(dir: string): { path: string; mode: number }[] {
  const found: { path: string; mode: number }[] = [];
  for (const name of readdirSync(dir)) {
    const entry = path.join(dir, name);
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink()) continue;
    found.push({ path: path.relative(dataDir, entry), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) found.push(...modes(entry));
  }
  return found;
}

/** Starts the server as `npm start` runs it (lenient umask of a usual shell) and waits for it. */
async function startServer(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? root,
      DATA_DIR: dataDir,
      PORT: '0',
      MARKET_DATA: 'simulated',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(root, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('QuantSquare server started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

describe('the data directory', () => {
  it('is the owner’s only, whatever a former run left and whatever the server creates', async () => {
    // Left by an earlier version: open to everybody.
    mkdirSync(path.join(dataDir, 'uploads', 'avatars'), { recursive: true });
    writeFileSync(path.join(dataDir, 'uploads', 'avatars', 'old.png'), 'png');
    chmodSync(path.join(dataDir, 'uploads', 'avatars', 'old.png'), 0o666);
    chmodSync(path.join(dataDir, 'uploads', 'avatars'), 0o777);
    chmodSync(path.join(dataDir, 'uploads'), 0o755);
    chmodSync(dataDir, 0o777);

    await startServer();

    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = modes(dataDir);
    // The database, the generated secret key, the lock and the admin socket are there.
    expect(entries.map((e) => e.path)).toEqual(
      expect.arrayContaining(['pgdata', 'secret.key', 'server.lock', 'uploads/avatars/old.png']),
    );
    expect(entries.length).toBeGreaterThan(100);
    const open = entries.filter((e) => (e.mode & 0o077) !== 0);
    expect(open).toEqual([]);
    // The owner keeps what it had.
    expect(entries.find((e) => e.path === 'uploads/avatars/old.png')?.mode).toBe(0o600);
  }, 180_000);
});
