import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  commentLikes,
  strategyComments,
  strategyShareSettings,
  userFollows,
  users,
} from '../../db/schema/index.js';

/** Advisory-lock namespace of "one user posting comments" (serialises the rate check). */
const COMMENT_LOCK_NAMESPACE = 11_001;

const commentColumns = {
  id: strategyComments.id,
  accountId: strategyComments.accountId,
  parentId: strategyComments.parentId,
  userId: strategyComments.userId,
  content: strategyComments.content,
  likesCount: strategyComments.likesCount,
  createdAt: strategyComments.createdAt,
  nickname: users.nickname,
  avatarUrl: users.avatarUrl,
};
export interface CommentRow {
  id: number;
  accountId: number;
  parentId: number | null;
  userId: number;
  content: string;
  likesCount: number;
  createdAt: Date;
  nickname: string;
  avatarUrl: string | null;
}

/** A user's public profile: who they are, their figures, and follows. */
function profileQueries(db: Database) {
  return {
    async findUser(userId: number) {
      const [row] = await db
        .select({
          id: users.id,
          nickname: users.nickname,
          bio: users.bio,
          avatarUrl: users.avatarUrl,
          dateJoined: users.dateJoined,
        })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },
    /** Following, followers, public strategies and their copiers, in one query. */
    async stats(userId: number) {
      const publicOf = sql`${strategyShareSettings.userId} = ${userId} and ${strategyShareSettings.isPublic}`;
      const [row] = await db
        .select({
          following: sql<number>`(select count(*)::int from ${userFollows} where ${userFollows.followerId} = ${userId})`,
          followers: sql<number>`(select count(*)::int from ${userFollows} where ${userFollows.followeeId} = ${userId})`,
          strategies: sql<number>`(select count(*)::int from ${strategyShareSettings} where ${publicOf})`,
          copiers: sql<number>`(select coalesce(sum(${strategyShareSettings.copiersCount}), 0)::int from ${strategyShareSettings} where ${publicOf})`,
        })
        .from(users)
        .where(eq(users.id, userId));
      return {
        following: Number(row?.following ?? 0),
        followers: Number(row?.followers ?? 0),
        strategies: Number(row?.strategies ?? 0),
        copiers: Number(row?.copiers ?? 0),
      };
    },
    async isFollowing(followerId: number, followeeId: number): Promise<boolean> {
      const [row] = await db
        .select({ one: sql`1` })
        .from(userFollows)
        .where(and(eq(userFollows.followerId, followerId), eq(userFollows.followeeId, followeeId)));
      return row !== undefined;
    },
    /** Idempotent: a second follow changes nothing. */
    async follow(followerId: number, followeeId: number, now: Date): Promise<void> {
      await db
        .insert(userFollows)
        .values({ followerId, followeeId, createdAt: now })
        .onConflictDoNothing();
    },
    async unfollow(followerId: number, followeeId: number): Promise<void> {
      await db
        .delete(userFollows)
        .where(and(eq(userFollows.followerId, followerId), eq(userFollows.followeeId, followeeId)));
    },
    async followersCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(userFollows)
        .where(eq(userFollows.followeeId, userId));
      return row?.n ?? 0;
    },
  };
}

/** Comments as read: one, a page of top-level ones, replies, likes. */
function commentReads(db: Database) {
  return {
    async findComment(commentId: number) {
      const [row] = await db
        .select({
          id: strategyComments.id,
          accountId: strategyComments.accountId,
          parentId: strategyComments.parentId,
        })
        .from(strategyComments)
        .where(eq(strategyComments.id, commentId));
      return row;
    },
    /** Top-level comments, newest first, and the number of them and of all comments. */
    async topLevel(accountId: number, limit: number, offset: number) {
      const [rows, [counts]] = await Promise.all([
        db
          .select(commentColumns)
          .from(strategyComments)
          .innerJoin(users, eq(users.id, strategyComments.userId))
          .where(and(eq(strategyComments.accountId, accountId), isNull(strategyComments.parentId)))
          .orderBy(desc(strategyComments.createdAt), desc(strategyComments.id))
          .limit(limit)
          .offset(offset),
        db
          .select({
            top: sql<number>`count(*) filter (where ${strategyComments.parentId} is null)::int`,
            all: count(),
          })
          .from(strategyComments)
          .where(eq(strategyComments.accountId, accountId)),
      ]);
      return { rows: rows as CommentRow[], top: Number(counts?.top ?? 0), all: counts?.all ?? 0 };
    },
    async replies(parentIds: readonly number[]): Promise<CommentRow[]> {
      if (parentIds.length === 0) return [];
      return db
        .select(commentColumns)
        .from(strategyComments)
        .innerJoin(users, eq(users.id, strategyComments.userId))
        .where(inArray(strategyComments.parentId, [...parentIds]))
        .orderBy(asc(strategyComments.createdAt), asc(strategyComments.id));
    },
    async likedBy(userId: number, commentIds: readonly number[]): Promise<Set<number>> {
      if (commentIds.length === 0) return new Set();
      const rows = await db
        .select({ id: commentLikes.commentId })
        .from(commentLikes)
        .where(
          and(eq(commentLikes.userId, userId), inArray(commentLikes.commentId, [...commentIds])),
        );
      return new Set(rows.map((r) => r.id));
    },
  };
}

