// Starts the product as `npm start` runs it (built SPA, API, workers) on a fresh embedded
// database and a simulated market feed, for the benchmarks that need a live server.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..');

/**
 * `env` overrides the defaults below (e.g. DATABASE_URL for a PostgreSQL bench). `apiOnly` runs
 * the server entry directly, without (re)building the web app (for API-only figures).
 */
export async function startServer(
  port: number,
  env: Record<string, string> = {},
  options: { apiOnly?: boolean } = {},
): Promise<RunningServer> {
  // scripts/start.mjs, as `npm start`: it rebuilds the web app when it is missing or stale.
  const args = options.apiOnly
    ? ['--import', 'tsx', join(root, 'packages/server/src/main.ts')]
    : [join(root, 'scripts/start.mjs')];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'qs-bench-')),
      DATABASE_URL: '',
      MARKET_DATA: 'simulated',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SECRET_KEY: 'bench-only-secret-key-0123456789abcdef',
      ...env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/health/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
