import {
  type PublishedStrategy,
  SQUARE_ERROR_CODES,
  SQUARE_MESSAGES,
  SQUARE_PERIOD_HOURS,
  SQUARE_PERIODS,
  type SquarePeriod,
  type StrategyCard,
  type StrategyDetail,
  type StrategyListQuery,
  type StrategyListResponse,
  type StrategyLiveCheck,
  type StrategyPositionList,
  type StrategyTradeList,
} from '@quantsquare/contracts';
import { mergeEquitySeries } from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import { decimalText } from '../../common/decimal-text.js';
import { Forbidden, NotFound } from '../../common/errors.js';
import type { StrategyPositionRow } from '../../db/schema/index.js';
import type { EventPayloads } from '../../events/index.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import { AnswerCache } from '../trading/answer-cache.js';
import type { ListFilter, ListingRepository } from './listing.repository.js';
import { cardOf, periodMetricsOf, positionsOf, tradeOf } from './square.mappers.js';

/** Counts and stats change with the hourly metrics: served from memory for this long. */
export const SQUARE_AGGREGATE_TTL_MS = 10_000;
/**
 * A square page is the same for every viewer: its JSON bytes are served for this long (and until
 * this process writes new figures or settings), so other processes' writes show within it.
 */
export const SQUARE_LIST_TTL_MS = 2_000;
const LIST_CACHE_MAX_ENTRIES = 1_000;
const AGGREGATE_CACHE_MAX_KEYS = 2_000;
const HOUR_MS = 3_600_000;
const MARKERS_MAX = 500;
type PositionChange = EventPayloads['PositionChanged'];

/** Remembers a few thousand answers for a short time (counts and stats of the square). */
function ttlCache<T>(ttlMs: number, now: () => number) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  const get = (key: string, load: () => Promise<T>): Promise<T> => {
    const hit = entries.get(key);
    const at = now();
    if (hit && at - hit.at < ttlMs) return hit.value;
    if (entries.size >= AGGREGATE_CACHE_MAX_KEYS) entries.clear();
    const value = load();
    entries.set(key, { at, value });
    value.catch(() => entries.delete(key));
    return value;
  };
  return Object.assign(get, { clear: () => entries.clear() });
}

/** Viewer-specific facts the detail adds (social and copy trading answer them). */
export interface ViewerFacts {
  isFollowing(viewerId: number, userId: number): Promise<boolean>;
  isCopying(viewerId: number, accountId: number): Promise<boolean>;
}

/** The square's public reads. A strategy that is not public is "not found" for everyone. */
/** What the square's listing works with. */
export interface ListingServiceDeps {
  repo: ListingRepository;
  clock: Clock;
  prices: PriceSource;
  viewer: ViewerFacts;
  /** The account's bots live against their backtests (the bots module's hourly comparisons). */
  liveChecks?: (accountId: number) => Promise<StrategyLiveCheck | null>;
  /** The account's bots' strategies, with their rules when `withRules` (the bots module). */
  strategiesOf?: (accountId: number, withRules: boolean) => Promise<PublishedStrategy[]>;
}

/** The strategy when public; 404 'strategy not found or not public' otherwise. */
async function publicStrategy(repo: ListingRepository, accountId: number) {
  const row = await repo.strategy(accountId);
  if (!row?.settings.isPublic)
    throw new NotFound(SQUARE_MESSAGES.strategyNotFound, SQUARE_ERROR_CODES.strategyNotFound);
  return row;
}

