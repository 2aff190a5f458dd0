// The owners fault test on paper (owners-sigkill.ts runs it on the Binance and OKX fakes): a bot
// and a `manual` owner trade one paper account and symbol; the process kills itself four times,
// at staggered moments into a manual submit, and is restarted each time; at least one kill must
// leave an order on its way (created or sending). Then: every paper order is a
// filled intent and every filled intent a paper order (none sent twice), nothing is left
// unsettled, and each owner's book is its own fills, their sum the paper desk's position.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { executionOrders, paperOrders, paperPositions } from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { finishOwnersRun, ownersState, startOwnersChild } from './owners-sigkill.js';

/**
 * Each run kills itself this long into the submit of a manual step past the last run's: at
 * different points of the order path (intent written, claimed, at the desk, settled).
 */
/**
 * Where each round's kill lands in its step's submit: that many ms in (wherever the order has got
 * to by then, which depends on the machine's load), or once the desk has answered and before the
 * core settled it (always an order on its way).
 */
const KILL_DELAYS_MS = [11, 17, 'answer', 26, 40] as const;

describe('a bot and a manual owner on one paper account, with SIGKILLs in between', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qs-owners-paper-'));
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startProcess = (
    setup: boolean,
    t0: number,
    kill: { step: number; delayMs: number | 'answer' },
  ) =>
    startOwnersChild({
      children,
      dataDir,
      setup,
      t0,
      env: {
        EXCHANGE: 'paper',
        KILL_AT_STEP: String(kill.step),
        KILL_DELAY_MS: String(kill.delayMs),
      },
    });

  it('reconciles to the paper desk with no duplicate and the right split per owner', async () => {
    const t0 = Date.now();
    let steps = 0;
    /** Manual orders a kill left on their way (not final), read while no process runs. */
    let leftInFlight = 0;
    for (const [round, delayMs] of KILL_DELAYS_MS.entries()) {
      // A restart repeats the manual keys from m1: its kill comes a few steps past the last one.
      const step = steps + 3;
      const run = startProcess(round === 0, t0, { step, delayMs });
      await run.exited;
      expect(run.failed(), 'the run never started').toBeUndefined();
      steps = step;
      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      try {
        const intents = await database.db.select().from(executionOrders);
        leftInFlight += intents.filter(
          (i) => i.ownerKind === 'manual' && (i.status === 'created' || isFollowed(i)),
        ).length;
      } finally {
        await database.close();
      }
    }
    // The kills did catch orders on their way (else this tests nothing of a restart).
    expect(leftInFlight).toBeGreaterThan(0);
    await finishOwnersRun(
      startOwnersChild({ children, dataDir, setup: false, t0, env: { EXCHANGE: 'paper' } }),
    );

    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      const { userId, botId, intents, book } = await ownersState(database.db);
      const orders = await database.db.select().from(paperOrders);
      const [held] = await database.db.select().from(paperPositions);

      // Every order at the desk is a filled intent of ours, and every filled intent is there.
      const byId = new Map(intents.map((i) => [i.clientOrderId, i]));
      for (const order of orders) {
        expect(byId.get(order.clientOrderId)?.status, order.clientOrderId).toBe(
          order.status === 'closed' ? 'filled' : order.status === 'open' ? 'accepted' : 'canceled',
        );
      }
      const atDesk = new Set(orders.map((o) => o.clientOrderId));
      for (const intent of intents.filter((i) => i.status === 'filled')) {
        expect(atDesk.has(intent.clientOrderId), intent.clientOrderId).toBe(true);
      }
      expect(
        intents
          .filter((i) => i.status === 'created' || isFollowed(i))
          .map((i) => [i.clientOrderId, i.status, i.lookupMisses]),
      ).toEqual([]);

      // Each owner's book is its own fills; their sum is the desk's position.
      const net = (prefix: string) =>
        orders
          .filter((o) => o.clientOrderId.startsWith(prefix) && o.status === 'closed')
          .reduce((sum, o) => sum + (o.side === 'buy' ? 1 : -1) * Number(o.filled), 0);
      const sizeOf = (kind: string, id: number) =>
        Number(book.find((p) => p.ownerKind === kind && p.ownerId === id)?.size ?? 0);
      expect(sizeOf('bot', botId)).toBeCloseTo(net(`qs${botId}c`), 9);
      expect(sizeOf('manual', userId)).toBeCloseTo(net(`qm${userId}`), 9);
      expect(
        orders.filter((o) => o.clientOrderId.startsWith(`qm${userId}`)).length,
      ).toBeGreaterThan(10);
      const deskSize = held ? (held.side === 'long' ? 1 : -1) * Number(held.amount) : 0;
      expect(deskSize).toBeCloseTo(sizeOf('bot', botId) + sizeOf('manual', userId), 9);
      // The manual owner ends on its last target.
      expect(sizeOf('manual', userId)).toBeCloseTo(-0.01, 9);
    } finally {
      await database.close();
    }
  }, 240_000);
});
