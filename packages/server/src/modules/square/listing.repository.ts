import type { Exchange, SquarePeriod, SquareSort } from '@quantsquare/contracts';
import { and, asc, count, desc, eq, gt, ilike, ne, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  balanceSnapshots,
  exchangeAccounts,
  strategyMetrics,
  strategyPositions,
  strategyShareSettings,
  strategyTrades,
  userFollows,
  users,
} from '../../db/schema/index.js';

export interface ListFilter {
  readonly period: SquarePeriod;
  readonly exchange?: Exchange;
  /** Substring of the strategy name (case-insensitive). */
  readonly search?: string;
  /** Substring of the owner's nickname (case-insensitive). */
  readonly userSearch?: string;
  /** Only this owner's strategies. */
  readonly userId?: number;
}

/** `%` and `_` typed by a user are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Every ORDER BY matches one of strategy_metrics' partial indexes column for column.
const ORDER: Record<SquareSort, SQL[]> = {
  copiers: [sql`${strategyMetrics.copiersCount} desc nulls last`],
  pnl: [sql`${strategyMetrics.returnPercent} desc nulls last`],
  latest: [sql`${strategyMetrics.publishedAt} desc nulls last`],
  win_rate: [sql`${strategyMetrics.rankWinRate} desc nulls last`],
  sharpe_ratio: [sql`${strategyMetrics.rankSharpe} desc nulls last`],
};
const TIE_BREAK = sql`${strategyMetrics.accountId} desc nulls last`;

const followersOf = (userId: SQL | typeof strategyMetrics.userId) =>
  sql<number>`(select count(*)::int from ${userFollows} where ${userFollows.followeeId} = ${userId})`;

/** The square's reads: cards, detail, equity, trades and positions of public strategies. */
export function createListingRepository(db: Database) {
  function where(filter: ListFilter): SQL | undefined {
    return and(
      eq(strategyMetrics.period, filter.period),
      eq(strategyMetrics.isPublic, true),
      filter.exchange ? eq(strategyMetrics.exchange, filter.exchange) : undefined,
      filter.search ? ilike(strategyMetrics.name, likePattern(filter.search)) : undefined,
      filter.userSearch ? ilike(users.nickname, likePattern(filter.userSearch)) : undefined,
      filter.userId !== undefined ? eq(strategyMetrics.userId, filter.userId) : undefined,
    );
  }

  const cardQuery = () =>
    db
      .select({
        metrics: strategyMetrics,
        accountType: exchangeAccounts.accountType,
        isPaper: exchangeAccounts.isPaper,
        acceptCopy: strategyShareSettings.acceptCopy,
        nickname: users.nickname,
        avatarUrl: users.avatarUrl,
        followersCount: followersOf(strategyMetrics.userId),
      })
      .from(strategyMetrics)
      .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, strategyMetrics.accountId))
      .innerJoin(
        strategyShareSettings,
        eq(strategyShareSettings.accountId, strategyMetrics.accountId),
      )
      .innerJoin(users, eq(users.id, strategyMetrics.userId));

  return {
    /** One page of cards: one query walking the sort's partial index. */
    async page(filter: ListFilter, sort: SquareSort, limit: number, offset: number) {
      return cardQuery()
        .where(where(filter))
        .orderBy(...ORDER[sort], TIE_BREAK)
        .limit(limit)
        .offset(offset);
    },
    async count(filter: ListFilter): Promise<number> {
      const query = db.select({ n: count() }).from(strategyMetrics);
      const [row] = await (filter.userSearch
        ? query.innerJoin(users, eq(users.id, strategyMetrics.userId))
        : query
      ).where(where(filter));
      return row?.n ?? 0;
    },
    async stats(period: SquarePeriod, exchange: Exchange | undefined) {
      const [row] = await db
        .select({
          total: count(),
          active: sql<number>`count(*) filter (where ${strategyMetrics.tradesCount} > 0)::int`,
          copiers: sql<number>`coalesce(sum(${strategyMetrics.copiersCount}), 0)::int`,
          avgReturn: sql<number>`coalesce(avg(${strategyMetrics.returnPercent}), 0)::float8`,
        })
        .from(strategyMetrics)
        .where(where({ period, exchange }));
      return {
        total: row?.total ?? 0,
        active: Number(row?.active ?? 0),
        copiers: Number(row?.copiers ?? 0),
        avgReturn: Number(row?.avgReturn ?? 0),
      };
    },
    /** A strategy's settings, account and owner; undefined when it was never shared. */
    async strategy(accountId: number) {
      const [row] = await db
        .select({
          settings: strategyShareSettings,
          account: exchangeAccounts,
          nickname: users.nickname,
          avatarUrl: users.avatarUrl,
          followersCount: followersOf(sql`${strategyShareSettings.userId}`),
        })
        .from(strategyShareSettings)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, strategyShareSettings.accountId))
        .innerJoin(users, eq(users.id, strategyShareSettings.userId))
        .where(eq(strategyShareSettings.accountId, accountId));
      return row;
    },
    async metricsOf(accountId: number) {
      return db.select().from(strategyMetrics).where(eq(strategyMetrics.accountId, accountId));
    },
    /** Hourly equity since `sinceMs`, oldest first. */
    async equitySince(accountId: number, sinceMs: number) {
      return db
        .select({ takenAt: balanceSnapshots.takenAt, equity: balanceSnapshots.equity })
        .from(balanceSnapshots)
        .where(
          and(
            eq(balanceSnapshots.accountId, accountId),
            gt(balanceSnapshots.takenAt, new Date(sinceMs)),
          ),
        )
        .orderBy(asc(balanceSnapshots.takenAt));
    },
    /** The last snapshot of each UTC+8 day over all history, oldest first. */
    async equityDaily(accountId: number) {
      const day = sql`floor((extract(epoch from ${balanceSnapshots.takenAt}) + 28800) / 86400)`;
      const rows = await db
        .selectDistinctOn([day], {
          takenAt: balanceSnapshots.takenAt,
          equity: balanceSnapshots.equity,
        })
        .from(balanceSnapshots)
        .where(eq(balanceSnapshots.accountId, accountId))
        .orderBy(day, desc(balanceSnapshots.takenAt));
      return rows;
    },
    async tradeMarkers(accountId: number, sinceMs: number, limit: number) {
      const rows = await db
        .select({ filledAt: strategyTrades.filledAt, side: strategyTrades.side })
        .from(strategyTrades)
        .where(
          and(
            eq(strategyTrades.accountId, accountId),
            gt(strategyTrades.filledAt, new Date(sinceMs)),
          ),
        )
        .orderBy(desc(strategyTrades.filledAt), desc(strategyTrades.id))
        .limit(limit);
      return rows.reverse();
    },
    async recentTrades(accountId: number, limit: number) {
      return db
        .select()
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId))
        .orderBy(
          sql`${strategyTrades.filledAt} desc nulls last`,
          sql`${strategyTrades.id} desc nulls last`,
        )
        .limit(limit);
    },
    async tradeCount(accountId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId));
      return row?.n ?? 0;
    },
    /** Owners' open positions on the account. */
    async openPositions(accountId: number) {
      return db
        .select()
        .from(strategyPositions)
        .where(and(eq(strategyPositions.accountId, accountId), ne(strategyPositions.size, '0')))
        .orderBy(asc(strategyPositions.symbol));
    },
  };
}
export type ListingRepository = ReturnType<typeof createListingRepository>;
