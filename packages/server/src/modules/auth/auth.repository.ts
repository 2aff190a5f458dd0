import { and, count, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  authAttempts,
  type NewUserRow,
  type SessionRow,
  sessions,
  type UserRow,
  users,
  type VerificationCodeRow,
  verificationCodes,
} from '../../db/schema/index.js';

export type CodeChannel = 'email' | 'phone';
export type CodeAction = 'login' | 'register' | 'reset_password';

const firstOrUndefined = <T>(rows: T[]): T | undefined => rows[0];

/** Users: looked up, created and changed. */
function userQueries(db: Database) {
  return {
    // users
    async findUserById(id: number): Promise<UserRow | undefined> {
      return firstOrUndefined(await db.select().from(users).where(eq(users.id, id)).limit(1));
    },
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      return firstOrUndefined(await db.select().from(users).where(eq(users.email, email)).limit(1));
    },
    async findUserByPhone(phone: string): Promise<UserRow | undefined> {
      return firstOrUndefined(await db.select().from(users).where(eq(users.phone, phone)).limit(1));
    },
    async findUserByInvitationCode(code: string): Promise<UserRow | undefined> {
      return firstOrUndefined(
        await db.select().from(users).where(eq(users.invitationCode, code)).limit(1),
      );
    },
    async isInvitationCodeTaken(code: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.invitationCode, code))
        .limit(1);
      return rows.length > 0;
    },
    /**
     * Inserts a user; answers undefined when a unique column (email, phone, username) is taken.
     * `withUser` runs on the same transaction, so what it creates exists exactly when the user does.
     */
    async insertUser(
      values: NewUserRow,
      withUser?: (tx: Database, user: UserRow) => Promise<void>,
    ): Promise<UserRow | undefined> {
      if (!withUser) {
        const rows = await db.insert(users).values(values).onConflictDoNothing().returning();
        return rows[0];
      }
      return db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values(values).onConflictDoNothing().returning();
        if (user) await withUser(tx, user);
        return user;
      });
    },
    async updateUser(id: number, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
      return firstOrUndefined(
        await db.update(users).set(values).where(eq(users.id, id)).returning(),
      );
    },
  };
}

/** Sign-in attempts and TOTP steps: the brute-force guards. */
function attemptQueries(db: Database) {
  return {
    /**
     * Claims one attempt on a key of the attempt guard in a single statement, BEFORE the check
     * runs, so a burst of concurrent attempts is counted one by one: inside the window the count
     * grows, outside it starts again at 1, and the attempt that reaches `maxFailures` locks the
     * key until `now + windowSeconds`. Answers the lock's end when the key is already locked.
     */
    async claimAttempt(
      key: string,
      now: Date,
      windowSeconds: number,
      maxFailures: number,
    ): Promise<{ allowed: true } | { allowed: false; lockedUntil: Date | null }> {
      const windowStart = new Date(now.getTime() - windowSeconds * 1000);
      const lockEnd = new Date(now.getTime() + windowSeconds * 1000);
      const inWindow = sql`(${authAttempts.windowStart} > ${windowStart})`;
      const next = sql`(case when ${inWindow} then ${authAttempts.failures} + 1 else 1 end)`;
      const claimed = await db
        .insert(authAttempts)
        .values({
          key,
          failures: 1,
          windowStart: now,
          lockedUntil: maxFailures <= 1 ? lockEnd : null,
        })
        .onConflictDoUpdate({
          target: authAttempts.key,
          set: {
            failures: next,
            windowStart: sql`case when ${inWindow} then ${authAttempts.windowStart} else ${now}::timestamptz end`,
            lockedUntil: sql`case when ${next} >= ${maxFailures} then ${lockEnd}::timestamptz else null end`,
          },
          setWhere: sql`(${authAttempts.lockedUntil} is null or ${authAttempts.lockedUntil} <= ${now})`,
        })
        .returning({ key: authAttempts.key });
      if (claimed.length > 0) return { allowed: true };
      const [row] = await db
        .select({ lockedUntil: authAttempts.lockedUntil })
        .from(authAttempts)
        .where(eq(authAttempts.key, key));
      return { allowed: false, lockedUntil: row?.lockedUntil ?? null };
    },
    /** A check passed: the key's claimed attempt, and its earlier failures, no longer count. */
    async clearAttempts(key: string): Promise<void> {
      await db.delete(authAttempts).where(eq(authAttempts.key, key));
    },
    /**
     * A check passed: its own claim on the key is taken back, the earlier failures still count
     * (so an address cannot wash its failures out with an account of its own).
     */
    async releaseAttempt(key: string, maxFailures: number): Promise<void> {
      const left = sql`greatest(${authAttempts.failures} - 1, 0)`;
      await db
        .update(authAttempts)
        .set({
          failures: left,
          lockedUntil: sql`case when ${left} >= ${maxFailures} then ${authAttempts.lockedUntil} else null end`,
        })
        .where(eq(authAttempts.key, key));
    },
    /** Forgets the attempts whose window ended before `before` and that lock nothing. */
    async deleteStaleAttempts(before: Date, now: Date): Promise<void> {
      await db
        .delete(authAttempts)
        .where(
          and(
            lt(authAttempts.windowStart, before),
            sql`(${authAttempts.lockedUntil} is null or ${authAttempts.lockedUntil} <= ${now})`,
          ),
        );
    },
    /** Sets the TOTP last step only if the step is newer, so a step is accepted once even under races. */
    async claimTotpStep(
      id: number,
      step: number,
      values: Partial<NewUserRow> = {},
    ): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ ...values, totpLastStep: step })
        .where(
          and(
            eq(users.id, id),
            sql`(${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`,
          ),
        )
        .returning({ id: users.id });
      return rows.length > 0;
    },
  };
}

