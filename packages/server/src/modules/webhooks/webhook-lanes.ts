import { accountLane, webhookLease } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import { webhookConfigs } from '../../db/schema/index.js';

/** Every webhook configuration's lease and its lane: the exchange account it trades on. */
export async function webhookLanes(db: Database): Promise<[string, string][]> {
  const rows = await db
    .select({ id: webhookConfigs.id, accountId: webhookConfigs.exchangeAccountId })
    .from(webhookConfigs);
  return rows.map((row) => [webhookLease(row.id), accountLane(row.accountId)]);
}
