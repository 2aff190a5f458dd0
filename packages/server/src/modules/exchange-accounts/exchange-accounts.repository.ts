import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type ExchangeAccountRow,
  exchangeAccounts,
  type NewExchangeAccountRow,
} from '../../db/schema/index.js';

export type ExchangeAccountChanges = Partial<
  Omit<NewExchangeAccountRow, 'id' | 'userId' | 'createdAt'>
>;

export function createExchangeAccountsRepository(db: Database) {
  const owned = (userId: number, id: number) =>
    and(eq(exchangeAccounts.userId, userId), eq(exchangeAccounts.id, id));

  return {
    async listForUser(userId: number): Promise<ExchangeAccountRow[]> {
      return db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.userId, userId))
        .orderBy(asc(exchangeAccounts.id));
    },
    /** The account if `userId` owns it; another user's account reads as missing. */
    async findOwned(userId: number, id: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db.select().from(exchangeAccounts).where(owned(userId, id));
      return row;
    },
    async listActive(): Promise<ExchangeAccountRow[]> {
      return db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.isActive, true))
        .orderBy(asc(exchangeAccounts.id));
    },
    async insert(values: NewExchangeAccountRow): Promise<ExchangeAccountRow> {
      const [row] = await db.insert(exchangeAccounts).values(values).returning();
      if (!row) throw new Error('Inserting an exchange account returned no row');
      return row;
    },
    async updateOwned(
      userId: number,
      id: number,
      changes: ExchangeAccountChanges,
    ): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .update(exchangeAccounts)
        .set(changes)
        .where(owned(userId, id))
        .returning();
      return row;
    },
    async deleteOwned(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(exchangeAccounts)
        .where(owned(userId, id))
        .returning({ id: exchangeAccounts.id });
      return rows.length > 0;
    },
    async setLastError(id: number, lastError: string | null, now: Date): Promise<void> {
      await db
        .update(exchangeAccounts)
        .set({ lastError, updatedAt: now })
        .where(eq(exchangeAccounts.id, id));
    },
  };
}
export type ExchangeAccountsRepository = ReturnType<typeof createExchangeAccountsRepository>;
