import type {
  NotificationChannel,
  NotificationKind,
  NotificationLanguage,
  NotificationParams,
} from '@quantsquare/contracts';
import { and, count, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  notificationDeliveries,
  notificationReceipts,
  notificationSettings,
  notifications,
  telegramLinkCodes,
  telegramLinks,
  telegramPollState,
  users,
} from '../../db/schema/index.js';

// The notifications module's tables (it alone writes them), and the reads it needs of others.

export interface NotificationDraft {
  readonly userId: number;
  readonly kind: NotificationKind;
  readonly params: NotificationParams;
  readonly isShown: boolean;
  /** The delivery channels to send it on (beyond the app). */
  readonly send: readonly ('email' | 'telegram')[];
}

export interface SettingsRow {
  readonly userId: number;
  readonly switches: Record<string, Record<string, boolean>>;
  readonly language: NotificationLanguage;
}

/** A claimed delivery with what it needs to be sent. */
export interface DueDelivery {
  readonly id: number;
  readonly channel: 'email' | 'telegram';
  readonly attempts: number;
  readonly kind: NotificationKind;
  readonly params: NotificationParams;
  readonly userId: number;
  readonly email: string | null;
  readonly chatId: string | null;
  readonly language: NotificationLanguage | null;
}

const POLL_STATE_ID = 'telegram';

/** The notifications of `drafts` and their deliveries; answers the users shown a new one. */
async function writeDrafts(
  tx: Database,
  eventId: string,
  at: Date,
  drafts: readonly NotificationDraft[],
): Promise<{ userIds: number[] }> {
  if (drafts.length === 0) return { userIds: [] };
  const rows = await tx
    .insert(notifications)
    .values(
      drafts.map((d) => ({
        userId: d.userId,
        kind: d.kind,
        params: d.params,
        eventId,
        isShown: d.isShown,
        createdAt: at,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: notifications.id, userId: notifications.userId });
  const idOf = new Map(rows.map((row) => [row.userId, row.id]));
  const deliveries = drafts.flatMap((d) => {
    const notificationId = idOf.get(d.userId);
    return notificationId === undefined
      ? []
      : d.send.map((channel) => ({
          notificationId,
          userId: d.userId,
          channel,
          nextAttemptAt: at,
          createdAt: at,
        }));
  });
  if (deliveries.length > 0) {
    await tx.insert(notificationDeliveries).values(deliveries).onConflictDoNothing();
  }
  const shown = new Set(drafts.filter((d) => d.isShown).map((d) => d.userId));
  return { userIds: rows.map((row) => row.userId).filter((id) => shown.has(id)) };
}

/** Notifications: recording an event's, once, and the user's list and read marks. */
function notificationRows(db: Database) {
  return {
    /**
     * Records the event as handled and writes its notifications and deliveries, in one
     * transaction; answers null when the event was handled before (a repeat: nothing written).
     */
    async record(
      eventId: string,
      at: Date,
      drafts: readonly NotificationDraft[],
    ): Promise<{ userIds: number[] } | null> {
      return db.transaction(async (tx) => {
        const [receipt] = await tx
          .insert(notificationReceipts)
          .values({ eventId, handledAt: at })
          .onConflictDoNothing()
          .returning();
        if (!receipt) return null;
        return writeDrafts(tx, eventId, at, drafts);
      });
    },

    /**
     * Writes one part of a large event's notifications (an announcement's users, page by page)
     * without its receipt: a part written twice keeps one notification per user and event.
     */
    async recordPart(
      eventId: string,
      at: Date,
      drafts: readonly NotificationDraft[],
    ): Promise<{ userIds: number[] }> {
      return db.transaction((tx) => writeDrafts(tx, eventId, at, drafts));
    },

    async isHandled(eventId: string): Promise<boolean> {
      const [row] = await db
        .select({ eventId: notificationReceipts.eventId })
        .from(notificationReceipts)
        .where(eq(notificationReceipts.eventId, eventId));
      return row !== undefined;
    },

    /** Marks a large event handled once all its parts are written; false when it was already. */
    async markHandled(eventId: string, at: Date): Promise<boolean> {
      const rows = await db
        .insert(notificationReceipts)
        .values({ eventId, handledAt: at })
        .onConflictDoNothing()
        .returning();
      return rows.length > 0;
    },

    async list(userId: number, options: { unreadOnly: boolean; limit: number; offset: number }) {
      const where = and(
        eq(notifications.userId, userId),
        eq(notifications.isShown, true),
        options.unreadOnly ? eq(notifications.isRead, false) : undefined,
      );
      // Counted first, then the page up to the newest counted row: a notification written in
      // between is in neither, so the count and the page always agree.
      const [total] = await db
        .select({ n: count(), newest: sql<number | null>`max(${notifications.id})` })
        .from(notifications)
        .where(where);
      const rows = await db
        .select()
        .from(notifications)
        .where(and(where, lte(notifications.id, Number(total?.newest ?? 0))))
        .orderBy(desc(notifications.id))
        .limit(options.limit)
        .offset(options.offset);
      return { rows, count: Number(total?.n ?? 0) };
    },

    async unreadCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, userId),
            eq(notifications.isShown, true),
            eq(notifications.isRead, false),
          ),
        );
      return Number(row?.n ?? 0);
    },

    /** Marks the user's notifications read (`ids`, or all when null); answers how many changed. */
    async markRead(userId: number, ids: readonly number[] | null): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ isRead: true })
        .where(
          and(
            eq(notifications.userId, userId),
            eq(notifications.isRead, false),
            ids === null ? undefined : inArray(notifications.id, [...ids]),
          ),
        )
        .returning({ id: notifications.id });
      return rows.length;
    },
  };
}

