import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// The transactional outbox of events (src/events/outbox.ts): written by the events module only,
// in the same transaction as the state each event describes.

/** An event after the first of an outbox row (a group written together). */
export interface StoredEvent {
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/**
 * Events written with the state they describe (an order's OrderFilled with its fill, and the
 * PositionChanged it caused, in one row). The writer publishes them after the commit; the relay
 * publishes what a writer that died left unpublished (`event_writers`); readers that were down
 * (the square's read model, notifications) catch up from here in id order.
 */
export const eventOutbox = pgTable('event_outbox', {
  id: serial('id').primaryKey(),
  /** The row's first event's deterministic id: subscribers drop repeats by it. */
  eventId: text('event_id').notNull().unique(),
  type: text('type').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  /** The events written with the first one, in order; null when it is alone. */
  more: jsonb('more').$type<StoredEvent[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** The process that wrote it (`event_writers`); null for rows of an older version. */
  writer: text('writer'),
});

/**
 * Each writing process's publication watermark: every row it wrote with an id below
 * `published_through` has been handed to the bus. A writer renews its row in the transactions
 * it writes events in; the relay publishes the rows of a writer whose row went stale (it died,
 * or went idle) from its watermark on, and then forgets it.
 */
export const eventWriters = pgTable('event_writers', {
  writer: text('writer').primaryKey(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull(),
  publishedThrough: integer('published_through').notNull(),
});

/** How far a reader of the outbox has applied it (the outbox id of its last event). */
export const eventCursors = pgTable('event_cursors', {
  reader: text('reader').primaryKey(),
  lastId: integer('last_id').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type EventOutboxRow = typeof eventOutbox.$inferSelect;
export type EventWriterRow = typeof eventWriters.$inferSelect;
