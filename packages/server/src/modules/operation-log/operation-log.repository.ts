import { and, count, desc, eq, gte, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { type OperationLogRow, operationLogs } from '../../db/schema/index.js';

export type NewOperationLogRow = typeof operationLogs.$inferInsert;

export interface OperationLogFilter {
  readonly userId: number;
  readonly type?: OperationLogRow['type'];
  readonly botId?: number;
  readonly since?: Date;
}

export function createOperationLogRepository(db: Database) {
  const matching = (filter: OperationLogFilter): SQL | undefined => {
    const conditions: SQL[] = [eq(operationLogs.userId, filter.userId)];
    if (filter.type !== undefined) conditions.push(eq(operationLogs.type, filter.type));
    if (filter.botId !== undefined) conditions.push(eq(operationLogs.botId, filter.botId));
    if (filter.since !== undefined) conditions.push(gte(operationLogs.createdAt, filter.since));
    return and(...conditions);
  };

  return {
    async insert(values: NewOperationLogRow): Promise<OperationLogRow> {
      const [row] = await db.insert(operationLogs).values(values).returning();
      if (!row) throw new Error('Inserting an operation log entry returned no row');
      return row;
    },
    /** One page of a user's entries, newest first. */
    async page(
      filter: OperationLogFilter,
      paging: { offset: number; limit: number },
    ): Promise<{ rows: OperationLogRow[]; total: number }> {
      const where = matching(filter);
      const rows = await db
        .select()
        .from(operationLogs)
        .where(where)
        .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
        .offset(paging.offset)
        .limit(paging.limit);
      const [counted] = await db.select({ total: count() }).from(operationLogs).where(where);
      return { rows, total: counted?.total ?? 0 };
    },
  };
}
export type OperationLogRepository = ReturnType<typeof createOperationLogRepository>;
