import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

// Notifications (module src/modules/notifications): written by that module only, from the
// events of the outbox. A notification is its kind and parameters (rendered in the reader's
// language), never a sentence.

/** The outbox events the notifications module handled: a repeat (relay, Redis, restart) is dropped. */
export const notificationReceipts = pgTable('notification_receipts', {
  eventId: text('event_id').primaryKey(),
  handledAt: timestamp('handled_at', { withTimezone: true }).notNull(),
});

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number | boolean | null>>().notNull(),
    /** The outbox event it came from. */
    eventId: text('event_id').notNull(),
    /** Shown in the app (the user's in-app switch for the kind was on). */
    isShown: boolean('is_shown').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('notifications_event_user_idx').on(t.eventId, t.userId),
    index('notifications_user_idx').on(t.userId, t.id),
  ],
);

/** One message to send per channel (e-mail, Telegram): sent after the commit, by a sender. */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: serial('id').primaryKey(),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    channel: text('channel', { enum: ['email', 'telegram'] }).notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time (a 429's retry_after, a backoff). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** While `sending`: the claim runs out at this time and another sender may take it again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once_idx').on(t.notificationId, t.channel),
    index('notification_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/** A user's switches (channel → kind → on/off; missing keys take the defaults) and language. */
export const notificationSettings = pgTable('notification_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  switches: jsonb('switches').$type<Record<string, Record<string, boolean>>>().notNull(),
  language: text('language', { enum: ['zh-CN', 'en'] }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** The Telegram chat a user linked (one per user, one user per chat). */
export const telegramLinks = pgTable('telegram_links', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Telegram's chat id (up to 52 bits), as text. */
  chatId: text('chat_id').notNull().unique(),
  chatName: text('chat_name'),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
});

/** One-time link codes (stored hashed) a user sends to the bot as `/start <code>`. */
export const telegramLinkCodes = pgTable('telegram_link_codes', {
  codeHash: text('code_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** The poller's getUpdates offset (one row), so a restart neither repeats nor skips updates. */
export const telegramPollState = pgTable('telegram_poll_state', {
  id: text('id').primaryKey(),
  nextUpdateId: integer('next_update_id').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;
