import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { type UserRow, users } from '../../db/schema/index.js';
import { userRecordsOn } from '../auth/user-records.service.js';

export type AvatarChange =
  /** Leave the avatar as it is. */
  | { kind: 'keep' }
  /** Keep it, but only if it is still this URL (a PUT that sends the current avatar back). */
  | { kind: 'expect'; url: string }
  /** Set it (a new upload) or clear it (null). */
  | { kind: 'set'; url: string | null };

/** Profile fields of users: nickname, bio, avatar_url. */
export function profileQueries(db: Database) {
  return {
    async findUser(userId: number): Promise<UserRow | undefined> {
      const rows = await db.select().from(users).where(eq(users.id, userId));
      return rows[0];
    },

    /**
     * Updates nickname/bio and the avatar in one transaction holding the user's row. Answers the
     * updated user and the avatar it replaced, or `mismatch` when an `expect` no longer holds.
     */
    async update(
      userId: number,
      fields: { nickname?: string; bio?: string },
      avatar: AvatarChange,
    ): Promise<
      | { kind: 'updated'; user: UserRow; previousAvatar: string | null }
      | { kind: 'mismatch' }
      | { kind: 'missing' }
    > {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .select({ avatarUrl: users.avatarUrl })
          .from(users)
          .where(eq(users.id, userId))
          .for('no key update');
        if (!current) return { kind: 'missing' } as const;
        if (avatar.kind === 'expect' && avatar.url !== current.avatarUrl) {
          return { kind: 'mismatch' } as const;
        }
        const values = { ...fields, ...(avatar.kind === 'set' ? { avatarUrl: avatar.url } : {}) };
        const [user] =
          Object.keys(values).length > 0
            ? await userRecordsOn(tx).setProfile(userId, values)
            : await tx.select().from(users).where(eq(users.id, userId));
        if (!user) return { kind: 'missing' } as const;
        return { kind: 'updated', user, previousAvatar: current.avatarUrl } as const;
      });
    },
  };
}
export type ProfileQueries = ReturnType<typeof profileQueries>;
