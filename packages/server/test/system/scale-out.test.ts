import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { openPostgres } from '../../src/db/client.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  bots,
  copyRelations,
  exchangeAccounts,
  executionOrders,
  executionPositions,
  paperOrders,
  strategyShareSettings,
  users,
  webhookSignals,
} from '../../src/db/schema/index.js';
import { followChild } from '../helpers/child-output.js';
import { randomSuffix, withDatabase } from '../helpers/test-database-info.js';

// The product as a cluster: 1 api process and 2 workers (`npm start` with ROLE=api / worker) on
// one PostgreSQL and one Redis. 200 paper bots, 50 copy relations and 20 webhook configurations,
// each on an exchange account of its own, are shared out between the workers; a kill -9 of one
// worker hands everything to the other within 30 s; alerts posted to the api node before, during
// and after run exactly once; and a viewer on the api node hears what a worker did.

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = path.join(REPO_ROOT, 'packages/server/src/main.ts');
const REDIS_URL = 'redis://127.0.0.1:6379';
const BOTS = 200;
const COPIES = 50;
const CONFIGS = 20;
const TAKEOVER_MS = 30_000;

const info = inject('testDatabase');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let databaseUrl = '';
let database: DatabaseHandle | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
const dataDirs: string[] = [];
const children: ChildProcess[] = [];
const redisPrefix = `qs-scale-${randomSuffix()}`;
const secretKey = `scale-out-secret-key-${randomUUID()}`;

interface Node {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
  why(): string;
}

