import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { anyOf, tuplesIn, unnestRows } from '../db/batch-sql.js';
import type { Database } from '../db/database.js';
import {
  accountRisks,
  type ExchangeAccountRow,
  type ExecutionPositionRow,
  exchangeAccounts,
  executionPositions,
} from '../db/schema/index.js';
import type { OrderOwner } from '../events/event-bus.types.js';
import type { SymbolKey } from './execution.repository.js';
import type { PositionRef } from './execution.types.js';

// The execution core's queries on accounts, their risk settings and the position books.

type PositionValues = Omit<typeof executionPositions.$inferInsert, 'id'>;

export const positionColumns = [
  executionPositions.accountId,
  executionPositions.symbol,
  executionPositions.ownerKind,
  executionPositions.ownerId,
];
export const positionTuple = (ref: PositionRef) => [
  ref.accountId,
  ref.symbol,
  ref.owner.kind,
  ref.owner.id,
];

/** Accounts and their risk settings. */
function accountQueries(db: Database) {
  return {
    async accounts(ids: readonly number[]): Promise<ExchangeAccountRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(exchangeAccounts)
        .where(anyOf(exchangeAccounts.id, [...new Set(ids)]));
    },

    /**
     * The risk gate's view of an account (written by the risk module; read here before every
     * intent): null when the account has no risk settings.
     */
    async riskOf(accountId: number) {
      const [row] = await db
        .select({
          state: accountRisks.state,
          maxOrderNotional: accountRisks.maxOrderNotional,
          maxOpenNotional: accountRisks.maxOpenNotional,
        })
        .from(accountRisks)
        .where(eq(accountRisks.accountId, accountId));
      return row ?? null;
    },

    /** `riskOf` for many accounts in one statement (the intents a fan-out writes together). */
    async risksOf(accountIds: readonly number[]) {
      if (accountIds.length === 0) return [];
      return db
        .select({
          accountId: accountRisks.accountId,
          state: accountRisks.state,
          maxOrderNotional: accountRisks.maxOrderNotional,
          maxOpenNotional: accountRisks.maxOpenNotional,
        })
        .from(accountRisks)
        .where(anyOf(accountRisks.accountId, [...new Set(accountIds)]));
    },
  };
}

/** The position book: read, locked, written, and its protective orders. */
function bookQueries(db: Database) {
  return {
    /** Every owner's position on these (account, symbol) pairs. */
    async positionsOn(keys: readonly SymbolKey[]): Promise<ExecutionPositionRow[]> {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(executionPositions)
        .where(
          tuplesIn(
            [executionPositions.accountId, executionPositions.symbol],
            keys.map((k) => [k.accountId, k.symbol]),
          ),
        );
    },

    async positionOf(ref: PositionRef): Promise<ExecutionPositionRow | undefined> {
      const [row] = await db
        .select()
        .from(executionPositions)
        .where(tuplesIn(positionColumns, [positionTuple(ref)]));
      return row;
    },

    /** Open (non-flat) positions of these owners. */
    async openPositionsOf(owners: readonly OrderOwner[]): Promise<ExecutionPositionRow[]> {
      if (owners.length === 0) return [];
      return db
        .select()
        .from(executionPositions)
        .where(
          and(
            tuplesIn(
              [executionPositions.ownerKind, executionPositions.ownerId],
              owners.map((o) => [o.kind, o.id]),
            ),
            ne(executionPositions.size, '0'),
          ),
        )
        .orderBy(asc(executionPositions.id));
    },

    /** Open positions of every owner on these accounts. */
    async openPositionsOnAccounts(accountIds: readonly number[]): Promise<ExecutionPositionRow[]> {
      if (accountIds.length === 0) return [];
      return db
        .select()
        .from(executionPositions)
        .where(
          and(
            inArray(executionPositions.accountId, [...new Set(accountIds)]),
            ne(executionPositions.size, '0'),
          ),
        );
    },

    async accountsWithOpenPositions(): Promise<number[]> {
      const rows = await db
        .selectDistinct({ accountId: executionPositions.accountId })
        .from(executionPositions)
        .where(ne(executionPositions.size, '0'));
      return rows.map((row) => row.accountId);
    },

    /** Positions locked for a settlement (FOR UPDATE). */
    async lockPositions(refs: readonly PositionRef[]): Promise<ExecutionPositionRow[]> {
      if (refs.length === 0) return [];
      return db
        .select()
        .from(executionPositions)
        .where(tuplesIn(positionColumns, refs.map(positionTuple)))
        .for('update');
    },

    async upsertPositions(rows: readonly PositionValues[]): Promise<ExecutionPositionRow[]> {
      if (rows.length === 0) return [];
      const excluded = (column: string) => sql.raw(`excluded.${column}`);
      return db
        .insert(executionPositions)
        .select(unnestRows(executionPositions, rows))
        .onConflictDoUpdate({
          target: [
            executionPositions.accountId,
            executionPositions.symbol,
            executionPositions.ownerKind,
            executionPositions.ownerId,
          ],
          set: {
            size: excluded('size'),
            entryPrice: excluded('entry_price'),
            entryFee: excluded('entry_fee'),
            realizedPnl: excluded('realized_pnl'),
            openedAt: excluded('opened_at'),
            stopLoss: excluded('stop_loss'),
            takeProfit: excluded('take_profit'),
            stopLossOrderId: excluded('stop_loss_order_id'),
            takeProfitOrderId: excluded('take_profit_order_id'),
            updatedAt: excluded('updated_at'),
          },
        })
        .returning();
    },

    async setProtective(
      ref: PositionRef,
      values: Pick<
        PositionValues,
        'stopLoss' | 'takeProfit' | 'stopLossOrderId' | 'takeProfitOrderId' | 'updatedAt'
      >,
    ): Promise<ExecutionPositionRow | undefined> {
      const [row] = await db
        .update(executionPositions)
        .set(values)
        .where(tuplesIn(positionColumns, [positionTuple(ref)]))
        .returning();
      return row;
    },
  };
}

export function positionQueries(db: Database) {
  return {
    ...accountQueries(db),
    ...bookQueries(db),
  };
}
