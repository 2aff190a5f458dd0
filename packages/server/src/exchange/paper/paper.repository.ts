import { and, asc, eq, gte, inArray, ne } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  exchangeAccounts,
  type PaperFillRow,
  type PaperOrderRow,
  type PaperPositionRow,
  paperFills,
  paperLeverages,
  paperOrders,
  paperPositions,
} from '../../db/schema/index.js';
import type { PaperBalanceWriter } from './paper-balances.js';

export interface PaperAccountState {
  readonly positionMode: 'hedge' | 'net';
  readonly defaultLeverage: number;
  /** Wallet balance (decimal string). */
  readonly paperBalance: string;
}

export type NewPaperOrder = typeof paperOrders.$inferInsert;
export type NewPaperFill = typeof paperFills.$inferInsert;

/** The paper account's balance, positions and leverage. */
function paperHoldings(db: Database, accountId: number, paperBalances: PaperBalanceWriter) {
  return {
    async account(): Promise<PaperAccountState | undefined> {
      const [row] = await db
        .select({
          positionMode: exchangeAccounts.positionMode,
          defaultLeverage: exchangeAccounts.defaultLeverage,
          paperBalance: exchangeAccounts.paperBalance,
        })
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.id, accountId));
      return row ? { ...row, paperBalance: row.paperBalance ?? '0' } : undefined;
    },
    async setBalance(paperBalance: string, now: Date): Promise<void> {
      await paperBalances(db, [{ accountId, paperBalance, at: now }]);
    },
    async positions(symbol?: string): Promise<PaperPositionRow[]> {
      const where = symbol
        ? and(eq(paperPositions.accountId, accountId), eq(paperPositions.symbol, symbol))
        : eq(paperPositions.accountId, accountId);
      return db
        .select()
        .from(paperPositions)
        .where(where)
        .orderBy(asc(paperPositions.symbol), asc(paperPositions.side));
    },
    async savePosition(values: {
      symbol: string;
      side: 'long' | 'short';
      amount: string;
      entryPrice: string;
      leverage: number;
      updatedAt: Date;
    }): Promise<void> {
      await db
        .insert(paperPositions)
        .values({ accountId, ...values })
        .onConflictDoUpdate({
          target: [paperPositions.accountId, paperPositions.symbol, paperPositions.side],
          set: {
            amount: values.amount,
            entryPrice: values.entryPrice,
            leverage: values.leverage,
            updatedAt: values.updatedAt,
          },
        });
    },
    async deletePosition(symbol: string, side: 'long' | 'short'): Promise<void> {
      await db
        .delete(paperPositions)
        .where(
          and(
            eq(paperPositions.accountId, accountId),
            eq(paperPositions.symbol, symbol),
            eq(paperPositions.side, side),
          ),
        );
    },
    async leverage(symbol: string): Promise<number | undefined> {
      const [row] = await db
        .select({ leverage: paperLeverages.leverage })
        .from(paperLeverages)
        .where(and(eq(paperLeverages.accountId, accountId), eq(paperLeverages.symbol, symbol)));
      return row?.leverage;
    },
  };
}

/** Paper orders and their fills. */
function paperOrderQueries(db: Database, accountId: number) {
  return {
    async orderByClientId(clientOrderId: string): Promise<PaperOrderRow | undefined> {
      const [row] = await db
        .select()
        .from(paperOrders)
        .where(
          and(eq(paperOrders.accountId, accountId), eq(paperOrders.clientOrderId, clientOrderId)),
        );
      return row;
    },
    async orderById(id: number): Promise<PaperOrderRow | undefined> {
      const [row] = await db
        .select()
        .from(paperOrders)
        .where(and(eq(paperOrders.accountId, accountId), eq(paperOrders.id, id)));
      return row;
    },
    /** Inserts the order; undefined when its client order id was used already. */
    async insertOrder(
      values: Omit<NewPaperOrder, 'accountId'>,
    ): Promise<PaperOrderRow | undefined> {
      const [row] = await db
        .insert(paperOrders)
        .values({ accountId, ...values })
        .onConflictDoNothing()
        .returning();
      return row;
    },
    /** Open orders that rest (trigger and limit orders), oldest first. */
    async restingOrders(symbol?: string): Promise<PaperOrderRow[]> {
      const conditions = [
        eq(paperOrders.accountId, accountId),
        eq(paperOrders.status, 'open'),
        ne(paperOrders.type, 'market'),
      ];
      if (symbol) conditions.push(eq(paperOrders.symbol, symbol));
      return db
        .select()
        .from(paperOrders)
        .where(and(...conditions))
        .orderBy(asc(paperOrders.id));
    },
    /** A resting order's outcome when the feed reached it (or when it could not fill). */
    async settleOrder(
      id: number,
      values: Pick<NewPaperOrder, 'status' | 'filled' | 'averagePrice' | 'fee' | 'filledAt'>,
    ): Promise<PaperOrderRow | undefined> {
      const [row] = await db
        .update(paperOrders)
        .set(values)
        .where(and(eq(paperOrders.accountId, accountId), eq(paperOrders.id, id)))
        .returning();
      return row;
    },
    async setCheckedUntil(ids: readonly number[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(paperOrders)
        .set({ checkedUntil: at })
        .where(and(eq(paperOrders.accountId, accountId), inArray(paperOrders.id, [...ids])));
    },
    async setOrderStatus(id: number, status: PaperOrderRow['status']): Promise<void> {
      await db
        .update(paperOrders)
        .set({ status })
        .where(and(eq(paperOrders.accountId, accountId), eq(paperOrders.id, id)));
    },
    async insertFill(values: Omit<NewPaperFill, 'accountId'>): Promise<void> {
      await db.insert(paperFills).values({ accountId, ...values });
    },
    async fills(symbol: string, since: Date | undefined): Promise<PaperFillRow[]> {
      const conditions = [eq(paperFills.accountId, accountId), eq(paperFills.symbol, symbol)];
      if (since) conditions.push(gte(paperFills.createdAt, since));
      return db
        .select()
        .from(paperFills)
        .where(and(...conditions))
        .orderBy(asc(paperFills.createdAt), asc(paperFills.id));
    },
  };
}

/** The paper exchange's tables, all keyed by account. */
function paperQueries(db: Database, accountId: number, paperBalances: PaperBalanceWriter) {
  return {
    ...paperHoldings(db, accountId, paperBalances),
    ...paperOrderQueries(db, accountId),
  };
}
export type PaperQueries = ReturnType<typeof paperQueries>;

export function createPaperRepository(
  db: Database,
  accountId: number,
  paperBalances: PaperBalanceWriter,
) {
  return {
    ...paperQueries(db, accountId, paperBalances),
    /** Runs `work` in one transaction holding the account row lock (one order at a time). */
    async withAccountLock<T>(
      work: (repo: PaperQueries, account: PaperAccountState) => Promise<T>,
    ): Promise<T> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({
            positionMode: exchangeAccounts.positionMode,
            defaultLeverage: exchangeAccounts.defaultLeverage,
            paperBalance: exchangeAccounts.paperBalance,
          })
          .from(exchangeAccounts)
          .where(eq(exchangeAccounts.id, accountId))
          .for('update');
        if (!row) throw new Error(`Paper account ${accountId} does not exist`);
        return work(paperQueries(tx, accountId, paperBalances), {
          ...row,
          paperBalance: row.paperBalance ?? '0',
        });
      });
    },
  };
}
export type PaperRepository = ReturnType<typeof createPaperRepository>;
