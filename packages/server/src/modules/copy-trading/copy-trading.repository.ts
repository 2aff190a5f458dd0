import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { anyOf, tuplesIn } from '../../db/batch-sql.js';
import type { Database } from '../../db/database.js';
import {
  type CopyRelationRow,
  copyRelations,
  type ExchangeAccountRow,
  exchangeAccounts,
  executionPositions,
  type NewCopyRelationRow,
  strategyShareSettings,
  users,
} from '../../db/schema/index.js';
import { receiptQueries } from './copy-receipts.queries.js';
import type { RelationFigureColumns } from './copy-trading.mappers.js';

/** A relation with the names its answers show. */
export interface RelationView {
  readonly relation: CopyRelationRow;
  readonly leaderAccount: Pick<ExchangeAccountRow, 'id' | 'name' | 'exchange'>;
  readonly followerAccount: Pick<ExchangeAccountRow, 'id' | 'name' | 'exchange'>;
  readonly followerEmail: string | null;
  readonly followerPhone: string | null;
  readonly followerNickname: string;
  /** The leader as the square shows it: nickname and avatar. */
  readonly leaderNickname: string;
  readonly leaderAvatarUrl: string | null;
  /** The name the leader published the account under; null if never shared. */
  readonly strategyName: string | null;
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

/** Relations with their accounts, people and strategy names, as the lists show them. */
async function relationViews(db: Database, where: ReturnType<typeof and>): Promise<RelationView[]> {
  const rows = await db
    .select({
      relation: copyRelations,
      followerEmail: users.email,
      followerPhone: users.phone,
      followerNickname: users.nickname,
    })
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
  const leaderIds = [...new Set(rows.map((r) => r.relation.leaderUserId))];
  const leaders = new Map(
    (
      await db
        .select({ id: users.id, nickname: users.nickname, avatarUrl: users.avatarUrl })
        .from(users)
        .where(inArray(users.id, leaderIds))
    ).map((u) => [u.id, u]),
  );
  const leaderAccountIds = [...new Set(rows.map((r) => r.relation.leaderAccountId))];
  const strategyNames = new Map(
    (
      await db
        .select({ accountId: strategyShareSettings.accountId, name: strategyShareSettings.name })
        .from(strategyShareSettings)
        .where(inArray(strategyShareSettings.accountId, leaderAccountIds))
    ).map((s) => [s.accountId, s.name]),
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
    followerPhone: r.followerPhone,
    followerNickname: r.followerNickname,
    leaderNickname: leaders.get(r.relation.leaderUserId)?.nickname ?? '',
    leaderAvatarUrl: leaders.get(r.relation.leaderUserId)?.avatarUrl ?? null,
    strategyName: strategyNames.get(r.relation.leaderAccountId) ?? null,
  }));
}

/** The position books the copy engine reads: leaders' nets and relations' own rows. */
function bookQueries(db: Database) {
  /** `leaderBook` of several accounts in one query. */
  async function leaderBooks(
    accountIds: readonly number[],
  ): Promise<Map<number, LeaderSymbolState[]>> {
    const books = new Map<number, LeaderSymbolState[]>(accountIds.map((id) => [id, []]));
    if (accountIds.length === 0) return books;
    const rows = await db
      .select({
        accountId: executionPositions.accountId,
        symbol: executionPositions.symbol,
        size: sql<string>`sum(${executionPositions.size})::text`,
        weighted: sql<string>`coalesce(sum(abs(${executionPositions.size}) * ${executionPositions.entryPrice}), 0)::text`,
        gross: sql<string>`coalesce(sum(abs(${executionPositions.size})), 0)::text`,
        updatedMs: sql<string>`(extract(epoch from max(${executionPositions.updatedAt})) * 1000)::bigint::text`,
        realized: sql<string>`sum(${executionPositions.realizedPnl})::text`,
      })
      .from(executionPositions)
      .where(anyOf(executionPositions.accountId, accountIds))
      .groupBy(executionPositions.accountId, executionPositions.symbol)
      .orderBy(asc(executionPositions.symbol));
    for (const r of rows) {
      const gross = Number(r.gross);
      books.get(r.accountId)?.push({
        symbol: r.symbol,
        size: r.size,
        entryPrice: gross > 0 ? String(Number(r.weighted) / gross) : '0',
        version: `${r.updatedMs}|${Number(r.size)}|${Number(r.realized)}`,
      });
    }
    return books;
  }

  /** `copyBook` of several relations in one query, by relation id. */
  async function copyBooks(
    relations: readonly { relationId: number; followerAccountId: number }[],
  ): Promise<Map<number, CopyBookRow[]>> {
    const books = new Map<number, CopyBookRow[]>(relations.map((r) => [r.relationId, []]));
    if (relations.length === 0) return books;
    const rows = await db
      .select({
        relationId: executionPositions.ownerId,
        symbol: executionPositions.symbol,
        size: sql<string>`${executionPositions.size}::text`,
        entryPrice: sql<string>`${executionPositions.entryPrice}::text`,
        entryFee: sql<string>`${executionPositions.entryFee}::text`,
        realizedPnl: sql<string>`${executionPositions.realizedPnl}::text`,
      })
      .from(executionPositions)
      .where(
        and(
          eq(executionPositions.ownerKind, 'copy'),
          tuplesIn(
            [executionPositions.accountId, executionPositions.ownerId],
            relations.map((r) => [r.followerAccountId, r.relationId]),
          ),
        ),
      )
      .orderBy(asc(executionPositions.symbol));
    for (const { relationId, ...row } of rows) books.get(relationId)?.push(row);
    return books;
  }
  return {
    leaderBooks,
    copyBooks,
    /** The relation's own book rows (its copied positions, flat ones included). */
    async copyBook(relationId: number, followerAccountId: number): Promise<CopyBookRow[]> {
      return (await copyBooks([{ relationId, followerAccountId }])).get(relationId) ?? [];
    },
  };
}

