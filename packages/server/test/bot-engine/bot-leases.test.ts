// Two engine workers on one PostgreSQL: every running bot is driven by exactly one of them
// (a lease per bot); when one dies (SIGKILL) the other takes its bots over once their leases
// expire, resumes them, and no order is ever sent twice.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../../src/common/leases.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { testDatabaseUrlFromEnvironment } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import {
  bots,
  executionOrders,
  executionPositions,
  workerLeases,
} from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { followChild } from '../helpers/child-output.js';
import { withDatabase } from '../helpers/test-database-info.js';
import { LEASE_TEST_SECRET } from './lease-test-secret.js';
import { seedLiveBots } from './live-bots.fixture.js';

const CHILD = fileURLToPath(new URL('./lease-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BOT_COUNT = 10;
// The machine's PostgreSQL (CI sets TEST_DATABASE_URL to it): two processes cannot share PGlite.
const SERVER_URL =
  testDatabaseUrlFromEnvironment() ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `qs_lease_${randomBytes(6).toString('hex')}`;
const DATABASE_URL = withDatabase(SERVER_URL, DATABASE);

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let fake: FakePrivateExchange;
const children: ChildProcess[] = [];
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
  await admin(`CREATE DATABASE ${DATABASE}`);
  const handle = await openPostgres(DATABASE_URL, { migrate: true });
  await seedLiveBots(handle.db, createSecretBox(LEASE_TEST_SECRET), new ManualClock(), {
    count: BOT_COUNT,
    label: 'lease',
    parameters: { fast_period: 2, slow_period: 4 },
  });
  await handle.close();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await fake.close();
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
});

function startWorker(t0: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      CLOCK_START_MS: String(Date.UTC(2026, 0, 24, 8, 0, 0)),
      CLOCK_SPEED: '60',
      T0_MS: String(t0),
      DATABASE_URL,
      FAKE_URL: fake.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const state = { running: [] as number[], reports: 0 };
  const output = followChild<{ running: number[] }>(child, (message) => {
    state.running = message.running;
    state.reports += 1;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, state, output, exited };
}

async function waitFor(condition: () => boolean, timeoutMs: number, why: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${why()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const allBots = Array.from({ length: BOT_COUNT }, (_, i) => i + 1);
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe('two engine workers on one PostgreSQL', () => {
  it('lets a live worker take over within the lease bound', () => {
    expect(LEASE_TTL_MS + LEASE_RENEW_MS).toBeLessThanOrEqual(30_000);
  });

  it("drives every bot by exactly one worker, and moves a killed worker's bots to the other", async () => {
    const t0 = Date.now();
    const a = startWorker(t0);
    const b = startWorker(t0);
    const why = () =>
      `a ${a.state.running} b ${b.state.running} ${a.output.stderr()}${b.output.stderr()}`;
    await waitFor(
      () => sorted([...a.state.running, ...b.state.running]).join() === allBots.join(),
      60_000,
      why,
    );
    // For a while, every report pair: the two workers never drive the same bot.
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const both = a.state.running.filter((id) => b.state.running.includes(id));
      expect(both, why()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await waitFor(() => fake.callsTo('/fapi/v1/order', 'POST').length > 0, 60_000, why);
    // Kill the worker that drives bots (both may), while orders are going out.
    const [victim, survivor] = a.state.running.length >= b.state.running.length ? [a, b] : [b, a];
    const taken = sorted(victim.state.running);
    expect(taken.length).toBeGreaterThan(0);
    victim.child.kill('SIGKILL');
    await victim.exited;
    // Once the dead worker's leases expire the survivor resumes its bots.
    await waitFor(
      () => sorted(survivor.state.running).join() === allBots.join(),
      LEASE_TTL_MS + LEASE_RENEW_MS + 15_000,
      why,
    );
    const ordersAtTakeover = fake.callsTo('/fapi/v1/order', 'POST').length;
    await waitFor(
      () => fake.callsTo('/fapi/v1/order', 'POST').length > ordersAtTakeover,
      30_000,
      why,
    );
    survivor.child.kill('SIGTERM');
    await survivor.exited;

    const handle = await openPostgres(DATABASE_URL, { migrate: false });
    try {
      const intents = await handle.db.select().from(executionOrders);
      const book = await handle.db.select().from(executionPositions);
      const botRows = await handle.db.select().from(bots);
      // No order sent twice; every order at the exchange is a settled intent of ours.
      const posted = fake.callsTo('/fapi/v1/order', 'POST').map((c) => c.params.newClientOrderId);
      expect(new Set(posted).size).toBe(posted.length);
      const byId = new Map(intents.map((i) => [i.clientOrderId, i]));
      for (const order of fake.state.orders) {
        expect(byId.get(order.clientOrderId)?.status, order.clientOrderId).toBe('filled');
      }
      expect(intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
      for (const bot of botRows) {
        expect(bot.status).toBe('running');
        const net = fake.state.orders
          .filter((o) => o.clientOrderId.startsWith(`qs${bot.id}c`) && o.status === 'filled')
          .reduce((sum, o) => sum + (o.side === 'buy' ? o.filled : -o.filled), 0);
        const held = book.find((p) => p.ownerKind === 'bot' && p.ownerId === bot.id);
        expect(Number(held?.size ?? 0), `bot ${bot.id}`).toBeCloseTo(net, 9);
      }
      // A clean stop lets its leases go: nothing is left held.
      expect(await handle.db.select().from(workerLeases)).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
