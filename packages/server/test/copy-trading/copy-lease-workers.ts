// The two-process copy lease tests' rig: a database of their own on PostgreSQL (two processes
// cannot share PGlite) seeded with a leader and its followers (copy-fault-seed.ts), the ccxt fake,
// and copy-engine worker processes (copy-child.ts) with short leases, on Redis when it answers
// (else each worker is told of the leader's change by hand), driven over stdin.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { copyLease } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { testDatabaseUrlFromEnvironment } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import type { Database } from '../../src/db/database.js';
import { copyRelations, exchangeAccounts, workerLeases } from '../../src/db/schema/index.js';
import {
  type FakeExchangeOptions,
  type FakePrivateExchange,
  startFakeExchange,
} from '../exchange/fake-exchange-private.js';
import { followChild } from '../helpers/child-output.js';
import { randomSuffix, withDatabase } from '../helpers/test-database-info.js';
import { copyAmountOf, LEADER_EQUITY } from './copy-fault-plan.js';
import { COPY_TEST_SECRET, seedCopyRelations } from './copy-fault-seed.js';

const CHILD = fileURLToPath(new URL('./copy-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Short leases (the defaults are 20 s / 5 s): a dead process's relations move within ~7 s. */
export const LEASE_TTL_MS = 6_000;
export const LEASE_RENEW_MS = 1_000;
/** The workers' reconcile timer: it heals the relations a worker took over. */
export const RECONCILE_MS = 2_000;

/** Follower i's target for the leader at `leaderSize`: on Binance's 0.001 step, toward zero. */
export const targetOf = (leaderSize: number, index: number) =>
  new Decimal(leaderSize)
    .times(copyAmountOf(index))
    .dividedBy(LEADER_EQUITY)
    .toDecimalPlaces(3, Decimal.ROUND_DOWN);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const sorted = (ids: Iterable<number>) => [...ids].sort((x, y) => x - y);

export async function waitFor(condition: () => boolean, timeoutMs: number, why: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${why()}`);
    await sleep(50);
  }
}

async function admin(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function isReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port || 6379), hostname, () => done(true));
  });
}

export interface Report {
  ready?: number[];
  sizes?: Record<string, string>;
  /** The relations whose leases the worker holds (and may act on). */
  held?: number[];
  /** Every copy order the worker submitted: [relation id, idempotency key]. */
  submitted?: [number, string][];
}

export interface LeaseRig {
  readonly fake: FakePrivateExchange;
  readonly databaseUrl: string;
  /** Whether the workers share their events on Redis. */
  readonly redis: boolean;
  /** Relation id per follower index. */
  readonly relationOf: ReadonlyMap<number, number>;
  readonly allRelations: number[];
  readonly holders: { readonly a: string; readonly b: string };
  startWorker(holderId: string, env?: Record<string, string>): Worker;
  /** The database, opened for a look (closed after `read`). */
  read<T>(read: (db: Database) => Promise<T>): Promise<T>;
  /** Kills what is left and drops the database. */
  close(): Promise<void>;
}

/**
 * Seeds `followers` followers; `holderOf(index)` says which worker ('a', 'b') holds the
 * relation's lease before they start (null: free, the first to look takes it).
 */
export async function startLeaseRig(options: {
  followers: number;
  holderOf: (index: number) => 'a' | 'b' | null;
  fake?: Omit<FakeExchangeOptions, 'exchange'>;
  /** Write the leader's leverage as set (its trade makes no leverage call at the fake). */
  leaderLeverageSet?: boolean;
}): Promise<LeaseRig> {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const children: ChildProcess[] = [];
  const fake = await startFakeExchange({
    exchange: 'binance',
    tracksPositions: true,
    ...options.fake,
  });
  cleanups.push(() => fake.close());
  // The run's PostgreSQL (its migrated template), else the machine's, migrated here (as the
  // bots' lease test does).
  const info = inject('testDatabase');
  const serverUrl =
    info.kind === 'postgres'
      ? info.serverUrl
      : (testDatabaseUrlFromEnvironment() ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `qs_copy_lease_${randomSuffix()}`;
  await admin(
    serverUrl,
    `CREATE DATABASE ${name}${info.kind === 'postgres' ? ` TEMPLATE ${info.templateName}` : ''}`,
  );
  cleanups.push(() => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const databaseUrl = withDatabase(serverUrl, name);
  const redis = await isReachable(REDIS_URL);
  const holders = { a: `copy-worker-a-${randomUUID()}`, b: `copy-worker-b-${randomUUID()}` };

  const read = async <T>(look: (db: Database) => Promise<T>): Promise<T> => {
    const handle = await openPostgres(databaseUrl, { migrate: false });
    try {
      return await look(handle.db);
    } finally {
      await handle.close();
    }
  };
  if (info.kind !== 'postgres') await (await openPostgres(databaseUrl, { migrate: true })).close();
  const relationOf = new Map<number, number>();
  await read(async (db) => {
    const leader = await seedCopyRelations(
      db,
      createSecretBox(COPY_TEST_SECRET),
      systemClock,
      options.followers,
    );
    const accounts = await db.select().from(exchangeAccounts);
    for (const relation of await db.select().from(copyRelations)) {
      const account = accounts.find((a) => a.id === relation.followerAccountId);
      relationOf.set(Number(account?.name.replace('copyfollower', '')), relation.id);
    }
    const owned = [...relationOf].flatMap(([index, id]) => {
      const holder = options.holderOf(index);
      return holder ? [{ resource: copyLease(id), holder: holders[holder] }] : [];
    });
    if (owned.length > 0) {
      await db
        .insert(workerLeases)
        .values(owned.map((o) => ({ ...o, expiresAt: sql`now() + interval '60 seconds'` })));
    }
    if (options.leaderLeverageSet) {
      await db.execute(
        sql`insert into execution_leverages (account_id, symbol, leverage, set_at) values (${leader.accountId}, 'BTC/USDT:USDT', 2, now())`,
      );
    }
  });

  const startWorker = (holderId: string, env: Record<string, string> = {}): Worker => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        FAKE_URL: fake.url,
        SETUP: '0',
        COMMANDS: '1',
        HOLDER_ID: holderId,
        LEASE_TTL_MS: String(LEASE_TTL_MS),
        LEASE_RENEW_MS: String(LEASE_RENEW_MS),
        RECONCILE_MS: String(RECONCILE_MS),
        CONCURRENCY: '8',
        POLL_MS: '200',
        REDIS_URL: redis ? REDIS_URL : '',
        EVENT_PREFIX: `qs-test:copy-leases:${holders.a}`,
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    return workerOf(child, holderId);
  };

  return {
    fake,
    databaseUrl,
    redis,
    relationOf,
    allRelations: sorted(relationOf.values()),
    holders,
    startWorker,
    read,
    async close() {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}

export interface Worker {
  readonly child: ChildProcess;
  /** The worker's latest report (each field as last printed). */
  readonly report: Report;
  /** The keys of the leader's trades done in this worker. */
  readonly led: string[];
  send(command: object): void;
  readonly exited: Promise<void>;
  why(): string;
}

function workerOf(child: ChildProcess, holderId: string): Worker {
  const report: Report = {};
  const led: string[] = [];
  const output = followChild<Report & { led?: string }>(child, (message) => {
    if (message.led) led.push(message.led);
    Object.assign(report, message);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    child,
    report,
    led,
    exited,
    send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
    why: () => {
      const state =
        child.exitCode !== null || child.signalCode !== null
          ? `exited ${child.exitCode ?? child.signalCode}`
          : 'running';
      return `${holderId} ${state}, held ${report.held}; stderr: ${output.stderr().slice(-2000)}`;
    },
  };
}

/** Whether the worker's last report has every follower at its target for the leader's size. */
export const atTargets = (rig: LeaseRig, worker: Worker, leaderSize: number) =>
  [...rig.relationOf].every(([index, id]) =>
    targetOf(leaderSize, index).eq(worker.report.sizes?.[id] ?? '0'),
  );

/** The leader trades in `by`; without Redis every other live worker is told of it by hand. */
export async function lead(
  rig: LeaseRig,
  by: Worker,
  others: Worker[],
  size: number,
  key: string,
  timeoutMs: number,
) {
  by.send({ lead: size, key });
  await waitFor(() => by.led.includes(key), timeoutMs, by.why);
  if (!rig.redis) for (const other of others) other.send({ changed: true });
}
