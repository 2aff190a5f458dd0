import { accountLane, botLease } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import { bots } from '../../db/schema/index.js';

/** Every bot's lease and its lane: the exchange account it trades on (see common/cluster.ts). */
export async function botLanes(db: Database): Promise<[string, string][]> {
  const rows = await db.select({ id: bots.id, accountId: bots.exchangeAccountId }).from(bots);
  return rows.map((row) => [botLease(row.id), accountLane(row.accountId)]);
}
