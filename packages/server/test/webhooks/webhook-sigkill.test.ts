// A SIGKILL between a webhook signal's order intent and its fill: the paper exchange took the
// order, the process died before hearing back. A new process reconciles the intent by its client
// order id and completes the signal — filled once, one order at the exchange, the position booked.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import {
  executionOrders,
  executionPositions,
  paperOrders,
  webhookExecutions,
  webhookSignals,
} from '../../src/db/schema/index.js';
import { followChild } from '../helpers/child-output.js';
import { randomSuffix, withDatabase } from '../helpers/test-database-info.js';

const CHILD = fileURLToPath(new URL('./webhook-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'qs-webhook-kill-'));
  const info = inject('testDatabase');
  if (info.kind === 'postgres') {
    const name = `qs_test_${randomSuffix()}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: info.serverUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name} TEMPLATE ${info.templateName}`);
    databaseUrl = withDatabase(info.serverUrl, name);
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Message {
  ready?: boolean;
  port?: number;
  token?: string;
  path?: string;
  configId?: number;
  placed?: string;
}

function startProcess(options: { setup: boolean; hang: boolean }) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      SETUP: options.setup ? '1' : '0',
      HANG: options.hang ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const messages: Message[] = [];
  const output = followChild<Message>(child, (message) => messages.push(message));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const why = () =>
    child.exitCode !== null ? `exited: ${output.stderr()}` : JSON.stringify(messages);
  return { child, messages, exited, why };
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, why: () => string) {
  for (let i = 0; i < 1200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out: ${why()}`);
}

describe('a webhook signal interrupted by a SIGKILL between intent and fill', () => {
  it('completes once after a restart', async () => {
    const first = startProcess({ setup: true, hang: true });
    const ready = await waitFor(() => first.messages.find((m) => m.ready), first.why);
    const { token, path: hookPath, configId } = ready as Required<Message>;
    const alert = JSON.stringify({ action: 'buy', amount: 50, id: 'kill-1' });
    const posted = await fetch(`http://127.0.0.1:${ready.port}${hookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: alert,
    });
    expect(posted.status).toBe(202);
    const { signal_id: signalId } = (await posted.json()) as { signal_id: number };
    const placed = await waitFor(() => first.messages.find((m) => m.placed), first.why);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startProcess({ setup: false, hang: false });
    const again = await waitFor(() => second.messages.find((m) => m.ready), second.why);
    const base = `http://127.0.0.1:${again.port}`;
    const signal = await waitFor(async () => {
      const res = await fetch(`${base}/api/webhook-trading/signals/${signalId}/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { status: string; steps: { step: string }[] };
      return ['filled', 'failed'].includes(body.status) ? body : undefined;
    }, second.why);
    expect(signal.status).toBe('filled');
    expect(signal.steps.map((s) => s.step)).toEqual([
      'received',
      'validated',
      'intent',
      'placed',
      'filled',
    ]);
    // TradingView's repeat of the same alert trades nothing.
    const repeat = await fetch(`${base}${hookPath}`, { method: 'POST', body: alert });
    expect(repeat.status).toBe(202);
    expect(await repeat.json()).toMatchObject({ signal_id: signalId, duplicate: true });
    second.child.kill('SIGTERM');
    await second.exited;

    const database = await openDatabase({ databaseUrl, dataDir });
    try {
      const db = database.db;
      const orders = await db.select().from(paperOrders);
      expect(orders.map((o) => o.clientOrderId)).toEqual([placed.placed]);
      const intents = await db
        .select()
        .from(executionOrders)
        .where(eq(executionOrders.ownerId, configId));
      expect(intents.map((i) => [i.clientOrderId, i.status])).toEqual([[placed.placed, 'filled']]);
      const [position] = await db
        .select()
        .from(executionPositions)
        .where(eq(executionPositions.ownerId, configId));
      expect(Number(position?.size)).toBeGreaterThan(0);
      expect(Number(position?.size)).toBeCloseTo(Number(intents[0]?.filledAmount), 9);
      const executions = await db.select().from(webhookExecutions);
      expect(executions.map((e) => [e.signalId, e.status])).toEqual([[signalId, 'filled']]);
      const signals = await db.select().from(webhookSignals);
      expect(signals).toHaveLength(1);
    } finally {
      await database.close();
    }
  }, 120_000);
});
