import {
  type Exchange,
  HONEST_MAX_ABS_DELTA_PCT,
  HONEST_MIN_LIVE_DAYS,
  type SquarePeriod,
  type SquareSort,
} from '@quantsquare/contracts';
import { and, asc, count, desc, eq, gt, ilike, like, ne, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  balanceSnapshots,
  exchangeAccounts,
  strategyMetrics,
  strategyPositions,
  strategyShareSettings,
  strategySparklines,
  strategyTrades,
  strategyWalletMarks,
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
  /** Only honest strategies: live ≥ HONEST_MIN_LIVE_DAYS, |delta| ≤ HONEST_MAX_ABS_DELTA_PCT. */
  readonly honest?: boolean;
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
  live_delta: [sql`${strategyMetrics.liveDeltaAbs} asc nulls last`],
};

// Constants, not parameters: the same statement for every honest page.
const honestOnly = sql`${strategyMetrics.liveDays} >= ${sql.raw(String(HONEST_MIN_LIVE_DAYS))} and ${strategyMetrics.liveDeltaAbs} <= ${sql.raw(String(HONEST_MAX_ABS_DELTA_PCT))}`;
const TIE_BREAK = sql`${strategyMetrics.accountId} desc nulls last`;

const followersOf = (userId: SQL | typeof strategyMetrics.userId) =>
  sql<number>`(select count(*)::int from ${userFollows} where ${userFollows.followeeId} = ${userId})`;

// The public-rows predicate is written as the partial indexes' own (`where is_public`), never
// as a parameter, so every plan (generic ones of prepared statements too) can use them.
const isPublic = sql`${strategyMetrics.isPublic}`;

function where(filter: ListFilter): SQL | undefined {
  return and(
    eq(strategyMetrics.period, filter.period),
    isPublic,
    filter.exchange ? eq(strategyMetrics.exchange, filter.exchange) : undefined,
    filter.search
      ? like(strategyMetrics.searchName, sql`lower(${likePattern(filter.search)})`)
      : undefined,
    filter.userSearch ? ilike(users.nickname, likePattern(filter.userSearch)) : undefined,
    filter.userId !== undefined ? eq(strategyMetrics.userId, filter.userId) : undefined,
    filter.honest ? honestOnly : undefined,
  );
}

const cardColumns = {
  metrics: strategyMetrics,
  accountType: exchangeAccounts.accountType,
  isPaper: exchangeAccounts.isPaper,
  acceptCopy: strategyShareSettings.acceptCopy,
  nickname: users.nickname,
  avatarUrl: users.avatarUrl,
  followersCount: followersOf(strategyMetrics.userId),
  sparkline: strategySparklines.points,
};

/**
 * One statement per page: the page's ids come from walking the sort's partial index (no join,
 * no wide column, so deep offsets stay cheap), then only those rows are joined and read.
 * Prepared once per shape (sort and which filters are present).
 */
function preparePage(db: Database, sort: SquareSort, filter: ListFilter) {
  const p = {
    period: sql.placeholder('period'),
    exchange: sql.placeholder('exchange'),
    search: sql.placeholder('search'),
    userSearch: sql.placeholder('userSearch'),
    userId: sql.placeholder('userId'),
  };
  const conditions = and(
    eq(strategyMetrics.period, p.period),
    isPublic,
    filter.exchange ? eq(strategyMetrics.exchange, p.exchange) : undefined,
    filter.search ? like(strategyMetrics.searchName, sql`lower(${p.search})`) : undefined,
    filter.userSearch ? ilike(users.nickname, p.userSearch) : undefined,
    filter.userId !== undefined ? eq(strategyMetrics.userId, p.userId) : undefined,
    filter.honest ? honestOnly : undefined,
  );
  const ids = db.select({ id: strategyMetrics.accountId }).from(strategyMetrics).$dynamic();
  if (filter.userSearch) ids.innerJoin(users, eq(users.id, strategyMetrics.userId));
  const page = db.$with('page').as(
    ids
      .where(conditions)
      .orderBy(...ORDER[sort], TIE_BREAK)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const shape = [
    sort,
    filter.exchange ? 'e' : '',
    filter.search ? 's' : '',
    filter.userSearch ? 'n' : '',
    filter.userId !== undefined ? 'u' : '',
    filter.honest ? 'h' : '',
  ].join('');
  return db
    .with(page)
    .select(cardColumns)
    .from(page)
    .innerJoin(
      strategyMetrics,
      and(eq(strategyMetrics.accountId, page.id), eq(strategyMetrics.period, p.period)),
    )
    .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, strategyMetrics.accountId))
    .innerJoin(
      strategyShareSettings,
      eq(strategyShareSettings.accountId, strategyMetrics.accountId),
    )
    .innerJoin(users, eq(users.id, strategyMetrics.userId))
    .leftJoin(strategySparklines, eq(strategySparklines.accountId, strategyMetrics.accountId))
    .orderBy(...ORDER[sort], TIE_BREAK)
    .prepare(`square_page_${shape}`);
}

/** The square's lists: pages of cards, their count and the header's figures. */
function cardQueries(db: Database) {
  const prepared = new Map<string, ReturnType<typeof preparePage>>();

  return {
    /** One page of cards: one statement walking the sort's partial index. */
    async page(filter: ListFilter, sort: SquareSort, limit: number, offset: number) {
      const key = `${sort}|${filter.exchange ? 1 : 0}${filter.search ? 1 : 0}${filter.userSearch ? 1 : 0}${filter.userId !== undefined ? 1 : 0}${filter.honest ? 1 : 0}`;
      let query = prepared.get(key);
      if (!query) {
        query = preparePage(db, sort, filter);
        prepared.set(key, query);
      }
      return query.execute({
        period: filter.period,
        exchange: filter.exchange ?? null,
        search: filter.search ? likePattern(filter.search) : null,
        userSearch: filter.userSearch ? likePattern(filter.userSearch) : null,
        userId: filter.userId ?? null,
        limit,
        offset,
      });
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
  };
}

/** One strategy's detail: settings, metrics, equity, marks and trades. */
function strategyQueries(db: Database) {
  return {
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
    /** The wallet marks after `sinceMs` (hourly, and those taken after fills), oldest first. */
    async marksSince(accountId: number, sinceMs: number) {
      return db
        .select({ takenAt: strategyWalletMarks.takenAt, equity: strategyWalletMarks.equity })
        .from(strategyWalletMarks)
        .where(
          and(
            eq(strategyWalletMarks.accountId, accountId),
            gt(strategyWalletMarks.takenAt, new Date(sinceMs)),
          ),
        )
        .orderBy(asc(strategyWalletMarks.takenAt));
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
  };
}

/** One strategy's trades and open positions. */
function tradeQueries(db: Database) {
  return {
    async tradeMarkers(accountId: number, sinceMs: number, limit: number) {
      const rows = await db
        .select({
          filledAt: strategyTrades.filledAt,
          side: strategyTrades.side,
          realizedPnl: strategyTrades.realizedPnl,
        })
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

/** The square's reads: cards, detail, equity, trades and positions of public strategies. */
export function createListingRepository(db: Database) {
  return {
    ...cardQueries(db),
    ...strategyQueries(db),
    ...tradeQueries(db),
  };
}
export type ListingRepository = ReturnType<typeof createListingRepository>;
