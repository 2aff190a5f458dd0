import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type CopyReceiptRow,
  type CopyRelationRow,
  copyReceipts,
  copyRelations,
  type ExchangeAccountRow,
  exchangeAccounts,
  executionPositions,
  type NewCopyReceiptRow,
  type NewCopyRelationRow,
  users,
} from '../../db/schema/index.js';
import type { RelationFigureColumns } from './copy-trading.mappers.js';

/** A relation with the names its answers show. */
export interface RelationView {
  readonly relation: CopyRelationRow;
  readonly leaderAccount: Pick<ExchangeAccountRow, 'id' | 'name' | 'exchange'>;
  readonly followerAccount: Pick<ExchangeAccountRow, 'id' | 'name' | 'exchange'>;
  readonly followerEmail: string | null;
}

/** The leader's net position on one symbol as the execution book holds it (all owners). */
export interface LeaderSymbolState {
  readonly symbol: string;
  /** Signed sum of every owner's size. */
  readonly size: string;
  /** Size-weighted entry of the open owners (0 when flat). */
  readonly entryPrice: string;
  /** The book's version of this symbol: changes with every fill on it. */
  readonly version: string;
}

/** One of a relation's own positions (the copy owner's book rows, flat ones included). */
export interface CopyBookRow {
  readonly symbol: string;
  readonly size: string;
  readonly entryPrice: string;
  readonly entryFee: string;
  readonly realizedPnl: string;
}

