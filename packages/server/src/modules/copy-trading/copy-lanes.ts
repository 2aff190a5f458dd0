import { isNull } from 'drizzle-orm';
import { accountLane, copyLease } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import { copyRelations } from '../../db/schema/index.js';

/** Every copy relation's lease and its lane: the follower's exchange account. */
export async function copyLanes(db: Database): Promise<[string, string][]> {
  const rows = await db
    .select({ id: copyRelations.id, accountId: copyRelations.followerAccountId })
    .from(copyRelations)
    .where(isNull(copyRelations.deletedAt));
  return rows.map((row) => [copyLease(row.id), accountLane(row.accountId)]);
}