/** Starts `main.ts` as `npm start` does, in the given role, and waits until it listens. */
async function startNode(role: 'api' | 'worker'): Promise<Node> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `qs-scale-${role}-`));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ROLE: role,
      PORT: '0',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      SECRET_KEY: secretKey,
      MARKET_DATA: 'simulated',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let base: string | undefined;
  const output = followChild<{ msg?: string; app?: string }>(child, (line) => {
    if (line.msg === 'QuantSquare server started' && line.app) base = line.app.replace(/\/$/, '');
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const why = () => `${role} ${child.exitCode === null ? 'running' : 'exited'}: ${output.stderr()}`;
  for (let i = 0; i < 1_200 && base === undefined; i++) {
    if (child.exitCode !== null) throw new Error(why());
    await sleep(100);
  }
  if (base === undefined) throw new Error(`not started: ${why()}`);
  return { child, base: base.replace('localhost', '127.0.0.1'), exited, why };
}

async function http<T>(
  node: Node,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; text?: string } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${node.base}${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'content-type': options.text !== undefined ? 'text/plain' : 'application/json',
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.text !== undefined ? { body: options.text } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** What the last probe saw, for the failure message. */
let lastSeen: unknown;

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  lastSeen = undefined;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(lastSeen)}`);
    }
    await sleep(250);
  }
}

type Member = { id: string; role: string; is_live: boolean; leases: Record<string, number> };

beforeAll(async () => {
  if (info.kind !== 'postgres') return;
  const name = `qs_test_${randomSuffix()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: info.serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE ${info.templateName}`);
  databaseUrl = withDatabase(info.serverUrl, name);
  dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  database = await openPostgres(databaseUrl, { migrate: false });
});

afterAll(async () => {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  await database?.close();
  await dropDatabase?.();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Accounts of `userId`, one per name, paper, with 10,000 USDT. */
async function paperAccounts(userId: number, names: readonly string[]): Promise<number[]> {
  const now = new Date();
  const rows = await database!.db
    .insert(exchangeAccounts)
    .values(
      names.map((name) => ({
        userId,
        name,
        exchange: 'binance' as const,
        accountType: 'classic' as const,
        positionMode: 'net' as const,
        defaultLeverage: 5,
        isPaper: true,
        paperBalance: '10000',
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: exchangeAccounts.id });
  return rows.map((row) => row.id);
}

describe.skipIf(info.kind !== 'postgres')('1 api and 2 workers on PostgreSQL and Redis', () => {
  it('shares work out, survives a kill -9 of a worker, and runs every alert once', async () => {
    const startedAt = Date.now();
    const stage = (what: string) =>
      process.stdout.write(
        `scale-out: ${what} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
      );
    const api = await startNode('api');
    stage('api listening');
    const owner = await http<{ access: string; user: { id: number } }>(
      api,
      'POST',
      '/api/auth/register/',
      {
        body: {
          email: `scale-${randomSuffix()}@example.com`,
          password: 'correct horse battery',
          password2: 'correct horse battery',
        },
      },
    );
    expect(owner.status).toBe(201);
    const token = owner.body.access;
    const userId = Number(owner.body.user.id);
    const db = database!.db;
    await db.update(users).set({ isStaff: true }).where(eq(users.id, userId));

    // 200 running paper bots, each on an account of its own (hourly: they trade nothing here).
    const now = new Date();
    const botAccounts = await paperAccounts(
      userId,
      Array.from({ length: BOTS }, (_, i) => `bot ${i}`),
    );
    await db.insert(bots).values(
      botAccounts.map((accountId) => ({
        userId,
        exchangeAccountId: accountId,
        symbol: 'BTC/USDT:USDT',
        timeframe: '1h' as const,
        strategyType: 'ma_cross',
        strategyParameters: { fast_period: 5, slow_period: 20 },
        tradeAmount: '100',
        status: 'running' as const,
        createdAt: now,
        updatedAt: now,
      })),
    );
    // 50 copy relations of a leader's paper account, each follower account of its own.
    const [leader] = await db
      .insert(users)
      .values({
        username: `leader-${randomSuffix()}@example.com`,
        passwordHash: 'no-login',
        invitationCode: `L${randomSuffix()}`.slice(0, 12).toUpperCase(),
        dateJoined: now,
      })
      .returning({ id: users.id });
    const [leaderAccount] = await paperAccounts(leader!.id, ['leader']);
    // Published and open to copies (else the copy engine stops the relations).
    await db.insert(strategyShareSettings).values({
      accountId: leaderAccount!,
      userId: leader!.id,
      name: 'Leader',
      isPublic: true,
      publishedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const followerAccounts = await paperAccounts(
      userId,
      Array.from({ length: COPIES }, (_, i) => `copy ${i}`),
    );
    await db.insert(copyRelations).values(
      followerAccounts.map((accountId) => ({
        followerUserId: userId,
        followerAccountId: accountId,
        leaderUserId: leader!.id,
        leaderAccountId: leaderAccount!,
        copyAmount: '100',
        copyMode: 'normal' as const,
        feePaid: '0',
        entryDistancePercent: 1,
        leaderEquityBase: '10000',
        leaderEquityStart: '10000',
        leaderEquityPeak: '10000',
        leaderEquityTrough: '10000',
        leaderEquityLast: '10000',
        createdAt: now,
        updatedAt: now,
      })),
    );
    // 20 webhook configurations over HTTP, each on an account of its own.
    const configAccounts = await paperAccounts(
      userId,
      Array.from({ length: CONFIGS }, (_, i) => `webhook ${i}`),
    );
    const hooks: string[] = [];
    for (const [i, accountId] of configAccounts.entries()) {
      const created = await http<{ webhook_url: string }>(
        api,
        'POST',
        '/api/webhook-trading/configs/',
        { token, body: { name: `TV ${i}`, exchange_api: accountId, symbol: 'BTCUSDT.P' } },
      );
      expect(created.status).toBe(201);
      hooks.push(new URL(created.body.webhook_url).pathname);
    }

    // A viewer on the api node: its unread count moves when a worker's fill is notified.
    const socket = new WebSocket(`${api.base.replace('http', 'ws')}/ws/notifications`);
    const unread: number[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; count?: number };
      if (frame.type === 'unread' && frame.count !== undefined) unread.push(frame.count);
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token }));
    await waitFor('the socket authenticated', async () => (unread.length > 0 ? true : undefined));

    stage('seeded');
    const [a, b] = await Promise.all([startNode('worker'), startNode('worker')]);
    stage('workers listening');
    const workersListeningAt = Date.now();
    const cluster = async () =>
      (await http<{ members: Member[] }>(api, 'GET', '/api/staff/cluster/', { token })).body
        .members;
    const total = (member: Member | undefined, kinds = ['bot', 'copy', 'webhook']) =>
      kinds.reduce((sum, kind) => sum + (member?.leases[kind] ?? 0), 0);

    let sent = 0;
    // Each round turns every configuration's position (a repeat of the same side is ignored).
    const postAlerts = async (round: string, action: 'buy' | 'sell') => {
      const answers = await Promise.all(
        hooks.map((hook, i) =>
          http<{ signal_id: number }>(api, 'POST', hook, {
            text: JSON.stringify({ action, amount: 20, id: `${round}-${i}` }),
          }),
        ),
      );
      for (const answer of answers) expect(answer.status).toBe(202);
      sent += answers.length;
    };
    const allFilled = () =>
      waitFor(
        `${sent} signals filled`,
        async () => {
          const rows = await db
            .select({ status: webhookSignals.status, n: sql<number>`count(*)::int` })
            .from(webhookSignals)
            .groupBy(webhookSignals.status);
          lastSeen = rows;
          const filled = rows.find((row) => row.status === 'filled')?.n ?? 0;
          const failed = rows.find((row) => row.status === 'failed')?.n ?? 0;
          if (failed > 0) throw new Error(`failed signals: ${JSON.stringify(rows)}`);
          return filled === sent ? true : undefined;
        },
        90_000,
      );

    // Before: the workers share the bots and copies out, and run the first alerts.
    await postAlerts('before', 'buy');
    await allFilled();
    stage('first alerts filled');
    // Webhook configurations are leased while they have signals to run; bots and copies always.
    // Two workers that start together may both see themselves alone for a beat and take every
    // lane; the joiner's share must arrive within 30 s of both listening (one renewal, 5 s).
    const balanced = (shares: number[]) => {
      const sum = shares.reduce((x, y) => x + y, 0);
      return shares.every((share) => share > 0 && share <= 0.65 * sum);
    };
    const shared = await waitFor(
      'every bot and copy lease held, shared between the two workers',
      async () => {
        const members = await cluster();
        lastSeen = members;
        const workers = members.filter((m) => m.role === 'worker' && m.is_live);
        const held = workers.reduce((sum, m) => sum + total(m, ['bot', 'copy']), 0);
        return workers.length === 2 &&
          held === BOTS + COPIES &&
          balanced(workers.map((worker) => total(worker)))
          ? workers
          : undefined;
      },
      Math.max(1, workersListeningAt + 30_000 - Date.now()),
    );
    const apiMember = (await cluster()).find((m) => m.role === 'api');
    expect(apiMember?.is_live).toBe(true);
    expect(total(apiMember)).toBe(0);
    stage(`shares ${JSON.stringify(shared.map((worker) => worker.leases))}`);
    expect(unread.at(-1)).toBeGreaterThan(0);

    // During: worker a is killed; alerts keep coming to the api node.
    const killed = shared[0]!.id;
    const survivor = shared[1]!.id;
    const victim = [a, b].find((node) => killed.includes(`:${node.child.pid}:`));
    expect(victim).toBeDefined();
    const killedAt = Date.now();
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    await postAlerts('during', 'sell');
    await waitFor(
      'the survivor holding everything',
      async () => {
        const member = (await cluster()).find((m) => m.id === survivor);
        lastSeen = member;
        return total(member, ['bot', 'copy']) === BOTS + COPIES ? member : undefined;
      },
      TAKEOVER_MS + 15_000,
    );
    await allFilled();
    const takeoverMs = Date.now() - killedAt;
    stage(`taken over in ${takeoverMs} ms`);
    // Every bot and copy, and the configurations whose alerts came during, within 30 s.
    expect(takeoverMs).toBeLessThanOrEqual(TAKEOVER_MS);

    // After: the survivor alone runs them.
    await postAlerts('after', 'buy');
    await allFilled();
    const dead = (await cluster()).find((m) => m.id === killed);
    expect(dead?.is_live ?? false).toBe(false);

    // Every alert ran once: the first (a buy from flat) one order, the next two (each a
    // reversal) a closing and an opening leg; the venue got each order once, 5 per account.
    const perSignal = await db
      .select({ key: executionOrders.idempotencyKey, n: sql<number>`count(*)::int` })
      .from(executionOrders)
      .where(eq(executionOrders.ownerKind, 'webhook'))
      .groupBy(executionOrders.ownerId, executionOrders.idempotencyKey);
    expect(perSignal).toHaveLength(3 * CONFIGS);
    expect(perSignal.filter((row) => row.n === 1)).toHaveLength(CONFIGS);
    expect(perSignal.filter((row) => row.n === 2)).toHaveLength(2 * CONFIGS);
    const perAccount = await db
      .select({ accountId: paperOrders.accountId, n: sql<number>`count(*)::int` })
      .from(paperOrders)
      .groupBy(paperOrders.accountId);
    expect(perAccount).toHaveLength(CONFIGS);
    expect(perAccount.filter((row) => row.n !== 5)).toEqual([]);
    const positions = await db
      .select({ size: executionPositions.size })
      .from(executionPositions)
      .where(eq(executionPositions.ownerKind, 'webhook'));
    expect(positions).toHaveLength(CONFIGS);
    expect(positions.filter((row) => !(Number(row.size) > 0))).toEqual([]);
    socket.close();
  }, 240_000);
});