/** One public strategy: its detail and equity. */
function strategyReads(deps: ListingServiceDeps) {
  const { repo } = deps;

  /**
   * The period's equity: the hourly snapshots (the last of each day for the whole history) and
   * the wallet marks taken after fills since, so the curve follows trades between the hours.
   */
  async function equityCurve(accountId: number, period: SquarePeriod, nowMs: number) {
    const hours = SQUARE_PERIOD_HOURS[period];
    const snapshots =
      hours === null
        ? await repo.equityDaily(accountId)
        : await repo.equitySince(accountId, nowMs - hours * HOUR_MS);
    // The whole history is daily: only the marks after its last point join it.
    const marksFromMs =
      hours === null
        ? snapshots.reduce((max, r) => Math.max(max, r.takenAt.getTime()), 0)
        : nowMs - hours * HOUR_MS;
    const marks = await repo.marksSince(accountId, marksFromMs);
    const toSample = (r: { takenAt: Date; equity: string }) => ({
      timeMs: r.takenAt.getTime(),
      equity: r.equity,
    });
    // Whole seconds on the chart, oldest first: one point per second, the snapshot's.
    const curve: { time: number; value: number }[] = [];
    for (const p of mergeEquitySeries(snapshots.map(toSample), marks.map(toSample))) {
      const time = Math.floor(p.timeMs / 1000);
      if (curve.at(-1)?.time !== time) curve.push({ time, value: Number(p.equity) });
    }
    return curve;
  }

  async function detail(
    accountId: number,
    viewerId: number | undefined,
    period: SquarePeriod,
  ): Promise<StrategyDetail> {
    const { settings, account, nickname, avatarUrl, followersCount } = await publicStrategy(
      repo,
      accountId,
    );
    const nowMs = deps.clock.now().getTime();
    const hours = SQUARE_PERIOD_HOURS[period];
    const sinceMs = hours === null ? 0 : nowMs - hours * HOUR_MS;
    const [metricRows, curve, markers, isFollowing, isCopying, liveCheck, strategies] =
      await Promise.all([
        repo.metricsOf(accountId),
        equityCurve(accountId, period, nowMs),
        settings.showTrades ? repo.tradeMarkers(accountId, sinceMs, MARKERS_MAX) : [],
        viewerId === undefined || viewerId === settings.userId
          ? false
          : deps.viewer.isFollowing(viewerId, settings.userId),
        viewerId === undefined ? false : deps.viewer.isCopying(viewerId, accountId),
        deps.liveChecks ? deps.liveChecks(accountId) : null,
        // Everyone, the owner too, sees what the settings show (the owner previews the page).
        deps.strategiesOf ? deps.strategiesOf(accountId, settings.showRules) : [],
      ]);
    const byPeriod = new Map(metricRows.map((m) => [m.period, m]));
    const total = byPeriod.get('total');
    return {
      id: account.id,
      name: settings.name,
      exchange: account.exchange,
      account: account.id,
      account_type: account.accountType,
      is_paper: account.isPaper,
      user_id: settings.userId,
      user_profile: {
        user_id: settings.userId,
        nickname,
        avatar_url: avatarUrl,
        followers_count: Number(followersCount),
        is_following: isFollowing,
      },
      share_settings: {
        is_public: settings.isPublic,
        accept_copy: settings.acceptCopy,
        show_trades: settings.showTrades,
        show_positions: settings.showPositions,
        allow_comments: settings.allowComments,
        show_rules: settings.showRules,
        copiers_count: settings.copiersCount,
        description: settings.description,
      },
      total_pnl_percent: periodMetricsOf(total).return_percent,
      daily_pnl_percent: periodMetricsOf(byPeriod.get('daily')).return_percent,
      max_drawdown: periodMetricsOf(total).max_drawdown,
      balance: decimalText(total?.balance ?? 0),
      metrics: Object.fromEntries(
        SQUARE_PERIODS.map((p) => [p, periodMetricsOf(byPeriod.get(p))]),
      ) as StrategyDetail['metrics'],
      days_of_history: total?.daysOfHistory ?? 0,
      is_new: total?.isNew ?? true,
      equity_curve: curve,
      trades: markers.map((m) => ({
        timestamp: m.filledAt.toISOString(),
        type: m.side,
        effect: m.realizedPnl === null ? ('open' as const) : ('close' as const),
      })),
      is_copying: isCopying,
      is_owner: viewerId === settings.userId,
      published_at: settings.publishedAt?.toISOString() ?? null,
      metrics_updated_at: total?.computedAt.toISOString() ?? null,
      live_vs_backtest: liveCheck,
      strategies,
    };
  }

  return { detail };
}