/** Each user's settings and contacts, and the audience of an announcement. */
function settingsAndContacts(db: Database) {
  return {
    async settingsOf(userIds: readonly number[]): Promise<SettingsRow[]> {
      if (userIds.length === 0) return [];
      return db
        .select({
          userId: notificationSettings.userId,
          switches: notificationSettings.switches,
          language: notificationSettings.language,
        })
        .from(notificationSettings)
        .where(inArray(notificationSettings.userId, [...userIds]));
    },

    async saveSettings(row: SettingsRow, at: Date): Promise<void> {
      await db
        .insert(notificationSettings)
        .values({ ...row, updatedAt: at })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: { switches: row.switches, language: row.language, updatedAt: at },
        });
    },

    /** Each user's e-mail and linked Telegram chat (the users table is the auth module's). */
    async contactsOf(
      userIds: readonly number[],
    ): Promise<
      { userId: number; email: string | null; chatId: string | null; chatName: string | null }[]
    > {
      if (userIds.length === 0) return [];
      return db
        .select({
          userId: users.id,
          email: users.email,
          chatId: telegramLinks.chatId,
          chatName: telegramLinks.chatName,
        })
        .from(users)
        .leftJoin(telegramLinks, eq(telegramLinks.userId, users.id))
        .where(inArray(users.id, [...userIds]));
    },

    /** Every user, in id order from `afterId` (an announcement's audience, in pages). */
    async userIdsAfter(afterId: number, limit: number): Promise<number[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(gt(users.id, afterId))
        .orderBy(users.id)
        .limit(limit);
      return rows.map((row) => row.id);
    },
  };
}

/** Telegram: link codes, linked chats and the bot's poll offset. */
function telegramQueries(db: Database) {
  return {
    async saveLinkCode(codeHash: string, userId: number, expiresAt: Date): Promise<void> {
      await db.insert(telegramLinkCodes).values({ codeHash, userId, expiresAt });
    },

    /** Uses a code once: the user it was made for, or null (unknown, used or expired). */
    async useLinkCode(codeHash: string, at: Date): Promise<number | null> {
      const [row] = await db
        .update(telegramLinkCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(telegramLinkCodes.codeHash, codeHash),
            isNull(telegramLinkCodes.usedAt),
            gt(telegramLinkCodes.expiresAt, at),
          ),
        )
        .returning({ userId: telegramLinkCodes.userId });
      return row?.userId ?? null;
    },

    /** Links the chat to the user (a chat linked to someone else moves to this user). */
    async linkChat(userId: number, chatId: string, chatName: string | null, at: Date) {
      await db.transaction(async (tx) => {
        await tx.delete(telegramLinks).where(eq(telegramLinks.chatId, chatId));
        await tx
          .insert(telegramLinks)
          .values({ userId, chatId, chatName, linkedAt: at })
          .onConflictDoUpdate({
            target: telegramLinks.userId,
            set: { chatId, chatName, linkedAt: at },
          });
      });
    },

    /** Unlinks the chat; answers the user it was linked to, if any. */
    async unlinkChat(chatId: string): Promise<number | null> {
      const [row] = await db
        .delete(telegramLinks)
        .where(eq(telegramLinks.chatId, chatId))
        .returning({ userId: telegramLinks.userId });
      return row?.userId ?? null;
    },

    async unlinkUser(userId: number): Promise<void> {
      await db.delete(telegramLinks).where(eq(telegramLinks.userId, userId));
    },

    async pollOffset(): Promise<number> {
      const [row] = await db
        .select()
        .from(telegramPollState)
        .where(eq(telegramPollState.id, POLL_STATE_ID));
      return row?.nextUpdateId ?? 0;
    },

    async savePollOffset(nextUpdateId: number, at: Date): Promise<void> {
      await db
        .insert(telegramPollState)
        .values({ id: POLL_STATE_ID, nextUpdateId, updatedAt: at })
        .onConflictDoUpdate({
          target: telegramPollState.id,
          set: {
            nextUpdateId: sql`greatest(${telegramPollState.nextUpdateId}, ${nextUpdateId})`,
            updatedAt: at,
          },
        });
    },
  };
}