/** Verification codes: issued, superseded, counted and consumed. */
function codeQueries(db: Database) {
  return {
    // verification codes
    async insertCode(values: {
      channel: CodeChannel;
      target: string;
      action: CodeAction;
      codeHash: string;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<VerificationCodeRow> {
      const [row] = await db.insert(verificationCodes).values(values).returning();
      return row!;
    },
    async deleteCode(id: number): Promise<void> {
      await db.delete(verificationCodes).where(eq(verificationCodes.id, id));
    },
    async latestCodeForTarget(
      channel: CodeChannel,
      target: string,
    ): Promise<VerificationCodeRow | undefined> {
      return firstOrUndefined(
        await db
          .select()
          .from(verificationCodes)
          .where(and(eq(verificationCodes.channel, channel), eq(verificationCodes.target, target)))
          .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
          .limit(1),
      );
    },
    async codesSince(
      channel: CodeChannel,
      target: string,
      since: Date,
    ): Promise<{ n: number; oldest: Date | null }> {
      const [row] = await db
        .select({ n: count(), oldest: sql<string | null>`min(${verificationCodes.createdAt})` })
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.channel, channel),
            eq(verificationCodes.target, target),
            gt(verificationCodes.createdAt, since),
          ),
        );
      return { n: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
    },
    /** The newest usable code of (channel, target, action): older ones are superseded. */
    async activeCode(
      channel: CodeChannel,
      target: string,
      action: CodeAction,
    ): Promise<VerificationCodeRow | undefined> {
      return firstOrUndefined(
        await db
          .select()
          .from(verificationCodes)
          .where(
            and(
              eq(verificationCodes.channel, channel),
              eq(verificationCodes.target, target),
              eq(verificationCodes.action, action),
              isNull(verificationCodes.consumedAt),
            ),
          )
          .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
          .limit(1),
      );
    },
    async supersedeCodes(
      channel: CodeChannel,
      target: string,
      action: CodeAction,
      at: Date,
    ): Promise<void> {
      await db
        .update(verificationCodes)
        .set({ consumedAt: at })
        .where(
          and(
            eq(verificationCodes.channel, channel),
            eq(verificationCodes.target, target),
            eq(verificationCodes.action, action),
            isNull(verificationCodes.consumedAt),
          ),
        );
    },
    /** Counts one wrong use of a code; answers its attempts so far. */
    async countCodeAttempt(id: number): Promise<number> {
      const [row] = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(eq(verificationCodes.id, id))
        .returning({ attempts: verificationCodes.attempts });
      return row?.attempts ?? 0;
    },
    /** Marks a code used; false when it was already consumed (a concurrent use). */
    async consumeCode(id: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ consumedAt: at })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length > 0;
    },
  };
}

/** Sessions: issued, rotated and revoked. */
function sessionQueries(db: Database) {
  return {
    // sessions
    async insertSession(values: {
      userId: number;
      currentJti: string;
      createdAt: Date;
    }): Promise<SessionRow> {
      const [row] = await db
        .insert(sessions)
        .values({ ...values, lastUsedAt: values.createdAt })
        .returning();
      return row!;
    },
    async findSession(id: number): Promise<SessionRow | undefined> {
      return firstOrUndefined(await db.select().from(sessions).where(eq(sessions.id, id)).limit(1));
    },
    /** Moves a live session from one token id to the next; false when `fromJti` is no longer current. */
    async rotateSession(id: number, fromJti: string, toJti: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ currentJti: toJti, lastUsedAt: at })
        .where(
          and(eq(sessions.id, id), eq(sessions.currentJti, fromJti), isNull(sessions.revokedAt)),
        )
        .returning({ id: sessions.id });
      return rows.length > 0;
    },
    async revokeSession(id: number, at: Date, reason: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
    },
    /** Ends every session of the user: its access and refresh tokens stop working. */
    async revokeAllSessions(userId: number, at: Date, reason: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },
    async revokeOtherSessions(
      userId: number,
      keepSessionId: number,
      at: Date,
      reason: string,
    ): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(
          and(
            eq(sessions.userId, userId),
            ne(sessions.id, keepSessionId),
            isNull(sessions.revokedAt),
          ),
        );
    },
  };
}

export function createAuthRepository(db: Database) {
  return {
    ...userQueries(db),
    ...attemptQueries(db),
    ...codeQueries(db),
    ...sessionQueries(db),
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