/** Copy relations and receipts (the copy-trading module's own tables); reads of the book. */
export function copyTradingQueries(db: Database) {
  async function views(where: ReturnType<typeof and>): Promise<RelationView[]> {
    const rows = await db
      .select({ relation: copyRelations, followerEmail: users.email })
      .from(copyRelations)
      .innerJoin(users, eq(users.id, copyRelations.followerUserId))
      .where(where)
      .orderBy(desc(copyRelations.createdAt), desc(copyRelations.id));
    if (rows.length === 0) return [];
    const ids = [
      ...new Set(rows.flatMap((r) => [r.relation.leaderAccountId, r.relation.followerAccountId])),
    ];
    const accounts = new Map(
      (
        await db
          .select({
            id: exchangeAccounts.id,
            name: exchangeAccounts.name,
            exchange: exchangeAccounts.exchange,
          })
          .from(exchangeAccounts)
          .where(inArray(exchangeAccounts.id, ids))
      ).map((a) => [a.id, a]),
    );
    return rows.map((r) => ({
      relation: r.relation,
      leaderAccount: accounts.get(r.relation.leaderAccountId) ?? {
        id: r.relation.leaderAccountId,
        name: '',
        exchange: 'binance',
      },
      followerAccount: accounts.get(r.relation.followerAccountId) ?? {
        id: r.relation.followerAccountId,
        name: '',
        exchange: 'binance',
      },
      followerEmail: r.followerEmail,
    }));
  }

  return {
    async account(accountId: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.id, accountId));
      return row;
    },

    /** Inserts a relation; undefined when a live one exists for (follower account, leader). */
    async insertRelation(values: NewCopyRelationRow): Promise<CopyRelationRow | undefined> {
      const [row] = await db.insert(copyRelations).values(values).onConflictDoNothing().returning();
      return row;
    },

    async liveRelationOf(
      followerAccountId: number,
      leaderAccountId: number,
    ): Promise<CopyRelationRow | undefined> {
      const [row] = await db
        .select()
        .from(copyRelations)
        .where(
          and(
            eq(copyRelations.followerAccountId, followerAccountId),
            eq(copyRelations.leaderAccountId, leaderAccountId),
            isNull(copyRelations.deletedAt),
          ),
        );
      return row;
    },

    async relation(id: number): Promise<CopyRelationRow | undefined> {
      const [row] = await db
        .select()
        .from(copyRelations)
        .where(and(eq(copyRelations.id, id), isNull(copyRelations.deletedAt)));
      return row;
    },

    /** The relation, locked for the rest of the transaction. */
    async lockRelation(id: number): Promise<CopyRelationRow | undefined> {
      const [row] = await db
        .select()
        .from(copyRelations)
        .where(and(eq(copyRelations.id, id), isNull(copyRelations.deletedAt)))
        .for('update');
      return row;
    },

    async view(id: number): Promise<RelationView | undefined> {
      const [row] = await views(and(eq(copyRelations.id, id), isNull(copyRelations.deletedAt)));
      return row;
    },

    following: (userId: number) =>
      views(and(eq(copyRelations.followerUserId, userId), isNull(copyRelations.deletedAt))),

    followers: (userId: number) =>
      views(and(eq(copyRelations.leaderUserId, userId), isNull(copyRelations.deletedAt))),

    /** Fees the leader earned from every relation ever created (deleted ones included). */
    async feesEarned(userId: number): Promise<string> {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${copyRelations.feePaid}), 0)::text` })
        .from(copyRelations)
        .where(eq(copyRelations.leaderUserId, userId));
      return row?.total ?? '0';
    },

    async update(
      id: number,
      values: Partial<Omit<CopyRelationRow, 'id'>>,
    ): Promise<CopyRelationRow | undefined> {
      const [row] = await db
        .update(copyRelations)
        .set(values)
        .where(eq(copyRelations.id, id))
        .returning();
      return row;
    },

    /** Moves the status only from one of `from` (a concurrent change wins, this answers undefined). */
    async transition(
      id: number,
      from: readonly CopyRelationRow['status'][],
      values: Partial<Omit<CopyRelationRow, 'id'>>,
    ): Promise<CopyRelationRow | undefined> {
      const [row] = await db
        .update(copyRelations)
        .set(values)
        .where(
          and(
            eq(copyRelations.id, id),
            isNull(copyRelations.deletedAt),
            inArray(copyRelations.status, [...from]),
          ),
        )
        .returning();
      return row;
    },

    /** Whether the user copies the leader account from any of their accounts (not deleted). */
    async isCopying(userId: number, leaderAccountId: number): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(copyRelations)
        .where(
          and(
            eq(copyRelations.followerUserId, userId),
            eq(copyRelations.leaderAccountId, leaderAccountId),
            isNull(copyRelations.deletedAt),
          ),
        );
      return (row?.n ?? 0) > 0;
    },

    /**
     * The figure columns of every relation not deleted (any status) copying one of the leader
     * accounts, grouped by leader account (a leader without one is absent).
     */
    async copyFiguresByLeader(
      leaderAccountIds: readonly number[],
    ): Promise<Map<number, RelationFigureColumns[]>> {
      const groups = new Map<number, RelationFigureColumns[]>();
      if (leaderAccountIds.length === 0) return groups;
      const rows = await db
        .select({
          leaderAccountId: copyRelations.leaderAccountId,
          copyAmount: copyRelations.copyAmount,
          totalProfitLoss: copyRelations.totalProfitLoss,
          leaderEquityStart: copyRelations.leaderEquityStart,
          leaderEquityLast: copyRelations.leaderEquityLast,
        })
        .from(copyRelations)
        .where(
          and(
            inArray(copyRelations.leaderAccountId, [...leaderAccountIds]),
            isNull(copyRelations.deletedAt),
          ),
        )
        .orderBy(asc(copyRelations.id));
      for (const { leaderAccountId, ...figures } of rows) {
        const group = groups.get(leaderAccountId) ?? [];
        group.push(figures);
        groups.set(leaderAccountId, group);
      }
      return groups;
    },

    /** Active (or paused) relations copying a leader account. */
    async relationsOfLeader(
      leaderAccountId: number,
      statuses: readonly CopyRelationRow['status'][] = ['active'],
    ): Promise<CopyRelationRow[]> {
      return db
        .select()
        .from(copyRelations)
        .where(
          and(
            eq(copyRelations.leaderAccountId, leaderAccountId),
            isNull(copyRelations.deletedAt),
            inArray(copyRelations.status, [...statuses]),
          ),
        )
        .orderBy(asc(copyRelations.id));
    },

    async relationsByStatus(
      statuses: readonly CopyRelationRow['status'][],
    ): Promise<CopyRelationRow[]> {
      return db
        .select()
        .from(copyRelations)
        .where(and(isNull(copyRelations.deletedAt), inArray(copyRelations.status, [...statuses])))
        .orderBy(asc(copyRelations.id));
    },

    /** The leader account's net position per symbol (every owner), with the book's version. */
    async leaderBook(leaderAccountId: number): Promise<LeaderSymbolState[]> {
      const rows = await db
        .select({
          symbol: executionPositions.symbol,
          size: sql<string>`sum(${executionPositions.size})::text`,
          weighted: sql<string>`coalesce(sum(abs(${executionPositions.size}) * ${executionPositions.entryPrice}), 0)::text`,
          gross: sql<string>`coalesce(sum(abs(${executionPositions.size})), 0)::text`,
          updatedMs: sql<string>`(extract(epoch from max(${executionPositions.updatedAt})) * 1000)::bigint::text`,
          realized: sql<string>`sum(${executionPositions.realizedPnl})::text`,
        })
        .from(executionPositions)
        .where(eq(executionPositions.accountId, leaderAccountId))
        .groupBy(executionPositions.symbol);
      return rows.map((r) => {
        const gross = Number(r.gross);
        return {
          symbol: r.symbol,
          size: r.size,
          entryPrice: gross > 0 ? String(Number(r.weighted) / gross) : '0',
          version: `${r.updatedMs}|${Number(r.size)}|${Number(r.realized)}`,
        };
      });
    },

    /** The relation's own book rows (its copied positions, flat ones included). */
    async copyBook(relationId: number, followerAccountId: number): Promise<CopyBookRow[]> {
      return db
        .select({
          symbol: executionPositions.symbol,
          size: sql<string>`${executionPositions.size}::text`,
          entryPrice: sql<string>`${executionPositions.entryPrice}::text`,
          entryFee: sql<string>`${executionPositions.entryFee}::text`,
          realizedPnl: sql<string>`${executionPositions.realizedPnl}::text`,
        })
        .from(executionPositions)
        .where(
          and(
            eq(executionPositions.accountId, followerAccountId),
            eq(executionPositions.ownerKind, 'copy'),
            eq(executionPositions.ownerId, relationId),
          ),
        )
        .orderBy(asc(executionPositions.symbol));
    },

    async receipt(relationId: number, changeKey: string): Promise<CopyReceiptRow | undefined> {
      const [row] = await db
        .select()
        .from(copyReceipts)
        .where(and(eq(copyReceipts.relationId, relationId), eq(copyReceipts.changeKey, changeKey)));
      return row;
    },

    /** Writes the receipt of a change (one per relation and change; a retry overwrites it). */
    async saveReceipt(values: NewCopyReceiptRow): Promise<CopyReceiptRow> {
      const [row] = await db
        .insert(copyReceipts)
        .values(values)
        .onConflictDoUpdate({
          target: [copyReceipts.relationId, copyReceipts.changeKey],
          set: {
            targetSize: values.targetSize,
            followerSizeDelta: values.followerSizeDelta ?? null,
            followerPrice: values.followerPrice ?? null,
            slippageBps: values.slippageBps ?? null,
            delayMs: values.delayMs ?? null,
            status: values.status,
            missReason: values.missReason ?? null,
            errorKind: values.errorKind ?? null,
            attempts: values.attempts ?? 1,
            relationPnl: values.relationPnl ?? null,
            updatedAt: values.updatedAt,
          },
        })
        .returning();
      if (!row) throw new Error('copy receipt was not written');
      return row;
    },

    async receipts(relationId: number, limit = 200): Promise<CopyReceiptRow[]> {
      return db
        .select()
        .from(copyReceipts)
        .where(eq(copyReceipts.relationId, relationId))
        .orderBy(desc(copyReceipts.createdAt), desc(copyReceipts.id))
        .limit(limit);
    },

    /** Receipts whose latest try missed (the timer retries the retryable ones). */
    async missedReceipts(relationId: number): Promise<CopyReceiptRow[]> {
      return db
        .select()
        .from(copyReceipts)
        .where(and(eq(copyReceipts.relationId, relationId), eq(copyReceipts.status, 'missed')))
        .orderBy(desc(copyReceipts.id));
    },

    async copiedCount(relationId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(copyReceipts)
        .where(
          and(
            eq(copyReceipts.relationId, relationId),
            eq(copyReceipts.status, 'copied'),
            sql`${copyReceipts.followerSizeDelta} <> 0`,
          ),
        );
      return row?.n ?? 0;
    },
  };
}
export type CopyTradingQueries = ReturnType<typeof copyTradingQueries>;
