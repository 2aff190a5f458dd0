// The transactional outbox: a settlement's events are written in its transaction, published
// by their writer after the commit, published by the relay when the writer died first, and the
// square's read model catches up from the outbox after it was down.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { eventOutbox, eventWriters, strategyTrades } from '../../src/db/schema/index.js';
import { type BusEvent, createInProcessEventBus, type EventBus } from '../../src/events/index.js';
import {
  createOutbox,
  type Outbox,
  type OutboxEvent,
  RELAY_AFTER_MS,
} from '../../src/events/outbox.js';
import type { ExecutionCore } from '../../src/execution/index.js';
import { createReadModelProjector } from '../../src/modules/square/read-model.projector.js';
import { createReadModelRepository } from '../../src/modules/square/read-model.repository.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { coreOnVenue, insertLiveAccount, insertUser } from './core-on-venue.js';

const ETH = 'ETH/USDT:USDT';
const clock = new ManualClock(Date.UTC(2026, 0, 21, 8, 0, 0));
let database: DatabaseHandle;
let fake: FakePrivateExchange;
let userId: number;
let keys = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeExchange({
    exchange: 'okx',
    venueFaithful: true,
    rateLimitEveryNthOrder: 0,
  });
  userId = await insertUser(database.db, clock, 'outbox');
});
afterAll(async () => {
  await database.close();
  await fake.close();
});

const coreOn = (events: EventBus, outbox?: Outbox) =>
  coreOnVenue({
    db: database.db,
    clock,
    venueUrl: fake.url,
    events,
    ...(outbox ? { outbox } : {}),
  });

/** A manual market order of `amount` ETH (sold when negative) on the account. */
const trade = (
  core: ExecutionCore,
  accountId: number,
  key: string,
  amount: number,
  action: string,
) =>
  core.submit({
    accountId,
    symbol: ETH,
    owner: { kind: 'manual', id: userId },
    key,
    size: { kind: 'delta', amount },
    action,
  });

async function liveAccount(): Promise<number> {
  const account = await insertLiveAccount(database.db, clock, {
    userId,
    exchange: 'okx',
    apiKey: `outbox-key-${++keys}`,
  });
  return account.id;
}

/** A bus whose publications fail (the process died between its commit and its publication). */
function deadBus(): EventBus {
  const bus = createInProcessEventBus({ clock });
  return { ...bus, publish: async () => Promise.reject(new Error('process gone')) };
}

