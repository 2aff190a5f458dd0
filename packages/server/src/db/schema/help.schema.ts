import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

/** Announcements that staff publish in the help centre. `content` is sanitised HTML. */
export const announcements = pgTable(
  'announcements',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    type: text('type', { enum: ['normal', 'important', 'maintenance'] }).notNull(),
    content: text('content').notNull(),
    /** The staff member who published it; kept when their account is deleted (null then). */
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    views: integer('views').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('announcements_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('announcements_views_non_negative', sql`${t.views} >= 0`),
  ],
);

/** Which signed-in user has opened which announcement (is_new and the unread count). */
export const announcementReads = pgTable(
  'announcement_reads',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.userId] }),
    index('announcement_reads_user_idx').on(t.userId),
  ],
);

/**
 * One row per (announcement, reader, day): a view is counted once per reader per day (UTC+8).
 * `reader` is `u:<user id>` or `v:<keyed hash of the visitor's address>`; rows of past days are
 * pruned.
 */
export const announcementViews = pgTable(
  'announcement_views',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    reader: text('reader').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.reader, t.day] }),
    index('announcement_views_day_idx').on(t.day),
  ],
);

export type AnnouncementRow = typeof announcements.$inferSelect;
export type NewAnnouncementRow = typeof announcements.$inferInsert;
