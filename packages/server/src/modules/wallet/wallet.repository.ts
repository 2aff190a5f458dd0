import type { TransactionStatus, TransactionType } from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type NewWalletTransactionRow,
  type UserRow,
  users,
  type WalletTransactionRow,
  walletBalances,
  walletTransactions,
} from '../../db/schema/index.js';
import { userRecordsOn } from '../auth/user-records.service.js';

// The wallet's queries. Each takes the executor it runs on: the database, or a transaction
// (a Drizzle transaction is a database), so the ledger can run inside another module's
// transaction. Only this module writes wallet_balances.

/** A user with the coin balance it holds. */
export type HolderRow = UserRow & { platformBalance: string };

/** A user's balance as the ledger holds it under its lock. */
export interface LockedUser {
  id: number;
  balance: string;
}

/** The balance formula of check-ledger: completed credits − debits not failed. */
const ledgerBalance = sql<string>`coalesce(sum(case
  when ${walletTransactions.direction} = 'credit' and ${walletTransactions.status} = 'completed' then ${walletTransactions.amount}
  when ${walletTransactions.direction} = 'debit' and ${walletTransactions.status} <> 'failed' then -${walletTransactions.amount}
  else 0 end), 0)`;

/** A user's balance, 0 for a user without a balance row. */
const heldBalance = sql<string>`coalesce(${walletBalances.balance}, 0)::numeric(20, 8)::text`;