describe('the event outbox', () => {
  it('holds the events of a settlement in one row, written with it and published by its writer', async () => {
    const heard: BusEvent[] = [];
    const bus = createInProcessEventBus({ clock });
    bus.subscribe('OrderFilled', (e) => void heard.push(e));
    const outbox = createOutbox({ db: database.db, clock });
    const core = coreOn(bus, outbox);
    const accountId = await liveAccount();
    const result = await trade(core, accountId, 'outbox-1', 0.2, 'open_long');
    expect(result.status).toBe('filled');
    const rows = await database.db.select().from(eventOutbox);
    const mine = rows.filter((r) => (r.payload as { accountId?: number }).accountId === accountId);
    // The order's fill and the position it made: one row, its writer this process.
    expect(mine).toHaveLength(1);
    expect(mine[0]?.type).toBe('OrderFilled');
    expect(mine[0]?.more?.map((e) => e.type)).toEqual(['PositionChanged']);
    expect(mine[0]?.writer).toBe(outbox.writer);
    await expect.poll(() => heard.map((e) => e.id)).toEqual([mine[0]?.eventId]);
    // The writer is alive: the relay leaves its rows alone.
    expect(await createOutbox({ db: database.db, clock }).relay(bus)).toBe(0);
    // Idle a moment later, its watermark passes what it published: nothing is left to relay.
    clock.advanceSeconds(2);
    await trade(core, accountId, 'outbox-1b', -0.2, 'close_long');
    clock.advanceSeconds(2);
    await outbox.publish(bus, []);
    await outbox.marked();
    const [self] = await database.db
      .select()
      .from(eventWriters)
      .where(eq(eventWriters.writer, outbox.writer));
    const newest = Math.max(
      ...(await database.db.select().from(eventOutbox))
        .filter((r) => r.writer === outbox.writer)
        .map((r) => r.id),
    );
    expect(self?.publishedThrough).toBeGreaterThan(newest);
    await core.close();
  });

  it('is published by the relay when the writing process died before publishing', async () => {
    const core = coreOn(deadBus());
    const accountId = await liveAccount();
    await trade(core, accountId, 'outbox-2', 0.2, 'open_long');
    await core.close();
    const rows = (await database.db.select().from(eventOutbox)).filter(
      (r) => (r.payload as { accountId?: number }).accountId === accountId,
    );
    expect(rows).toHaveLength(1);
    const writer = rows[0]?.writer ?? '';
    const writerRow = () =>
      database.db.select().from(eventWriters).where(eq(eventWriters.writer, writer));
    // Its watermark is still below the row it could not publish.
    expect((await writerRow())[0]?.publishedThrough).toBeLessThanOrEqual(rows[0]?.id ?? 0);
    // Another process's relay: nothing while the writer's row is fresh, then both events, once.
    const heard: BusEvent[] = [];
    const bus = createInProcessEventBus({ clock });
    bus.subscribe('OrderFilled', (e) => void heard.push(e));
    bus.subscribe('PositionChanged', (e) => void heard.push(e));
    const outbox = createOutbox({ db: database.db, clock });
    expect(await outbox.relay(bus)).toBe(0);
    clock.advanceSeconds(RELAY_AFTER_MS / 1000 + 1);
    expect(await outbox.relay(bus)).toBeGreaterThanOrEqual(2);
    // The departed writer is forgotten: the next pass publishes nothing again.
    expect(await writerRow()).toHaveLength(0);
    expect(await outbox.relay(bus)).toBe(0);
    const accountOf = (e: BusEvent) => (e.payload as { accountId?: number }).accountId;
    await expect
      .poll(() => heard.filter((e) => accountOf(e) === accountId).map((e) => e.type))
      .toEqual(['OrderFilled', 'PositionChanged']);
  });

  it('lets readers move their cursor only past what every writer has published', async () => {
    const bus = createInProcessEventBus({ clock });
    const stuck = createOutbox({ db: database.db, clock });
    const core = coreOn(deadBus(), stuck);
    const accountId = await liveAccount();
    await trade(core, accountId, 'outbox-3', 0.2, 'open_long');
    const [row] = (await database.db.select().from(eventOutbox)).filter(
      (r) => (r.payload as { accountId?: number }).accountId === accountId,
    );
    const reader = createOutbox({ db: database.db, clock });
    const future = new Date(clock.now().getTime() + 60_000);
    expect(await reader.deliveredBefore(future)).toBeLessThan(row?.id ?? 0);
    // The relay publishes it (the writer went quiet): the cursor may pass it.
    clock.advanceSeconds(RELAY_AFTER_MS / 1000 + 1);
    await reader.relay(bus);
    expect(
      await reader.deliveredBefore(new Date(clock.now().getTime() + 60_000)),
    ).toBeGreaterThanOrEqual(row?.id ?? Number.POSITIVE_INFINITY);
    await core.close();
  });

  it("does not let a rolled-back write hold its writer's watermark", async () => {
    const bus = createInProcessEventBus({ clock });
    const outbox = createOutbox({ db: database.db, clock });
    const event = (id: string) =>
      ({
        type: 'NotificationsChanged',
        id,
        payload: { userId, unread: 0 },
      }) as OutboxEvent<'NotificationsChanged'>;
    await database.db
      .transaction(async (tx) => {
        await outbox.write(tx, [event('rolled-back')]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // A minute on, the writer writes and publishes again, then goes idle.
    clock.advanceSeconds(61);
    await database.db.transaction((tx) => outbox.write(tx, [event('committed')]));
    await outbox.publish(bus, [event('committed')]);
    clock.advanceSeconds(2);
    await outbox.publish(bus, []);
    await outbox.marked();
    const [row] = await database.db
      .select()
      .from(eventOutbox)
      .where(eq(eventOutbox.eventId, 'committed'));
    const [self] = await database.db
      .select()
      .from(eventWriters)
      .where(eq(eventWriters.writer, outbox.writer));
    expect(self?.publishedThrough).toBeGreaterThan(row?.id ?? Number.POSITIVE_INFINITY);
  });

  it('lets the square read model catch up on the fills made while it was down', async () => {
    const accountId = await liveAccount();
    const bus = createInProcessEventBus({ clock });
    const core = coreOn(bus);
    // The read model is down: nobody hears these fills live.
    for (const key of ['down-1', 'down-2']) {
      await trade(core, accountId, key, 0.1, 'open_long');
    }
    await core.close();
    const trades = () =>
      database.db.select().from(strategyTrades).where(eq(strategyTrades.accountId, accountId));
    expect(await trades()).toHaveLength(0);
    // It starts again: every fill written meanwhile is recorded, once, however often it starts.
    for (let start = 0; start < 2; start++) {
      const projector = createReadModelProjector({
        repo: createReadModelRepository(database.db),
        events: bus,
        log: { error: () => {} },
        onFill: () => {},
        outbox: createOutbox({ db: database.db, clock }),
      });
      projector.start();
      await projector.ready();
      await projector.stop();
      expect((await trades()).map((t) => Number(t.amount))).toEqual([0.1, 0.1]);
    }
  });
});
