import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// The transactional outbox of events (src/events/outbox.ts): written by the events module only,
// in the same transaction as the state each event describes.

/**
 * Events written with the state they describe (an OrderFilled with its fill, a PositionChanged
 * with the book). The relay publishes what was not published right after the commit; readers
 * that were down (the square's read model) catch up from here in id order.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: serial('id').primaryKey(),
    /** The event's deterministic id: subscribers drop repeats by it. */
    eventId: text('event_id').notNull().unique(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When it was handed to the bus; null until then. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [index('event_outbox_unpublished_idx').on(t.publishedAt, t.id)],
);

/** How far a reader of the outbox has applied it (the outbox id of its last event). */
export const eventCursors = pgTable('event_cursors', {
  reader: text('reader').primaryKey(),
  lastId: integer('last_id').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type EventOutboxRow = typeof eventOutbox.$inferSelect;
