// SIGKILL fault test: the engine runs in its own process with live bots on the ccxt fake, is
// killed with SIGKILL while orders are in flight (some answers lost: hang-after-accept), and a new
// process on the same data dir resumes every bot: no order sent twice, none unknown to us, and
// every bot's position equals what its orders at the exchange add up to.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import {
  bots,
  executionOrders,
  executionPositions,
  operationLogs,
} from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';

const CHILD = fileURLToPath(new URL('./fault-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BOT_COUNT = 10;

let fake: FakePrivateExchange;
let dataDir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'qs-bot-fault-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const timeline = { CLOCK_START_MS: String(Date.UTC(2026, 0, 19, 8, 0, 0)), CLOCK_SPEED: '60' };

function startEngineProcess(setup: boolean, t0: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...timeline,
      T0_MS: String(t0),
      DATA_DIR: dataDir,
      FAKE_URL: fake.url,
      BOT_COUNT: String(BOT_COUNT),
      SETUP: setup ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const started = new Promise<number[]>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { running: number[] }).running);
    });
    child.on('exit', (code) => reject(new Error(`engine process exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, started, exited };
}

const marketOrders = () => fake.state.orders.filter((o) => o.type === 'market');
async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('SIGKILL of the engine process', () => {
  it('resumes every bot with no duplicate and no orphan order, positions matching', async () => {
    const t0 = Date.now();
    const first = startEngineProcess(true, t0);
    expect(await first.started).toHaveLength(BOT_COUNT);
    await waitFor(() => marketOrders().length >= BOT_COUNT, 40_000);
    // The next answers are lost; kill the process while those orders are in flight.
    const before = fake.callsTo('/fapi/v1/order', 'POST').length;
    fake.failNext('POST', '/fapi/v1/order', { kind: 'hang-after-accept' }, 3);
    await waitFor(() => fake.callsTo('/fapi/v1/order', 'POST').length > before, 40_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const ordersAtKill = marketOrders().length;

    const second = startEngineProcess(false, t0);
    const resumed = await second.started;
    expect(resumed.sort((a, b) => a - b)).toEqual(
      Array.from({ length: BOT_COUNT }, (_, i) => i + 1),
    );
    // Let the resumed bots trade on a few more candles, then stop them cleanly.
    await waitFor(() => marketOrders().length > ordersAtKill, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    second.child.kill('SIGTERM');
    await second.exited;

    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      const intents = await database.db.select().from(executionOrders);
      const positions = await database.db.select().from(executionPositions);
      const botRows = await database.db.select().from(bots);
      // No order sent twice: one POST per client order id, one order per id at the exchange.
      const posted = fake
        .callsTo('/fapi/v1/order', 'POST')
        .map((c) => c.params.newClientOrderId ?? '');
      expect(new Set(posted).size).toBe(posted.length);
      const atExchange = fake.state.orders.map((o) => o.clientOrderId);
      expect(new Set(atExchange).size).toBe(atExchange.length);
      // No orphan: every exchange order is one of our intents, settled.
      const byId = new Map(intents.map((i) => [i.clientOrderId, i]));
      for (const id of atExchange) expect(byId.get(id)?.status, id).toBe('filled');
      expect(intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
      // The orders whose answers were lost were in flight at the kill: the restart settled them.
      const logs = await database.db.select().from(operationLogs);
      expect(logs.filter((l) => l.message.startsWith('reconciled order')).length).toBeGreaterThan(
        0,
      );
      // Positions: what each bot's filled orders add up to at the exchange is what it holds (the
      // fake keeps no positions of its own, so the engine's start-up comparison cannot be used).
      for (const bot of botRows) {
        expect(bot.status).toBe('running');
        const net = fake.state.orders
          .filter((o) => o.clientOrderId.startsWith(`qs${bot.id}c`) && o.status === 'filled')
          .reduce((sum, o) => sum + (o.side === 'buy' ? o.filled : -o.filled), 0);
        const held = positions.find((p) => p.ownerKind === 'bot' && p.ownerId === bot.id);
        const ours = held ? Number(held.size) : 0;
        expect(ours, `bot ${bot.id}`).toBeCloseTo(net, 9);
      }
    } finally {
      await database.close();
    }
  }, 120_000);
});
