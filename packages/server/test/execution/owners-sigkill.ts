// (Shared by owners-sigkill-binance.test.ts and owners-sigkill-okx.test.ts.)
// A bot and a `manual` owner trade one live account and symbol (the ccxt fake keeps the
// account's real one-way position); the process is SIGKILLed while orders are in flight (answers
// lost), and a new process resumes: no order is sent twice, every order at the exchange is a
// settled intent, and each owner's book equals its own fills — their sum the exchange's position.
// The same table on Binance and on OKX as the venue answers (ids-only acks, orders invisible for
// a second, fills in several trades a moment after the ack).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import type { Database } from '../../src/db/database.js';
import { bots, executionOrders, executionPositions, users } from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { followChild } from '../helpers/child-output.js';

const CHILD = fileURLToPath(new URL('./owners-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const API_KEY = 'owners-key-1';
export const MANUAL_STEPS = 32;

export const OWNER_VENUES = [
  {
    exchange: 'binance',
    orderPath: '/fapi/v1/order',
    clientIdParam: 'newClientOrderId',
    /** Base asset per venue unit. */
    unit: 1,
    options: {},
  },
  {
    exchange: 'okx',
    orderPath: '/api/v5/trade/order',
    clientIdParam: 'clOrdId',
    unit: 0.1,
    // As the venue answers, with shorter waits so that 32 orders fit the test's time.
    options: {
      venueFaithful: true,
      rateLimitEveryNthOrder: 0,
      lookupLagMs: 400,
      fillDelayMs: 100,
      tradeSpacingMs: 30,
    },
  },
] as const;

/** Starts an owners child process (owners-child.ts) on `dataDir`; it follows the child's output. */
export function startOwnersChild(options: {
  readonly children: ChildProcess[];
  readonly dataDir: string;
  readonly setup: boolean;
  /** Wall time the child's clock starts from (its clock runs 60× from 2026-01-22 08:00). */
  readonly t0: number;
  readonly env: Readonly<Record<string, string>>;
}) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      CLOCK_START_MS: String(Date.UTC(2026, 0, 22, 8, 0, 0)),
      CLOCK_SPEED: '60',
      T0_MS: String(options.t0),
      DATA_DIR: options.dataDir,
      SETUP: options.setup ? '1' : '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.children.push(child);
  const progress = { started: false, manual: 0 };
  const output = followChild<{ running?: number[]; manual?: number }>(child, (message) => {
    if (message.running) progress.started = true;
    if (message.manual !== undefined) progress.manual = message.manual;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const failed = () => (child.exitCode !== null && !progress.started ? output.stderr() : undefined);
  return { child, progress, exited, failed };
}

/** Waits until `condition` holds, or fails with `why()` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number, why: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${why()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets a run reach the manual owner's last step, then stops it as a deploy does (SIGTERM). */
export async function finishOwnersRun(run: ReturnType<typeof startOwnersChild>): Promise<void> {
  await waitFor(
    () => run.progress.manual >= MANUAL_STEPS,
    90_000,
    () => run.failed() ?? `manual ${run.progress.manual}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  run.child.kill('SIGTERM');
  await run.exited;
}

/** The owners' user and bot, every intent and the book, as the stopped runs left them. */
export async function ownersState(db: Database) {
  const [user] = await db.select().from(users);
  const [bot] = await db.select().from(bots);
  return {
    userId: user!.id,
    botId: bot!.id,
    intents: await db.select().from(executionOrders),
    book: await db.select().from(executionPositions),
  };
}

/** The table on one venue (a file per venue, so that the two run side by side). */
export function describeOwnersSigkill(venue: (typeof OWNER_VENUES)[number]): void {
  describe(`a bot and a manual owner on one ${venue.exchange} account, with a SIGKILL in between`, () => {
    let fake: FakePrivateExchange;
    let dataDir: string;
    const children: ChildProcess[] = [];
    beforeAll(async () => {
      fake = await startFakeExchange({
        exchange: venue.exchange,
        tracksPositions: true,
        ...venue.options,
      });
      dataDir = mkdtempSync(path.join(tmpdir(), 'qs-owners-fault-'));
    });
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const startProcess = (setup: boolean, t0: number) =>
      startOwnersChild({
        children,
        dataDir,
        setup,
        t0,
        env: { FAKE_URL: fake.url, EXCHANGE: venue.exchange },
      });

    const orderPosts = () => fake.callsTo(venue.orderPath, 'POST');
    const ordersOf = (prefix: string) =>
      fake.state.orders.filter((o) => o.clientOrderId.startsWith(prefix) && o.status === 'filled');
    const net = (orders: { side: string; filled: number }[]) =>
      orders.reduce((sum, o) => sum + (o.side === 'buy' ? o.filled : -o.filled) * venue.unit, 0);

    it('reconciles to the exchange with no duplicate and the right split per owner', async () => {
      const t0 = Date.now();
      const first = startProcess(true, t0);
      await waitFor(
        () => first.progress.manual >= 6 && ordersOf('qs').length >= 1,
        60_000,
        () => first.failed() ?? `manual ${first.progress.manual}, bot ${ordersOf('qs').length}`,
      );
      // The next order answers are lost; the process dies while they are in flight.
      const before = orderPosts().length;
      fake.failNext('POST', venue.orderPath, { kind: 'hang-after-accept' }, 2);
      await waitFor(
        () => orderPosts().length > before,
        30_000,
        () => 'no order in flight',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      // The orders the exchange took without an answer: only a restart can settle them.
      const lost = orderPosts()
        .slice(before, before + 2)
        .map((c) => c.params[venue.clientIdParam] ?? '');

      await finishOwnersRun(startProcess(false, t0));

      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      try {
        const { userId, botId, intents, book } = await ownersState(database.db);

        // No order sent twice, none at the exchange that is not a settled intent of ours.
        const posted = orderPosts().map((c) => c.params[venue.clientIdParam] ?? '');
        expect(new Set(posted).size).toBe(posted.length);
        const byId = new Map(intents.map((i) => [i.clientOrderId, i]));
        for (const order of fake.state.orders) {
          expect(byId.get(order.clientOrderId)?.status, order.clientOrderId).toBe(
            order.status === 'filled'
              ? 'filled'
              : order.status === 'open'
                ? 'accepted'
                : 'canceled',
          );
        }
        expect(intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
        expect(lost.length).toBeGreaterThan(0);
        for (const id of lost) expect(byId.get(id)?.status, id).toBe('filled');

        // Each owner's book is its own fills; their sum is the exchange's position.
        const sizeOf = (kind: string, id: number) =>
          Number(book.find((p) => p.ownerKind === kind && p.ownerId === id)?.size ?? 0);
        const botFills = net(ordersOf(`qs${botId}c`));
        const manualFills = net(ordersOf(`qm${userId}`));
        expect(sizeOf('bot', botId)).toBeCloseTo(botFills, 9);
        expect(sizeOf('manual', userId)).toBeCloseTo(manualFills, 9);
        expect(ordersOf(`qm${userId}`).length).toBeGreaterThan(10);
        const [exchange] = fake.state.accountPositions.get(API_KEY) ?? [];
        const exchangeSize = exchange
          ? (exchange.side === 'long' ? 1 : -1) * exchange.size * venue.unit
          : 0;
        expect(exchangeSize).toBeCloseTo(sizeOf('bot', botId) + sizeOf('manual', userId), 9);
        // The manual owner ends on its last target.
        expect(sizeOf('manual', userId)).toBeCloseTo(-0.01, 9);
      } finally {
        await database.close();
      }
    }, 240_000);
  });
}
