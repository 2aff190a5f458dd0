// The transactional outbox: events written in the same transaction as the state they describe,
// published by their writer after the commit, and by the relay when the writer died first. A
// reader that was down reads the outbox from its cursor. The only writer of event_outbox,
// event_writers and event_cursors.
//
// Who published what is kept per writing process, not per event: each process records, in the
// transactions it writes events in, a watermark below which every row it wrote is published
// (`event_writers`). Marking every event published would cost a row update per event; the
// watermark costs one row per process. The relay publishes, from its watermark on, the rows of
// a writer that stopped renewing its row (it died, froze, or has been idle), then forgets it.
// Publication is at least once: subscribers drop a repeat by its event id.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, gte, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../common/clock.js';
import { unnestRows } from '../db/batch-sql.js';
import type { Database } from '../db/database.js';
import {
  type EventOutboxRow,
  eventCursors,
  eventOutbox,
  eventWriters,
  type StoredEvent,
} from '../db/schema/index.js';
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

/** A writer whose row is older than this is the relay's: it died, froze, or is idle. */
export const RELAY_AFTER_MS = 5_000;
/** How often the relay looks. */
export const RELAY_EVERY_MS = 2_000;
/** Events are kept this long for readers that were down. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;
/** How often a busy writer renews its row (in a transaction it writes events in). */
const BEAT_EVERY_MS = 1_000;
/**
 * A written event not published after this long belonged to a transaction that rolled back (its
 * writer publishes what commits, and retries what fails): it no longer holds the watermark.
 */
const ABANDONED_AFTER_MS = 60_000;
/** A failed publication is tried again after this long (while the writer lives). */
const RETRY_AFTER_MS = 1_000;
/** Rows deleted past retention in one statement at most. */
const PRUNE_LIMIT = 5_000;

/** The events of a row, first one first, as the bus delivers them. */
function eventsOf(row: EventOutboxRow): BusEvent[] {
  const at = row.createdAt.toISOString();
  const stored: StoredEvent[] = [
    { id: row.eventId, type: row.type, payload: row.payload },
    ...(row.more ?? []),
  ];
  return stored.map((e) => ({ id: e.id, type: e.type, payload: e.payload, at }) as BusEvent);
}

interface OutboxDeps {
  readonly db: Database;
  readonly clock: Clock;
  /** This process's name as a writer (a new one per outbox when not given). */
  readonly writer?: string;
  readonly log?: EventBusLogger;
}

