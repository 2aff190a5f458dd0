// The transactional outbox: events written in the same transaction as the state they describe,
// published after the commit, and published again by the relay when the process died first. A
// reader that was down reads the outbox from its cursor. The only writer of event_outbox and
// event_cursors.
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { createBatcher } from '../common/batcher.js';
import type { Clock } from '../common/clock.js';
import { anyOf, unnestRows } from '../db/batch-sql.js';
import type { Database } from '../db/database.js';
import { type EventOutboxRow, eventCursors, eventOutbox } from '../db/schema/index.js';
import type {
  BusEvent,
  EventBus,
  EventBusLogger,
  EventPayloads,
  EventType,
} from './event-bus.types.js';

/** An event to write with the state it describes. */
export interface OutboxEvent<K extends EventType = EventType> {
  readonly type: K;
  readonly payload: EventPayloads[K];
  /** Deterministic: the same fact always has the same id (subscribers drop repeats by it). */
  readonly id: string;
}

/** Unpublished events older than this are the relay's: the writer died before publishing. */
export const RELAY_AFTER_MS = 5_000;
/** How often the relay looks. */
export const RELAY_EVERY_MS = 2_000;
/** Published events are kept this long for readers that were down. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/** Event ids marked published in one statement at most. */
const MARKS_PER_STATEMENT = 5_000;

