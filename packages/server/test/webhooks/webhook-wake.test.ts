// Accepted signals run on a wake-up, not on a poll: the receiver announces each signal on the
// event bus and the executor holding the configuration's lease runs it at once, in order, one
// after another, wherever the signal was received. Here the executors' poll is an hour long: a
// signal that runs at all was run on its wake-up.
import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/common/clock.js';
import { webhookLease } from '../../src/common/leases.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  executionOrders,
  webhookExecutions,
  webhookSignals,
  workerLeases,
} from '../../src/db/schema/index.js';
import {
  createInProcessEventBus,
  createRedisEventBus,
  type EventBus,
} from '../../src/events/index.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { createConfig, postAlert, webhookUser } from './webhook-flows.js';
import { startWebhookProcess, type WebhookProcess } from './webhook-wake-rig.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

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

let database: DatabaseHandle;
const buses: EventBus[] = [];
let first: WebhookProcess;
let second: WebhookProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  // Two processes' buses: on Redis (one channel prefix for this test) when it answers, else
  // one in-process bus both share.
  if (await isReachable(REDIS_URL)) {
    const prefix = `qs:test:wake:${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const bus = await createRedisEventBus({ url: REDIS_URL, clock: systemClock, prefix });
      buses.push(bus);
    }
  } else {
    const shared = createInProcessEventBus({ clock: systemClock });
    buses.push(shared, shared);
  }
  first = await startWebhookProcess(database, buses[0] as EventBus);
  second = await startWebhookProcess(database, buses[1] as EventBus);
  for (const bus of buses) await (bus as { ready?: () => Promise<void> }).ready?.();
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  for (const bus of new Set(buses)) await bus.close();
  await database?.close();
});

const signalRow = async (id: number) =>
  (await database.db.select().from(webhookSignals).where(eq(webhookSignals.id, id)))[0];

const waitFilled = (ids: number[]) =>
  vi.waitFor(
    async () => {
      for (const id of ids) expect((await signalRow(id))?.status).toBe('filled');
    },
    { timeout: 20_000, interval: 50 },
  );

describe('webhook signals wake their executor', () => {
  it('runs a posted signal without waiting for the poll', async () => {
    const { token, accountId } = await webhookUser(first.app, 'wake');
    const { path } = await createConfig(first.app, token, accountId, { allow_pyramiding: true });
    const posted = await postAlert(first.app, path, { action: 'buy', amount: 50, id: 'w1' });
    expect(posted.status).toBe(202);
    await waitFilled([Number(posted.body.signal_id)]);
  });

  it("runs a burst of one configuration's signals in order, one after another", async () => {
    const { token, accountId } = await webhookUser(first.app, 'burst');
    const { id: configId, path } = await createConfig(first.app, token, accountId, {
      allow_pyramiding: true,
    });
    // Sent together, half to each process: the order is the order they were accepted in.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postAlert((i % 2 === 0 ? first : second).app, path, {
          action: 'buy',
          amount: 20,
          id: `b${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const ids = answers.map((a) => Number(a.body.signal_id)).sort((x, y) => x - y);
    await waitFilled(ids);

    // One execution per signal, written in the order the signals were accepted…
    const executions = await database.db
      .select()
      .from(webhookExecutions)
      .where(eq(webhookExecutions.configId, configId))
      .orderBy(asc(webhookExecutions.id));
    expect(executions.map((e) => e.signalId)).toEqual(ids);
    // …and each signal began only once the one before it had finished.
    const signals = await Promise.all(ids.map(signalRow));
    for (let i = 1; i < signals.length; i++) {
      const previous = signals[i - 1];
      const current = signals[i];
      const began = current?.steps.find((step) => step.step === 'intent')?.at;
      expect(previous?.finishedAt).toBeInstanceOf(Date);
      expect(Date.parse(String(began))).toBeGreaterThanOrEqual(
        previous?.finishedAt?.getTime() ?? Number.POSITIVE_INFINITY,
      );
    }
  });

  it('has a signal received by the process without the lease run by the holder, once', async () => {
    const { token, accountId } = await webhookUser(first.app, 'holder');
    const { id: configId, path } = await createConfig(first.app, token, accountId, {
      allow_pyramiding: true,
    });
    // Both processes hear of the first signal; one of them takes the configuration.
    const opening = await postAlert(first.app, path, { action: 'buy', amount: 30, id: 'h1' });
    await waitFilled([Number(opening.body.signal_id)]);
    const holder = first.leases.isHeld(webhookLease(configId)) ? first : second;
    const other = holder === first ? second : first;
    expect(holder.leases.isHeld(webhookLease(configId))).toBe(true);
    expect(other.leases.isHeld(webhookLease(configId))).toBe(false);

    // The other process receives the next one.
    const posted = await postAlert(other.app, path, { action: 'buy', amount: 30, id: 'h2' });
    expect(posted.status).toBe(202);
    const signalId = Number(posted.body.signal_id);
    await waitFilled([signalId]);

    // Run by the holder: the lease never moved, the other process never held it.
    const [lease] = await database.db
      .select()
      .from(workerLeases)
      .where(eq(workerLeases.resource, webhookLease(configId)));
    expect(lease?.holder).toBe(holder.leases.holderId);
    expect(other.leases.held()).not.toContain(webhookLease(configId));
    // Exactly once: one execution and one order for the signal's key.
    const executions = await database.db
      .select()
      .from(webhookExecutions)
      .where(eq(webhookExecutions.signalId, signalId));
    expect(executions).toHaveLength(1);
    const orders = await database.db
      .select()
      .from(executionOrders)
      .where(
        and(
          eq(executionOrders.ownerKind, 'webhook'),
          eq(executionOrders.ownerId, configId),
          eq(executionOrders.idempotencyKey, `signal:${signalId}`),
        ),
      );
    expect(orders.map((o) => o.status)).toEqual(['filled']);
  });
});
