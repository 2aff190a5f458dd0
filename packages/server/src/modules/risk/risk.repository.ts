import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type AccountRiskRow,
  accountRisks,
  type ExchangeAccountRow,
  exchangeAccounts,
} from '../../db/schema/index.js';

// The only file of the risk module that touches the database; the only writer of account_risks.

export type RiskValues = Partial<Omit<AccountRiskRow, 'accountId' | 'userId'>>;

export function createRiskRepository(db: Database) {
  return {
    /** The user's own exchange account (undefined: none, or another user's). */
    async ownedAccount(userId: number, accountId: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeAccounts)
        .where(and(eq(exchangeAccounts.id, accountId), eq(exchangeAccounts.userId, userId)));
      return row;
    },

    async account(accountId: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.id, accountId));
      return row;
    },

    async find(accountId: number): Promise<AccountRiskRow | undefined> {
      const [row] = await db
        .select()
        .from(accountRisks)
        .where(eq(accountRisks.accountId, accountId));
      return row;
    },

    /** Locks the account's row for a change (creating it, active, when there is none). */
    async lockOrCreate(accountId: number, userId: number, now: Date): Promise<AccountRiskRow> {
      await db
        .insert(accountRisks)
        .values({ accountId, userId, since: now, updatedAt: now })
        .onConflictDoNothing({ target: accountRisks.accountId });
      const [row] = await db
        .select()
        .from(accountRisks)
        .where(eq(accountRisks.accountId, accountId))
        .for('update');
      return row as AccountRiskRow;
    },

    async update(accountId: number, values: RiskValues): Promise<AccountRiskRow> {
      const [row] = await db
        .update(accountRisks)
        .set(values)
        .where(eq(accountRisks.accountId, accountId))
        .returning();
      return row as AccountRiskRow;
    },

    /** Accounts whose equity the monitor watches: a loss limit set, or closing on a breach. */
    async watched(): Promise<AccountRiskRow[]> {
      return db
        .select()
        .from(accountRisks)
        .where(
          or(
            and(
              eq(accountRisks.state, 'active'),
              or(
                isNotNull(accountRisks.dailyLossLimitPct),
                isNotNull(accountRisks.trailingDrawdownPct),
              ),
            ),
            inArray(accountRisks.state, ['reducing']),
          ),
        );
    },
  };
}
export type RiskRepository = ReturnType<typeof createRiskRepository>;
