import { and, count, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type AnnouncementRow,
  announcementReads,
  announcements,
  announcementViews,
  type NewAnnouncementRow,
  users,
} from '../../db/schema/index.js';

/** An announcement as read: its author's nickname and whether the reader has yet to open it. */
export interface AnnouncementRecord {
  readonly announcement: AnnouncementRow;
  readonly authorNickname: string | null;
  readonly isNew: boolean;
}

export type AnnouncementChanges = Pick<
  NewAnnouncementRow,
  'title' | 'summary' | 'type' | 'content'
>;

/**
 * Unread for `userId`: published since the user joined (older news is not pushed at newcomers)
 * and not opened by them.
 */
const unreadBy = (userId: number): SQL<boolean> => sql<boolean>`(
  ${announcements.createdAt} >= (select ${users.dateJoined} from ${users} where ${users.id} = ${userId})
  and not exists (
    select 1 from ${announcementReads}
    where ${announcementReads.announcementId} = ${announcements.id}
      and ${announcementReads.userId} = ${userId}
  )
)`;

/** Announcements with their author's nickname and whether the reader has read them. */
const records = (db: Database, readerId: number | undefined) =>
  db
    .select({
      announcement: announcements,
      authorNickname: users.nickname,
      isNew: readerId === undefined ? sql<boolean>`false` : unreadBy(readerId),
    })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.authorId));

/** Announcements: written, read and listed. */
function announcementRows(db: Database) {
  return {
    async insert(values: NewAnnouncementRow): Promise<AnnouncementRow> {
      const [row] = await db.insert(announcements).values(values).returning();
      if (!row) throw new Error('Inserting an announcement returned no row');
      return row;
    },
    async update(
      id: number,
      changes: AnnouncementChanges,
      now: Date,
    ): Promise<AnnouncementRow | undefined> {
      const [row] = await db
        .update(announcements)
        .set({ ...changes, updatedAt: now })
        .where(eq(announcements.id, id))
        .returning();
      return row;
    },
    async delete(id: number): Promise<AnnouncementRow | undefined> {
      const [row] = await db.delete(announcements).where(eq(announcements.id, id)).returning();
      return row;
    },
    async findById(id: number): Promise<AnnouncementRow | undefined> {
      const [row] = await db.select().from(announcements).where(eq(announcements.id, id));
      return row;
    },
    async findRecord(id: number, readerId?: number): Promise<AnnouncementRecord | undefined> {
      const [row] = await records(db, readerId).where(eq(announcements.id, id));
      return row;
    },
    /** One page, newest first. */
    async page(
      paging: { offset: number; limit: number },
      readerId?: number,
    ): Promise<{ rows: AnnouncementRecord[]; total: number }> {
      const rows = await records(db, readerId)
        .orderBy(desc(announcements.createdAt), desc(announcements.id))
        .offset(paging.offset)
        .limit(paging.limit);
      const [counted] = await db.select({ total: count() }).from(announcements);
      return { rows, total: counted?.total ?? 0 };
    },
  };
}

/** What readers saw: unread counts, read marks, views and used images. */
function readerQueries(db: Database) {
  return {
    async unreadCount(userId: number): Promise<number> {
      const [row] = await db.select({ total: count() }).from(announcements).where(unreadBy(userId));
      return row?.total ?? 0;
    },
    /**
     * Idempotent: a second read keeps the first time. Answers false when the announcement does
     * not exist (the row lock keeps a concurrent delete from slipping in between).
     */
    async markRead(announcementId: number, userId: number, at: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ id: announcements.id })
          .from(announcements)
          .where(eq(announcements.id, announcementId))
          .for('share');
        if (!found) return false;
        await tx
          .insert(announcementReads)
          .values({ announcementId, userId, readAt: at })
          .onConflictDoNothing();
        return true;
      });
    },
    /**
     * Counts a view unless `reader` already viewed the announcement on `day`; answers the
     * announcement's views after it (undefined when the announcement is gone).
     */
    async recordView(
      announcementId: number,
      reader: string,
      day: string,
    ): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ views: announcements.views })
          .from(announcements)
          .where(eq(announcements.id, announcementId))
          .for('update');
        if (!found) return undefined;
        const inserted = await tx
          .insert(announcementViews)
          .values({ announcementId, reader, day })
          .onConflictDoNothing()
          .returning({ day: announcementViews.day });
        if (inserted.length === 0) return found.views;
        const [row] = await tx
          .update(announcements)
          .set({ views: sql`${announcements.views} + 1` })
          .where(eq(announcements.id, announcementId))
          .returning({ views: announcements.views });
        return row?.views;
      });
    },
    /** Drops the view marks of days before `day` (they no longer decide anything). */
    async pruneViewsBefore(day: string): Promise<void> {
      await db.delete(announcementViews).where(lt(announcementViews.day, day));
    },
    /** Whether any announcement still shows the image at `url`. */
    async isImageUsed(url: string): Promise<boolean> {
      const [row] = await db
        .select({ id: announcements.id })
        .from(announcements)
        .where(and(sql`strpos(${announcements.content}, ${url}) > 0`))
        .limit(1);
      return row !== undefined;
    },
  };
}

export function createHelpRepository(db: Database) {
  return {
    ...announcementRows(db),
    ...readerQueries(db),
  };
}
export type HelpRepository = ReturnType<typeof createHelpRepository>;