/** One public strategy's trades and positions (marked at the feed's prices). */
function strategyActivity(deps: ListingServiceDeps) {
  const { repo } = deps;

  async function trades(accountId: number, limit: number): Promise<StrategyTradeList> {
    const { settings } = await publicStrategy(repo, accountId);
    if (!settings.showTrades)
      throw new Forbidden(SQUARE_MESSAGES.tradesHidden, SQUARE_ERROR_CODES.tradesHidden);
    const [rows, total] = await Promise.all([
      repo.recentTrades(accountId, limit),
      repo.tradeCount(accountId),
    ]);
    return { results: rows.map(tradeOf), count: total };
  }

  /**
   * Current positions marked at the market feed's last price (null when none is known). An
   * owner's newer change (a PositionChanged the read model may not have applied yet) replaces
   * that owner's stored row.
   */
  async function currentPositions(accountId: number, change?: PositionChange) {
    const { account } = await publicStrategy(repo, accountId);
    const stored = await repo.openPositions(accountId);
    const isChanged = (r: StrategyPositionRow) =>
      change !== undefined &&
      r.symbol === change.symbol &&
      r.ownerKind === change.owner.kind &&
      r.ownerId === change.owner.id;
    const rows = stored.filter((r) => !isChanged(r));
    if (change && change.size !== 0) {
      rows.push({
        accountId,
        symbol: change.symbol,
        ownerKind: change.owner.kind,
        ownerId: change.owner.id,
        size: String(change.size),
        entryPrice: String(change.entryPrice ?? 0),
        lastEntryPrice: null,
        updatedAtMs: change.changedAtMs,
      });
    }
    const marks = new Map<string, number>();
    await Promise.all(
      [...new Set(rows.map((r) => r.symbol))].map(async (symbol) => {
        try {
          marks.set(symbol, await deps.prices.lastPrice(account.exchange, symbol));
        } catch {
          // no price: the page falls back to the entry price
        }
      }),
    );
    return positionsOf(rows, account.defaultLeverage, marks);
  }

  async function positions(accountId: number): Promise<StrategyPositionList> {
    const { settings } = await publicStrategy(repo, accountId);
    if (!settings.showPositions)
      throw new Forbidden(SQUARE_MESSAGES.positionsHidden, SQUARE_ERROR_CODES.positionsHidden);
    const results = await currentPositions(accountId);
    return { results, count: results.length };
  }

  return { trades, positions, currentPositions };
}

export function createListingService(deps: ListingServiceDeps) {
  const { repo } = deps;
  const cached = ttlCache<unknown>(SQUARE_AGGREGATE_TTL_MS, () => Date.now());
  const pages = new AnswerCache(LIST_CACHE_MAX_ENTRIES);
  let localVersion = 0;

  const reads = { ...strategyReads(deps), ...strategyActivity(deps) };

  async function list(query: StrategyListQuery): Promise<StrategyListResponse> {
    const filter: ListFilter = {
      period: query.period,
      exchange: query.exchange,
      search: query.search || undefined,
      userSearch: query.user_search || undefined,
      honest: query.honest === 'true',
    };
    const offset = (query.page - 1) * query.page_size;
    const statsKey = `stats|${filter.period}|${filter.exchange ?? ''}`;
    // The stats describe the whole square; the honest filter, like a text, needs its own count.
    const isNarrowed =
      filter.search !== undefined || filter.userSearch !== undefined || filter.honest === true;
    const [rows, stats] = await Promise.all([
      repo.page(filter, query.sort, query.page_size, offset),
      cached(statsKey, () => repo.stats(filter.period, filter.exchange)) as ReturnType<
        typeof repo.stats
      >,
    ]);
    // Without a narrowing filter the count is the stats' total (same filter), else one count query.
    const total = isNarrowed
      ? ((await cached(
          `count|${filter.period}|${filter.exchange ?? ''}|${filter.search ?? ''}|${filter.userSearch ?? ''}|${filter.honest ? 'h' : ''}`,
          () => repo.count(filter),
        )) as number)
      : stats.total;
    return {
      results: rows.map(cardOf),
      count: total,
      page: query.page,
      page_size: query.page_size,
      stats: {
        total: stats.total,
        active: stats.active,
        copiers: stats.copiers,
        avg_return: Math.round(stats.avgReturn * 10_000) / 10_000,
      },
    };
  }

  async function userStrategies(userId: number, period: SquarePeriod): Promise<StrategyCard[]> {
    const rows = await repo.page({ period, userId }, 'latest', 200, 0);
    return rows.map(cardOf);
  }

  /** The list's JSON bytes, built once per query and data version. */
  async function listJson(query: StrategyListQuery): Promise<Buffer> {
    const key = [
      query.page,
      query.page_size,
      query.exchange ?? '',
      query.sort,
      query.period,
      query.search ?? '',
      query.user_search ?? '',
      query.honest ?? '',
    ].join('|');
    const version = `${localVersion}:${Math.floor(Date.now() / SQUARE_LIST_TTL_MS)}`;
    const hit = pages.get(key, version);
    if (hit) return hit;
    const json = Buffer.from(JSON.stringify(await list(query)));
    pages.set(key, version, json);
    return json;
  }

  return {
    ...reads,
    publicStrategy: (accountId: number) => publicStrategy(repo, accountId),
    list,
    listJson,
    userStrategies,
    /** Forgets cached counts and stats (this process wrote new figures or settings). */
    invalidateAggregates: () => {
      cached.clear();
      localVersion++;
    },
  };
}
export type ListingService = ReturnType<typeof createListingService>;
