import type { StaffAction, TransactionStatus } from '@quantsquare/contracts';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.js';
import {
  type StaffDecisionRow,
  staffDecisions,
  users,
  type WalletTransactionRow,
  walletTransactions,
} from '../../db/schema/index.js';

export type QueueType = 'deposit' | 'withdraw';

export interface QueueRow {
  transaction: WalletTransactionRow;
  userEmail: string | null;
  userPhone: string | null;
}

export interface DecisionRow extends StaffDecisionRow {
  staffEmail: string | null;
}

const staffUsers = alias(users, 'staff_users');

/** The staff console's reads of the wallet's requests, and its own decisions table. */
export function staffQueries(db: Database) {
  async function decisionsFor(ids: readonly number[]): Promise<Map<number, DecisionRow[]>> {
    const byTransaction = new Map<number, DecisionRow[]>();
    if (ids.length === 0) return byTransaction;
    const rows = await db
      .select({ decision: staffDecisions, staffEmail: staffUsers.email })
      .from(staffDecisions)
      .innerJoin(staffUsers, eq(staffUsers.id, staffDecisions.staffUserId))
      .where(inArray(staffDecisions.transactionId, [...ids]))
      .orderBy(asc(staffDecisions.id));
    for (const { decision, staffEmail } of rows) {
      const list = byTransaction.get(decision.transactionId) ?? [];
      list.push({ ...decision, staffEmail });
      byTransaction.set(decision.transactionId, list);
    }
    return byTransaction;
  }

  return {
    decisionsFor,

    /**
     * A queue page: open requests (pending, processing) oldest first, the way they are worked
     * through; decided ones and `all` newest first.
     */
    async queue(
      type: QueueType,
      status: TransactionStatus | 'all',
      options: { limit: number; offset: number },
    ): Promise<{ rows: QueueRow[]; count: number }> {
      const where = and(
        eq(walletTransactions.type, type),
        status === 'all' ? undefined : eq(walletTransactions.status, status),
      );
      const oldestFirst = status === 'pending' || status === 'processing';
      const [rows, total] = await Promise.all([
        db
          .select({
            transaction: walletTransactions,
            userEmail: users.email,
            userPhone: users.phone,
          })
          .from(walletTransactions)
          .innerJoin(users, eq(users.id, walletTransactions.userId))
          .where(where)
          .orderBy(oldestFirst ? asc(walletTransactions.id) : desc(walletTransactions.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ n: count() }).from(walletTransactions).where(where),
      ]);
      return { rows, count: Number(total[0]?.n ?? 0) };
    },

    async request(type: QueueType, id: number): Promise<QueueRow | undefined> {
      const rows = await db
        .select({
          transaction: walletTransactions,
          userEmail: users.email,
          userPhone: users.phone,
        })
        .from(walletTransactions)
        .innerJoin(users, eq(users.id, walletTransactions.userId))
        .where(and(eq(walletTransactions.id, id), eq(walletTransactions.type, type)));
      return rows[0];
    },

    async recordDecision(values: {
      transactionId: number;
      staffUserId: number;
      action: StaffAction;
      fromStatus: TransactionStatus;
      toStatus: TransactionStatus;
      reason: string | null;
      txHash: string | null;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(staffDecisions).values(values);
    },
  };
}
export type StaffQueries = ReturnType<typeof staffQueries>;