export function createOutbox(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  // Published marks are written after the publication, coalesced across settlements and off
  // their path: a settlement's transaction does not wait for them. A mark that is late or lost
  // (the process died) leaves the event to the relay after RELAY_AFTER_MS: published twice, and
  // subscribers drop the repeat by its id.
  const marks = createBatcher(
    async (ids: readonly string[]) => {
      await db
        .update(eventOutbox)
        .set({ publishedAt: clock.now() })
        .where(and(anyOf(eventOutbox.eventId, [...ids]), isNull(eventOutbox.publishedAt)));
      return ids.map(() => undefined);
    },
    { maxSize: MARKS_PER_STATEMENT },
  );
  // The batcher writes its batches in order, so the last mark asked for settles last.
  let lastMark: Promise<unknown> = Promise.resolve();
  return {
    /** Writes events on `tx` (the transaction of the state they describe); a repeat is kept once. */
    async write(tx: Database, events: readonly OutboxEvent[]): Promise<void> {
      if (events.length === 0) return;
      const now = clock.now();
      await tx
        .insert(eventOutbox)
        .select(
          unnestRows(
            eventOutbox,
            events.map((event) => ({
              eventId: event.id,
              type: event.type,
              payload: event.payload as unknown as Record<string, unknown>,
              createdAt: now,
              publishedAt: null,
            })),
          ),
        )
        .onConflictDoNothing({ target: eventOutbox.eventId });
    },

    /**
     * Publishes events just committed, in order; each is marked published soon after (see
     * `marks`), without holding up the caller.
     */
    async publish(bus: EventBus, events: readonly OutboxEvent[]): Promise<void> {
      for (const event of events) {
        await bus.publish(event.type, event.payload as never, event.id);
        lastMark = marks.run(event.id).catch(() => undefined);
      }
    },

    /** Resolves when the published marks asked for so far are written (shutdown, tests). */
    async marked(): Promise<void> {
      await lastMark;
    },

    /**
     * The relay's pass: events left unpublished for RELAY_AFTER_MS (their writer died between
     * its commit and its publication) are published, at least once, in id order; published
     * events past retention are deleted. Answers how many it published.
     */
    async relay(bus: EventBus, limit = 500): Promise<number> {
      const before = new Date(clock.now().getTime() - RELAY_AFTER_MS);
      const rows = await db
        .select()
        .from(eventOutbox)
        .where(and(isNull(eventOutbox.publishedAt), lt(eventOutbox.createdAt, before)))
        .orderBy(asc(eventOutbox.id))
        .limit(limit);
      for (const row of rows)
        await bus.publish(row.type as EventType, row.payload as never, row.eventId);
      if (rows.length > 0) {
        await db
          .update(eventOutbox)
          .set({ publishedAt: clock.now() })
          .where(
            inArray(
              eventOutbox.id,
              rows.map((row) => row.id),
            ),
          );
      }
      await db
        .delete(eventOutbox)
        .where(lt(eventOutbox.publishedAt, new Date(clock.now().getTime() - OUTBOX_RETENTION_MS)));
      return rows.length;
    },

    /** Events after `afterId` of `types`, in id order, as the bus delivers them. */
    async after(
      afterId: number,
      types: readonly EventType[],
      limit = 1_000,
    ): Promise<{ id: number; event: BusEvent }[]> {
      const rows: EventOutboxRow[] = await db
        .select()
        .from(eventOutbox)
        .where(and(gt(eventOutbox.id, afterId), inArray(eventOutbox.type, [...types])))
        .orderBy(asc(eventOutbox.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        event: {
          id: row.eventId,
          type: row.type,
          payload: row.payload,
          at: row.createdAt.toISOString(),
        } as unknown as BusEvent,
      }));
    },

    /**
     * The fills of `accountId` written after the event `afterEventId`, in order (at most
     * `limit`): what a viewer who saw that event missed. Null when the event is no longer kept
     * (or never was): the viewer must reload instead.
     */
    async fillsAfter(
      accountId: number,
      afterEventId: string,
      limit = 500,
    ): Promise<BusEvent<'OrderFilled'>[] | null> {
      const [from] = await db
        .select({ id: eventOutbox.id })
        .from(eventOutbox)
        .where(eq(eventOutbox.eventId, afterEventId));
      if (!from) return null;
      const rows: EventOutboxRow[] = await db
        .select()
        .from(eventOutbox)
        .where(
          and(
            gt(eventOutbox.id, from.id),
            eq(eventOutbox.type, 'OrderFilled'),
            sql`(${eventOutbox.payload} ->> 'accountId')::int = ${accountId}`,
          ),
        )
        .orderBy(asc(eventOutbox.id))
        .limit(limit);
      return rows.map(
        (row) =>
          ({
            id: row.eventId,
            type: 'OrderFilled',
            payload: row.payload,
            at: row.createdAt.toISOString(),
          }) as unknown as BusEvent<'OrderFilled'>,
      );
    },

    /** The last outbox id a reader applied (0: none). */
    async cursor(reader: string): Promise<number> {
      const [row] = await db.select().from(eventCursors).where(eq(eventCursors.reader, reader));
      return row?.lastId ?? 0;
    },

    /** The newest id of events published before `before` (0 when none). */
    async deliveredBefore(before: Date): Promise<number> {
      const [row] = await db
        .select({ id: sql<number>`coalesce(max(${eventOutbox.id}), 0)` })
        .from(eventOutbox)
        .where(lt(eventOutbox.publishedAt, before));
      return Number(row?.id ?? 0);
    },

    async saveCursor(reader: string, lastId: number): Promise<void> {
      const now = clock.now();
      await db
        .insert(eventCursors)
        .values({ reader, lastId, updatedAt: now })
        .onConflictDoUpdate({
          target: eventCursors.reader,
          set: { lastId: sql`greatest(${eventCursors.lastId}, ${lastId})`, updatedAt: now },
        });
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;

/** Runs the relay on a timer (one per process that runs the workers). */
export function createOutboxRelay(deps: {
  outbox: Outbox;
  events: EventBus;
  log?: EventBusLogger;
  everyMs?: number;
  /** In a cluster, whether this process is the one relaying now (one process relays). */
  isActive?: () => boolean;
}) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;
  return {
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        if (running || (deps.isActive && !deps.isActive())) return;
        running = deps.outbox
          .relay(deps.events)
          .catch((error: unknown) => deps.log?.error({ err: error }, 'outbox relay failed'))
          .finally(() => {
            running = undefined;
          });
      }, deps.everyMs ?? RELAY_EVERY_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