/** Balances (the wallet's own table), VIP and invitation codes (the users' columns auth lends). */
function balanceQueries(db: Database) {
  // VIP and the invitation code are the auth module's (the one writer of `users`); bound to `db`,
  // they change in the wallet's transaction with the ledger rows.
  const userRecords = userRecordsOn(db);
  return {
    setVip: userRecords.setVip,
    setInvitationCode: userRecords.setInvitationCode,

    /**
     * Adds `delta` (negative debits) unless the balance would go below zero; answers the new one.
     * A credit makes the user's row if it has none; a debit of a user without one is refused.
     */
    async addToBalance(userId: number, delta: string): Promise<string | undefined> {
      const rows = new Decimal(delta).isNegative()
        ? await db
            .update(walletBalances)
            .set({ balance: sql`${walletBalances.balance} + ${delta}::numeric` })
            .where(
              and(
                eq(walletBalances.userId, userId),
                sql`${walletBalances.balance} + ${delta}::numeric >= 0`,
              ),
            )
            .returning({ balance: walletBalances.balance })
        : await db
            .insert(walletBalances)
            .values({ userId, balance: delta })
            .onConflictDoUpdate({
              target: walletBalances.userId,
              set: { balance: sql`${walletBalances.balance} + excluded.balance` },
            })
            .returning({ balance: walletBalances.balance });
      return rows[0]?.balance;
    },

    /**
     * Locks the users' balance rows in ascending id order (every ledger operation does, so two
     * operations never wait on each other in a cycle), making those a user lacks, and answers
     * the balances of the users that exist.
     */
    async lockUsers(ids: readonly number[]): Promise<Map<number, LockedUser>> {
      const unique = [...new Set(ids)].sort((a, b) => a - b);
      if (unique.length === 0) return new Map();
      await db
        .insert(walletBalances)
        .select(
          db
            .select({ userId: users.id, balance: sql<string>`0`.as('balance') })
            .from(users)
            .where(inArray(users.id, unique))
            .orderBy(asc(users.id)),
        )
        .onConflictDoNothing();
      const rows = await db
        .select({ id: walletBalances.userId, balance: walletBalances.balance })
        .from(walletBalances)
        .where(inArray(walletBalances.userId, unique))
        .orderBy(asc(walletBalances.userId))
        .for('update');
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** The user's balance; undefined when there is no such user. */
    async balanceOf(userId: number): Promise<string | undefined> {
      const rows = await db
        .select({ balance: heldBalance })
        .from(users)
        .leftJoin(walletBalances, eq(walletBalances.userId, users.id))
        .where(eq(users.id, userId));
      return rows[0]?.balance;
    },
  };
}

/** Ledger rows: written by business key, moved between states, listed. */
function ledgerRows(db: Database) {
  return {
    /** Inserts a ledger row; undefined when its business key exists (the unique index decides). */
    async insert(values: NewWalletTransactionRow): Promise<WalletTransactionRow | undefined> {
      const rows = await db
        .insert(walletTransactions)
        .values(values)
        .onConflictDoNothing({ target: walletTransactions.businessKey })
        .returning();
      return rows[0];
    },

    /** Removes a row this transaction inserted (a debit the balance could not pay). */
    async deleteRow(id: number): Promise<void> {
      await db.delete(walletTransactions).where(eq(walletTransactions.id, id));
    },

    async findByKey(businessKey: string): Promise<WalletTransactionRow | undefined> {
      const rows = await db
        .select()
        .from(walletTransactions)
        .where(eq(walletTransactions.businessKey, businessKey));
      return rows[0];
    },

    async findById(id: number): Promise<WalletTransactionRow | undefined> {
      const rows = await db.select().from(walletTransactions).where(eq(walletTransactions.id, id));
      return rows[0];
    },

    /** Moves a row from one of `from` to `to`; undefined when it is in none of them any more. */
    async transition(
      id: number,
      from: readonly TransactionStatus[],
      to: TransactionStatus,
      set: { txHash?: string; note?: string },
      now: Date,
    ): Promise<WalletTransactionRow | undefined> {
      const rows = await db
        .update(walletTransactions)
        .set({ status: to, updatedAt: now, ...set })
        .where(and(eq(walletTransactions.id, id), inArray(walletTransactions.status, [...from])))
        .returning();
      return rows[0];
    },

    /** How many of the user's rows of this type wait for review (pending or processing). */
    async countOpen(userId: number, type: TransactionType): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(walletTransactions)
        .where(
          and(
            eq(walletTransactions.userId, userId),
            eq(walletTransactions.type, type),
            inArray(walletTransactions.status, ['pending', 'processing']),
          ),
        );
      return Number(row?.n ?? 0);
    },

    /** A user's rows, latest first. */
    async listForUser(
      userId: number,
      options: { type?: TransactionType; limit: number; offset: number },
    ): Promise<{ rows: WalletTransactionRow[]; count: number }> {
      const where = and(
        eq(walletTransactions.userId, userId),
        options.type ? eq(walletTransactions.type, options.type) : undefined,
      );
      const [rows, total] = await Promise.all([
        db
          .select()
          .from(walletTransactions)
          .where(where)
          .orderBy(desc(walletTransactions.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ n: count() }).from(walletTransactions).where(where),
      ]);
      return { rows, count: Number(total[0]?.n ?? 0) };
    },

    /** Whether the user has bought VIP before (a purchase row not failed). */
    async hasBoughtVip(userId: number): Promise<boolean> {
      const rows = await db
        .select({ id: walletTransactions.id })
        .from(walletTransactions)
        .where(
          and(
            eq(walletTransactions.userId, userId),
            eq(walletTransactions.type, 'vip_purchase'),
            sql`${walletTransactions.status} <> 'failed'`,
          ),
        )
        .limit(1);
      return rows.length > 0;
    },
  };
}