/** The writing side: rows written in their transaction, then published by this process. */
class OutboxWriter {
  readonly writer: string;
  /** The highest outbox id this writer's inserts were given. */
  private seen = 0;
  /**
   * Unpublished events of this writer: event id → the lowest outbox id its write could get, and
   * when it was written (Infinity once it is known committed: its publication failed).
   */
  private readonly pending = new Map<string, { bound: number; at: number }>();
  /** Publications that failed, to try again (the relay takes them if this process dies). */
  private failed: { bus: EventBus; event: OutboxEvent }[] = [];
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastBeatAt = Number.NEGATIVE_INFINITY;
  private idleBeat: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: OutboxDeps) {
    this.writer = deps.writer ?? `writer-${randomUUID()}`;
  }

  /** Writes events on `tx` (the transaction of the state they describe), a row each. */
  async write(tx: Database, events: readonly OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.insert(
      tx,
      events.map((event) => [event]),
    );
  }

  /**
   * Writes groups of events on `tx`, a row per group (the events of one fact: an order's fill
   * and the position change it made). A group whose first event is stored already is kept once.
   */
  async writeGroups(tx: Database, groups: readonly (readonly OutboxEvent[])[]): Promise<void> {
    const rows = groups.filter((group) => group.length > 0);
    if (rows.length > 0) await this.insert(tx, rows);
  }

  /**
   * Publishes events just committed, in order. One that fails is tried again soon; if this
   * process dies first, the relay publishes it.
   */
  async publish(bus: EventBus, events: readonly OutboxEvent[]): Promise<void> {
    let error: unknown;
    for (const event of events) {
      try {
        await bus.publish(event.type, event.payload as never, event.id);
        this.pending.delete(event.id);
      } catch (cause) {
        error ??= cause;
        this.failed.push({ bus, event });
        const entry = this.pending.get(event.id);
        if (entry) entry.at = Number.POSITIVE_INFINITY;
      }
    }
    this.scheduleRetry();
    // Idle after a burst: the watermark is saved now, so the relay has nothing to publish again
    // when this writer's row goes stale. (Looked at once a beat, not on every publication.)
    const now = this.deps.clock.now().getTime();
    if (now - this.lastBeatAt >= BEAT_EVERY_MS) this.forgetAbandoned();
    if (this.pending.size === 0 && now - this.lastBeatAt >= BEAT_EVERY_MS) {
      this.idleBeat = this.beat(this.deps.db).catch((cause: unknown) =>
        this.deps.log?.error({ err: cause }, 'outbox watermark not saved'),
      );
    }
    if (error !== undefined) throw error;
  }

  /** Resolves when failed publications were tried once more and the watermark is saved. */
  async marked(): Promise<void> {
    this.stopRetries();
    if (this.failed.length > 0) await this.retryFailed();
    this.stopRetries();
    await this.idleBeat;
  }

  /** Every row this writer wrote below this id is published. */
  private watermark(): number {
    // A loop, not Math.min(...): while the bus is down the pending events may be many more than
    // a call's arguments can hold, and this runs inside settlement transactions.
    this.forgetAbandoned();
    let lowest = this.seen + 1;
    for (const { bound } of this.pending.values()) if (bound < lowest) lowest = bound;
    return lowest;
  }

  /** Drops the events of writes whose transaction rolled back (never published, never will be). */
  private forgetAbandoned(): void {
    const before = this.deps.clock.now().getTime() - ABANDONED_AFTER_MS;
    for (const [id, { at }] of this.pending) if (at < before) this.pending.delete(id);
  }

  /** Renews this writer's row on `executor`, with its watermark (the relay leaves it alone). */
  private async beat(executor: Database): Promise<void> {
    const now = this.deps.clock.now();
    const publishedThrough = this.watermark();
    this.lastBeatAt = now.getTime();
    await executor
      .insert(eventWriters)
      .values({ writer: this.writer, beatAt: now, publishedThrough })
      .onConflictDoUpdate({
        target: eventWriters.writer,
        set: { beatAt: now, publishedThrough },
      });
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.failed.length === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.retryFailed();
    }, RETRY_AFTER_MS);
    this.retryTimer.unref();
  }

  private stopRetries(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async retryFailed(): Promise<void> {
    const due = this.failed;
    this.failed = [];
    for (const item of due) {
      try {
        await item.bus.publish(item.event.type, item.event.payload as never, item.event.id);
        this.pending.delete(item.event.id);
      } catch {
        this.failed.push(item);
      }
    }
    this.scheduleRetry();
  }

  /** The rows of `groups` (each written as one row, its first event's id the row's). */
  private async insert(tx: Database, groups: readonly (readonly OutboxEvent[])[]): Promise<void> {
    const now = this.deps.clock.now();
    const bound = this.seen + 1;
    const at = now.getTime();
    for (const group of groups)
      for (const event of group) this.pending.set(event.id, { bound, at });
    // In the transaction: a writer that was idle or frozen is this writer again before any of
    // the rows below can commit, so the relay cannot take its watermark past them.
    if (now.getTime() - this.lastBeatAt >= BEAT_EVERY_MS) await this.beat(tx);
    const rows = await tx
      .insert(eventOutbox)
      .select(
        unnestRows(
          eventOutbox,
          groups.map((group) => this.rowOf(group, now)),
        ),
      )
      .onConflictDoNothing({ target: eventOutbox.eventId })
      .returning({ id: eventOutbox.id });
    for (const row of rows) if (row.id > this.seen) this.seen = row.id;
  }

  private rowOf(group: readonly OutboxEvent[], now: Date) {
    const [first, ...more] = group as [OutboxEvent, ...OutboxEvent[]];
    const stored = (e: OutboxEvent): StoredEvent => ({
      id: e.id,
      type: e.type,
      payload: e.payload as unknown as Record<string, unknown>,
    });
    return {
      eventId: first.id,
      type: first.type,
      payload: stored(first).payload,
      more: more.length === 0 ? null : more.map(stored),
      createdAt: now,
      writer: this.writer,
    };
  }
}

/** Deletes rows past retention, oldest first (a bounded number per call). */
async function prune(db: Database, clock: Clock): Promise<void> {
  const cutoff = new Date(clock.now().getTime() - OUTBOX_RETENTION_MS);
  await db.execute(sql`
    delete from ${eventOutbox} where ${eventOutbox.id} in (
      select ${eventOutbox.id} from ${eventOutbox}
      where ${eventOutbox.id} < coalesce(
        (select ${eventOutbox.id} from ${eventOutbox}
          where ${eventOutbox.createdAt} >= ${cutoff.toISOString()}::timestamptz
          order by ${eventOutbox.id} limit 1),
        (select max(${eventOutbox.id}) + 1 from ${eventOutbox}))
      order by ${eventOutbox.id} limit ${PRUNE_LIMIT})`);
}

