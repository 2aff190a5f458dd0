// What the order benches share: the loopback fake exchange in a process of its own, a fresh
// PostgreSQL database or an in-memory PGlite, and the secret box live accounts' keys are sealed
// with.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createSecretBox } from '../packages/server/src/common/secret-box.js';
import { openPglite, openPostgres } from '../packages/server/src/db/client.js';
import type { DatabaseHandle } from '../packages/server/src/db/database.js';
import { createOutbox } from '../packages/server/src/events/outbox.js';
import {
  createAccountLanes,
  createExecutionCore,
  type ExecutionCoreDeps,
} from '../packages/server/src/execution/index.js';

export const secretBox = createSecretBox('bench-secret-key-0123456789-abcdefghijkl');

// ── the fake exchange, in a process of its own ────────────────────────────────────────────────

export interface FakeStats {
  readonly orders: number;
  /** Requests other than order creations (lookups, trades, leverage). */
  readonly lookups: number;
  readonly rateLimitRejections: number;
  /** The fake's CPU time since its start. */
  readonly cpuMs: number;
}

export interface FakeProcess {
  readonly url: string;
  readonly limit: { limit: number; windowMs: number };
  stats(): Promise<FakeStats>;
  stop(): Promise<void>;
}

export async function startFakeProcess(
  options: { venue?: 'binance' | 'okx'; orderRateLimit?: boolean } = {},
): Promise<FakeProcess> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'fake-exchange-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      FAKE_VENUE: options.venue ?? 'binance',
      FAKE_ORDER_RATE_LIMIT: options.orderRateLimit === false ? 'off' : 'on',
    },
  });
  const ready = await new Promise<{ url: string; limit: FakeProcess['limit'] }>(
    (resolve, reject) => {
      child.once('message', (message) =>
        resolve(message as { url: string; limit: FakeProcess['limit'] }),
      );
      child.once('exit', (code) => reject(new Error(`fake exchange exited with ${code}`)));
    },
  );
  return {
    url: ready.url,
    limit: ready.limit,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message as FakeStats));
        child.send({ type: 'stats' });
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

// ── databases ─────────────────────────────────────────────────────────────────────────────────

export interface BenchDatabase {
  readonly label: string;
  readonly handle: DatabaseHandle;
  /** PostgreSQL only: the database's URL (a raw connection beside the server's pool). */
  readonly url?: string;
  drop(): Promise<void>;
}

/** Runs one statement as the server's admin (creating and dropping bench databases). */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function openBenchPostgres(prefix = 'qs_bench'): Promise<BenchDatabase> {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), { migrate: true });
  return {
    label: 'PostgreSQL',
    handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function openBenchPglite(): Promise<BenchDatabase> {
  const handle = await openPglite(await PGlite.create(), { migrate: true });
  return { label: 'PGlite (in memory)', handle, drop: () => handle.close() };
}

// ── CPU of the database ─────────────────────────────────────────────────────────────────────

/** CPU time of this machine's PostgreSQL processes (Linux /proc), or null where unreadable. */
export function postgresCpuMs(): number | null {
  try {
    const tick = 10; // USER_HZ is 100 on Linux.
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * tick;
  } catch {
    return null;
  }
}

// ── profiles ──────────────────────────────────────────────────────────────────────────────────

/** Starts a V8 CPU profile of this process; `stopTo` writes it (open it in Chrome's DevTools). */
export async function startProfile(): Promise<{ stopTo(path: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stopTo(path: string) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** An execution core as the composition root builds one: lanes and an outbox of its own. */
export function benchCore(deps: Omit<ExecutionCoreDeps, 'lanes' | 'outbox'>) {
  return createExecutionCore({
    ...deps,
    lanes: createAccountLanes(),
    outbox: createOutbox({ db: deps.db, clock: deps.clock }),
  });
}
