import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { type UserRow, users } from '../../db/schema/index.js';

/** The users' columns other modules change (profile, VIP, secret rotation), bound to `db`. */
export function createUserRecordsRepository(db: Database) {
  return {
    /** Sets profile fields (nickname, bio, avatar); answers the updated row. */
    async setProfile(
      userId: number,
      values: { nickname?: string; bio?: string; avatarUrl?: string | null },
    ): Promise<UserRow[]> {
      return db.update(users).set(values).where(eq(users.id, userId)).returning();
    },

    /** Sets VIP active until `expiresAt` (the purchase's transaction holds the user's lock). */
    async setVip(userId: number, expiresAt: Date): Promise<void> {
      await db
        .update(users)
        .set({ isVip: true, vipExpiresAt: expiresAt })
        .where(eq(users.id, userId));
    },

    /** Replaces the user's invitation code; false when another user holds that code. */
    async setInvitationCode(userId: number, code: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ invitationCode: code })
        .where(
          and(
            eq(users.id, userId),
            sql`not exists (select 1 from ${users} other where other.invitation_code = ${code})`,
          ),
        )
        .returning({ id: users.id })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) return [];
          throw error;
        });
      return rows.length > 0;
    },

    /** Replaces a stored 2FA secret with its new stored form (the secret-key rotation). */
    async setStoredSecret(
      userId: number,
      field: 'totpSecret' | 'totpPendingSecret',
      stored: string,
    ): Promise<void> {
      await db
        .update(users)
        .set({ [field]: stored })
        .where(eq(users.id, userId));
    },
  };
}
export type UserRecordsRepository = ReturnType<typeof createUserRecordsRepository>;