/** The relay: what writers that went stale left unpublished, and retention. */
function outboxRelayPass(db: Database, clock: Clock) {
  return {
    /**
     * The relay's pass: the rows of writers whose row went stale (RELAY_AFTER_MS without a
     * renewal) are published from their watermark on, in id order, at least once, and then
     * the writer is forgotten; rows past retention are deleted. Answers how many events it
     * published.
     */
    async relay(bus: EventBus, limit = 500): Promise<number> {
      const now = clock.now();
      const stale = await db
        .select()
        .from(eventWriters)
        .where(lt(eventWriters.beatAt, new Date(now.getTime() - RELAY_AFTER_MS)))
        .orderBy(asc(eventWriters.writer));
      let published = 0;
      for (const departed of stale) {
        const rows = await db
          .select()
          .from(eventOutbox)
          .where(
            and(
              eq(eventOutbox.writer, departed.writer),
              gte(eventOutbox.id, departed.publishedThrough),
            ),
          )
          .orderBy(asc(eventOutbox.id))
          .limit(limit);
        for (const row of rows) {
          for (const event of eventsOf(row)) {
            await bus.publish(event.type, event.payload as never, event.id);
            published += 1;
          }
        }
        // Only if it did not come back meanwhile (then its own row says where it stands).
        const still = and(
          eq(eventWriters.writer, departed.writer),
          eq(eventWriters.beatAt, departed.beatAt),
        );
        const last = rows.at(-1);
        if (rows.length === limit && last) {
          await db
            .update(eventWriters)
            .set({ publishedThrough: last.id + 1 })
            .where(still);
        } else {
          await db.delete(eventWriters).where(still);
        }
      }
      await prune(db, clock);
      return published;
    },
  };
}

/** The reading side: readers that were down catch up from their cursor. */
function outboxReads(db: Database, clock: Clock) {
  return {
    /** Events after `afterId` of `types`, in id order, as the bus delivers them (at most `limit` rows). */
    async after(
      afterId: number,
      types: readonly EventType[],
      limit = 1_000,
    ): Promise<{ id: number; event: BusEvent }[]> {
      const rows: EventOutboxRow[] = await db
        .select()
        .from(eventOutbox)
        .where(
          and(
            gt(eventOutbox.id, afterId),
            or(
              sql`${eventOutbox.type} = any(${sql.param([...types])}::text[])`,
              sql`${eventOutbox.more} is not null`,
            ),
          ),
        )
        .orderBy(asc(eventOutbox.id))
        .limit(limit);
      const wanted = new Set<string>(types);
      return rows.flatMap((row) =>
        eventsOf(row)
          .filter((event) => wanted.has(event.type))
          .map((event) => ({ id: row.id, event })),
      );
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
      return rows.map((row) => eventsOf(row)[0] as BusEvent<'OrderFilled'>);
    },

    /** The last outbox id a reader applied (0: none). */
    async cursor(reader: string): Promise<number> {
      const [row] = await db.select().from(eventCursors).where(eq(eventCursors.reader, reader));
      return row?.lastId ?? 0;
    },

    /**
     * The newest id such that every event up to it was written before `before` and published
     * (0 when none): a reader's cursor may move there.
     */
    async deliveredBefore(before: Date): Promise<number> {
      const [writers] = await db
        .select({ through: sql<number | null>`min(${eventWriters.publishedThrough})` })
        .from(eventWriters);
      const [newest] = await db
        .select({ id: sql<number>`coalesce(max(${eventOutbox.id}), 0)` })
        .from(eventOutbox);
      const [older] = await db
        .select({ id: sql<number>`coalesce(max(${eventOutbox.id}), 0)` })
        .from(eventOutbox)
        .where(lt(eventOutbox.createdAt, before));
      const published =
        writers?.through === null || writers?.through === undefined
          ? Number(newest?.id ?? 0)
          : Number(writers.through) - 1;
      return Math.max(0, Math.min(published, Number(older?.id ?? 0)));
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

export function createOutbox(deps: OutboxDeps) {
  const writer = new OutboxWriter(deps);
  return {
    /** This process's name as a writer. */
    writer: writer.writer,
    write: (tx: Database, events: readonly OutboxEvent[]) => writer.write(tx, events),
    writeGroups: (tx: Database, groups: readonly (readonly OutboxEvent[])[]) =>
      writer.writeGroups(tx, groups),
    publish: (bus: EventBus, events: readonly OutboxEvent[]) => writer.publish(bus, events),
    marked: () => writer.marked(),
    ...outboxRelayPass(deps.db, deps.clock),
    ...outboxReads(deps.db, deps.clock),
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