/** One relation: its account, creation, lookups and the views of a user's relations. */
function relationRows(db: Database) {
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
            ne(copyRelations.status, 'stopped'),
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
      const [row] = await relationViews(
        db,
        and(eq(copyRelations.id, id), isNull(copyRelations.deletedAt)),
      );
      return row;
    },

    following: (userId: number) =>
      relationViews(
        db,
        and(eq(copyRelations.followerUserId, userId), isNull(copyRelations.deletedAt)),
      ),

    followers: (userId: number) =>
      relationViews(
        db,
        and(eq(copyRelations.leaderUserId, userId), isNull(copyRelations.deletedAt)),
      ),
  };
}

/** A relation's changes and its figures. */
function relationChanges(db: Database) {
  return {
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

    /** Whether the user copies the leader account (running or paused) from any of their accounts. */
    async isCopying(userId: number, leaderAccountId: number): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(copyRelations)
        .where(
          and(
            eq(copyRelations.followerUserId, userId),
            eq(copyRelations.leaderAccountId, leaderAccountId),
            isNull(copyRelations.deletedAt),
            ne(copyRelations.status, 'stopped'),
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
          copyMode: copyRelations.copyMode,
          totalProfitLoss: copyRelations.totalProfitLoss,
          leaderEquityStart: copyRelations.leaderEquityStart,
          leaderEquityLast: copyRelations.leaderEquityLast,
        })
        .from(copyRelations)
        .where(
          and(
            anyOf(copyRelations.leaderAccountId, leaderAccountIds),
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
  };
}

/** Relations by leader, status, account and id: what the engine and the sweeps work on. */
function relationLists(db: Database) {
  return {
    /** Relations copying any of these leader accounts, in the given statuses. */
    async relationsOfLeaders(
      leaderAccountIds: readonly number[],
      statuses: readonly CopyRelationRow['status'][],
    ): Promise<CopyRelationRow[]> {
      if (leaderAccountIds.length === 0) return [];
      return db
        .select()
        .from(copyRelations)
        .where(
          and(
            anyOf(copyRelations.leaderAccountId, leaderAccountIds),
            isNull(copyRelations.deletedAt),
            inArray(copyRelations.status, [...statuses]),
          ),
        )
        .orderBy(asc(copyRelations.id));
    },

    /** Stopped relations that still hold a copied position (their closes are to be retried). */
    async stoppedWithOpenPositions(): Promise<CopyRelationRow[]> {
      return db
        .select()
        .from(copyRelations)
        .where(
          and(
            eq(copyRelations.status, 'stopped'),
            isNull(copyRelations.deletedAt),
            sql`exists (select 1 from ${executionPositions} where ${executionPositions.ownerKind} = 'copy' and ${executionPositions.ownerId} = ${copyRelations.id} and ${executionPositions.accountId} = ${copyRelations.followerAccountId} and ${executionPositions.size} <> 0)`,
          ),
        )
        .orderBy(asc(copyRelations.id));
    },

    /** Relations not deleted that copy with the account or copy it, oldest first. */
    async relationsOnAccount(accountId: number): Promise<CopyRelationRow[]> {
      return db
        .select()
        .from(copyRelations)
        .where(
          and(
            isNull(copyRelations.deletedAt),
            or(
              eq(copyRelations.followerAccountId, accountId),
              eq(copyRelations.leaderAccountId, accountId),
            ),
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

    /**
     * Relations out of step with their follower account: running on a disabled account, or
     * paused by the platform for it (`account_disabled`) on an account enabled again.
     */
    async relationsOutOfStepWithAccount(): Promise<CopyRelationRow[]> {
      const rows = await db
        .select({ relation: copyRelations })
        .from(copyRelations)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, copyRelations.followerAccountId))
        .where(
          and(
            isNull(copyRelations.deletedAt),
            or(
              and(eq(copyRelations.status, 'active'), eq(exchangeAccounts.isActive, false)),
              and(
                eq(copyRelations.status, 'paused'),
                eq(copyRelations.pauseReason, 'account_disabled'),
                eq(exchangeAccounts.isActive, true),
              ),
            ),
          ),
        )
        .orderBy(asc(copyRelations.id));
      return rows.map((r) => r.relation);
    },

    /** Relations by id (deleted ones left out). */
    async relationsByIds(ids: readonly number[]): Promise<CopyRelationRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(copyRelations)
        .where(and(anyOf(copyRelations.id, ids), isNull(copyRelations.deletedAt)));
    },
  };
}

/** Copy relations and receipts (the copy-trading module's own tables); reads of the book. */
export function copyTradingQueries(db: Database) {
  return {
    ...receiptQueries(db),
    ...bookQueries(db),
    ...relationRows(db),
    ...relationChanges(db),
    ...relationLists(db),
  };
}
export type CopyTradingQueries = ReturnType<typeof copyTradingQueries>;