/** A user's referrals and their bonuses. */
function referralQueries(db: Database) {
  return {
    /** The user with the coin balance it holds. */
    async findUser(userId: number): Promise<HolderRow | undefined> {
      const rows = await db
        .select({ ...getTableColumns(users), platformBalance: heldBalance })
        .from(users)
        .leftJoin(walletBalances, eq(walletBalances.userId, users.id))
        .where(eq(users.id, userId));
      return rows[0];
    },

    /** The inviter's referrals, newest first, with their VIP state. */
    async referrals(
      inviterId: number,
      options: { limit: number; offset: number },
    ): Promise<{
      rows: {
        id: number;
        email: string | null;
        phone: string | null;
        dateJoined: Date;
        isVip: boolean;
        vipExpiresAt: Date | null;
      }[];
      count: number;
    }> {
      const where = eq(users.invitedById, inviterId);
      const [rows, total] = await Promise.all([
        db
          .select({
            id: users.id,
            email: users.email,
            phone: users.phone,
            dateJoined: users.dateJoined,
            isVip: users.isVip,
            vipExpiresAt: users.vipExpiresAt,
          })
          .from(users)
          .where(where)
          .orderBy(desc(users.id))
          .limit(options.limit)
          .offset(options.offset),
        db.select({ n: count() }).from(users).where(where),
      ]);
      return { rows, count: Number(total[0]?.n ?? 0) };
    },

    /** Referral counts: all, and those whose VIP is active at `now`. */
    async referralCounts(inviterId: number, now: Date): Promise<{ total: number; vip: number }> {
      const [row] = await db
        .select({
          total: count(),
          vip: sql<string>`count(*) filter (where ${users.isVip} and ${users.vipExpiresAt} > ${now})`,
        })
        .from(users)
        .where(eq(users.invitedById, inviterId));
      return { total: Number(row?.total ?? 0), vip: Number(row?.vip ?? 0) };
    },

    /** Sums of the user's referral bonuses by state: credited, and not yet credited. */
    async referralBonusSums(userId: number): Promise<{ credited: string; pending: string }> {
      const [row] = await db
        .select({
          credited: sql<string>`coalesce(sum(${walletTransactions.amount}) filter (where ${walletTransactions.status} = 'completed'), 0)`,
          pending: sql<string>`coalesce(sum(${walletTransactions.amount}) filter (where ${walletTransactions.status} in ('pending', 'processing')), 0)`,
        })
        .from(walletTransactions)
        .where(
          and(eq(walletTransactions.userId, userId), eq(walletTransactions.type, 'referral_bonus')),
        );
      return { credited: row?.credited ?? '0', pending: row?.pending ?? '0' };
    },
  };
}

/** check-ledger: balances against the ledger's sums. */
function ledgerChecks(db: Database) {
  return {
    /**
     * Users whose stored balance differs from their ledger: balance = completed credits −
     * debits that are pending, processing or completed. Answers at most `limit` of them.
     */
    async ledgerMismatches(limit: number): Promise<
      {
        userId: number;
        email: string | null;
        username: string;
        balance: string;
        ledger: string;
      }[]
    > {
      const sums = db
        .select({ userId: walletTransactions.userId, ledger: ledgerBalance.as('ledger') })
        .from(walletTransactions)
        .groupBy(walletTransactions.userId)
        .as('sums');
      const ledger = sql<string>`coalesce(${sums.ledger}, 0)`;
      return db
        .select({
          userId: users.id,
          email: users.email,
          username: users.username,
          balance: heldBalance,
          ledger,
        })
        .from(users)
        .leftJoin(walletBalances, eq(walletBalances.userId, users.id))
        .leftJoin(sums, eq(sums.userId, users.id))
        .where(sql`coalesce(${walletBalances.balance}, 0) <> ${ledger}`)
        .orderBy(asc(users.id))
        .limit(limit);
    },

    /** How many users and ledger rows check-ledger looked at. */
    async ledgerSize(): Promise<{ users: number; rows: number }> {
      const [u] = await db.select({ n: count() }).from(users);
      const [t] = await db.select({ n: count() }).from(walletTransactions);
      return { users: Number(u?.n ?? 0), rows: Number(t?.n ?? 0) };
    },
  };
}

export function walletQueries(db: Database) {
  return {
    ...balanceQueries(db),
    ...ledgerRows(db),
    ...referralQueries(db),
    ...ledgerChecks(db),
  };
}
export type WalletQueries = ReturnType<typeof walletQueries>;
