import { and, asc, desc, eq, gte, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { type BalanceSnapshotRow, balanceSnapshots } from '../../db/schema/index.js';

export function createBalanceSnapshotsRepository(db: Database) {
  return {
    /** Writes a snapshot once per (account, instant): a second writer of the slot is ignored. */
    async insert(values: {
      accountId: number;
      takenAt: Date;
      equity: string;
      dailyPnl: string;
    }): Promise<boolean> {
      const rows = await db
        .insert(balanceSnapshots)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: balanceSnapshots.id });
      return rows.length > 0;
    },
    /** The first snapshot at or after `since` (the day's start equity). */
    async firstSince(accountId: number, since: Date): Promise<BalanceSnapshotRow | undefined> {
      const [row] = await db
        .select()
        .from(balanceSnapshots)
        .where(and(eq(balanceSnapshots.accountId, accountId), gte(balanceSnapshots.takenAt, since)))
        .orderBy(asc(balanceSnapshots.takenAt))
        .limit(1);
      return row;
    },
    /** The last snapshot at or before `at` and not older than `since`. */
    async lastBetween(
      accountId: number,
      since: Date,
      at: Date,
    ): Promise<BalanceSnapshotRow | undefined> {
      const [row] = await db
        .select()
        .from(balanceSnapshots)
        .where(
          and(
            eq(balanceSnapshots.accountId, accountId),
            gte(balanceSnapshots.takenAt, since),
            lte(balanceSnapshots.takenAt, at),
          ),
        )
        .orderBy(desc(balanceSnapshots.takenAt))
        .limit(1);
      return row;
    },
    /** The newest `limit` snapshots, oldest first. */
    async latest(accountId: number, limit: number): Promise<BalanceSnapshotRow[]> {
      const rows = await db
        .select()
        .from(balanceSnapshots)
        .where(eq(balanceSnapshots.accountId, accountId))
        .orderBy(desc(balanceSnapshots.takenAt))
        .limit(limit);
      return rows.reverse();
    },
  };
}
export type BalanceSnapshotsRepository = ReturnType<typeof createBalanceSnapshotsRepository>;