/** Deliveries due: claimed, sent, retried later or failed. */
function deliveryQueue(db: Database) {
  return {
    /**
     * Claims up to `limit` due deliveries of `channels` (pending and due, or a claim that ran
     * out) for `claimMs`; another sender skips rows claimed here.
     */
    async claimDue(
      channels: readonly NotificationChannel[],
      at: Date,
      limit: number,
      claimMs: number,
    ): Promise<DueDelivery[]> {
      const due = db
        .select({ id: notificationDeliveries.id })
        .from(notificationDeliveries)
        .where(
          and(
            inArray(notificationDeliveries.channel, channels as ('email' | 'telegram')[]),
            or(
              and(
                eq(notificationDeliveries.status, 'pending'),
                lte(notificationDeliveries.nextAttemptAt, at),
              ),
              and(
                eq(notificationDeliveries.status, 'sending'),
                lte(notificationDeliveries.claimedUntil, at),
              ),
            ),
          ),
        )
        .orderBy(notificationDeliveries.id)
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(notificationDeliveries)
        .set({
          status: 'sending',
          claimedUntil: new Date(at.getTime() + claimMs),
          attempts: sql`${notificationDeliveries.attempts} + 1`,
        })
        .where(inArray(notificationDeliveries.id, due))
        .returning({ id: notificationDeliveries.id });
      if (claimed.length === 0) return [];
      const rows = await db
        .select({
          id: notificationDeliveries.id,
          channel: notificationDeliveries.channel,
          attempts: notificationDeliveries.attempts,
          kind: notifications.kind,
          params: notifications.params,
          userId: notificationDeliveries.userId,
          email: users.email,
          chatId: telegramLinks.chatId,
          language: notificationSettings.language,
        })
        .from(notificationDeliveries)
        .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
        .innerJoin(users, eq(users.id, notificationDeliveries.userId))
        .leftJoin(telegramLinks, eq(telegramLinks.userId, notificationDeliveries.userId))
        .leftJoin(
          notificationSettings,
          eq(notificationSettings.userId, notificationDeliveries.userId),
        )
        .where(
          inArray(
            notificationDeliveries.id,
            claimed.map((row) => row.id),
          ),
        )
        .orderBy(notificationDeliveries.id);
      return rows.map((row) => ({ ...row, kind: row.kind as NotificationKind }));
    },

    async markSent(id: number, at: Date): Promise<void> {
      await db
        .update(notificationDeliveries)
        .set({ status: 'sent', sentAt: at, claimedUntil: null, lastError: null })
        .where(eq(notificationDeliveries.id, id));
    },

    /** Back to pending, not before `nextAttemptAt` (a rate limit, a backoff). */
    async retryLater(id: number, nextAttemptAt: Date, error: string | null): Promise<void> {
      await db
        .update(notificationDeliveries)
        .set({ status: 'pending', nextAttemptAt, claimedUntil: null, lastError: error })
        .where(eq(notificationDeliveries.id, id));
    },

    async markFailed(id: number, error: string): Promise<void> {
      await db
        .update(notificationDeliveries)
        .set({ status: 'failed', claimedUntil: null, lastError: error.slice(0, 500) })
        .where(eq(notificationDeliveries.id, id));
    },
  };
}

export function createNotificationsRepository(db: Database) {
  return {
    ...notificationRows(db),
    ...settingsAndContacts(db),
    ...telegramQueries(db),
    ...deliveryQueue(db),
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