/** New comments under their rate limit, and likes. */
function commentWrites(db: Database) {
  return {
    /**
     * Inserts the comment unless the user already posted `perMinute` in the last minute or
     * `perHour` in the last hour: then answers the seconds until one more is allowed. The user's
     * posts are serialised by an advisory lock, so concurrent posts cannot overrun the limits.
     */
    async insertRateLimited(
      values: { accountId: number; userId: number; parentId: number | null; content: string },
      now: Date,
      limits: { perMinute: number; perHour: number },
    ): Promise<{ comment: CommentRow } | { retryAfterSeconds: number }> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${COMMENT_LOCK_NAMESPACE}, ${values.userId})`,
        );
        const hourAgo = new Date(now.getTime() - 3_600_000);
        const recent = await tx
          .select({ createdAt: strategyComments.createdAt })
          .from(strategyComments)
          .where(
            and(
              eq(strategyComments.userId, values.userId),
              gt(strategyComments.createdAt, hourAgo),
            ),
          )
          .orderBy(desc(strategyComments.createdAt));
        const minuteAgo = now.getTime() - 60_000;
        const lastMinute = recent.filter((r) => r.createdAt.getTime() > minuteAgo);
        if (lastMinute.length >= limits.perMinute) {
          const oldest = lastMinute[limits.perMinute - 1]!.createdAt.getTime();
          return { retryAfterSeconds: Math.ceil((oldest + 60_000 - now.getTime()) / 1000) };
        }
        if (recent.length >= limits.perHour) {
          const oldest = recent[limits.perHour - 1]!.createdAt.getTime();
          return { retryAfterSeconds: Math.ceil((oldest + 3_600_000 - now.getTime()) / 1000) };
        }
        const [inserted] = await tx
          .insert(strategyComments)
          .values({ ...values, createdAt: now })
          .returning();
        const [author] = await tx
          .select({ nickname: users.nickname, avatarUrl: users.avatarUrl })
          .from(users)
          .where(eq(users.id, values.userId));
        if (!inserted) throw new Error('comment was not written');
        return {
          comment: {
            ...inserted,
            nickname: author?.nickname ?? '',
            avatarUrl: author?.avatarUrl ?? null,
          },
        };
      });
    },
    /**
     * Adds or removes the user's like; the count moves only when a like row really changed,
     * in the same transaction, so it stays exact under concurrent clicks.
     */
    async setLike(commentId: number, userId: number, isLiked: boolean, now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const changed = isLiked
          ? await tx
              .insert(commentLikes)
              .values({ commentId, userId, createdAt: now })
              .onConflictDoNothing()
              .returning({ id: commentLikes.commentId })
          : await tx
              .delete(commentLikes)
              .where(and(eq(commentLikes.commentId, commentId), eq(commentLikes.userId, userId)))
              .returning({ id: commentLikes.commentId });
        if (changed.length > 0) {
          const [row] = await tx
            .update(strategyComments)
            .set({ likesCount: sql`${strategyComments.likesCount} + ${isLiked ? 1 : -1}` })
            .where(eq(strategyComments.id, commentId))
            .returning({ likes: strategyComments.likesCount });
          return row?.likes ?? 0;
        }
        const [row] = await tx
          .select({ likes: strategyComments.likesCount })
          .from(strategyComments)
          .where(eq(strategyComments.id, commentId));
        return row?.likes ?? 0;
      });
    },
  };
}

/** Comments: pages, replies, likes, and new ones under their rate limit. */
function commentQueries(db: Database) {
  return {
    ...commentReads(db),
    ...commentWrites(db),
  };
}

/** Follows, public profiles, comments and likes. */
export function createSocialRepository(db: Database) {
  return {
    ...profileQueries(db),
    ...commentQueries(db),
  };
}
export type SocialRepository = ReturnType<typeof createSocialRepository>;
