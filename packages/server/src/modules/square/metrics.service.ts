import {
  NEW_STRATEGY_HISTORY_DAYS,
  SPARKLINE_DAYS,
  SQUARE_PERIOD_HOURS,
  SQUARE_PERIODS,
  type SquarePeriod,
} from '@quantsquare/contracts';
import {
  dailyPoints,
  daysOfHistory,
  HOUR_MS,
  inferCashFlows,
  mergeEquitySeries,
  type PeriodFigures,
  periodFigures,
} from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import type { ExchangeAccountRow, NewStrategyMetricsRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { MetricsRepository } from './metrics.repository.js';

/** Copiers' P&L (USDT) and copy efficiency of leader accounts; copy trading answers them. */
export type CopyFiguresSource = (
  accountIds: readonly number[],
) => Promise<ReadonlyMap<number, { copierPnl: number; copyEfficiency: number | null }>>;

const NO_COPY_FIGURES = { copierPnl: 0, copyEfficiency: null };

const finiteOrNull = (value: number | null) =>
  value === null || !Number.isFinite(value) ? null : value;

/**
 * Computes a shared account's square figures for every period from its hourly equity (balance
 * snapshots), the flows inferred from the wallet marks and the read model's fills, and writes
 * them (one row per period). Publishes StrategyStatisticsChanged for live viewers when public.
 * The copy figures cover each relation since it began, so every period carries the same ones.
 */
export function createMetricsService(deps: {
  repo: MetricsRepository;
  clock: Clock;
  events: EventBus;
  /** Without it (no copy trading), the copy figures are 0. */
  copyFigures?: CopyFiguresSource;
  /** Called after an account's figures were written. */
  onSaved?: (accountId: number) => void;
  /**
   * Marks the account's wallet now, before a refresh asked to (`markWallet`: after fills, on
   * publishing), so figures and curve follow fills between the hourly snapshots. Without it,
   * hourly only.
   */
  markNow?: (account: ExchangeAccountRow, at: Date) => Promise<void>;
  log?: { warn(details: object, message: string): void };
}) {
  const { repo } = deps;

  /**
   * Recomputes the account's figures. `markWallet` reads its wallet first (a refresh after fills
   * or on publishing); a refresh after an hourly snapshot has that snapshot and reads nothing.
   */
  async function refreshAccount(
    accountId: number,
    options: { markWallet?: boolean } = {},
  ): Promise<void> {
    const shared = await repo.sharedAccount(accountId);
    if (!shared) return;
    const { account, settings } = shared;
    const now = deps.clock.now();
    const nowMs = now.getTime();
    if (deps.markNow && options.markWallet) {
      // An exchange that cannot be read now leaves the figures on the marks already taken.
      await deps.markNow(account, now).catch((error: unknown) => {
        deps.log?.warn({ err: error, accountId }, 'live wallet mark failed');
      });
    }
    const [snapshots, marks, fills, copyFigures] = await Promise.all([
      repo.equitySeries(accountId),
      repo.walletMarks(accountId),
      repo.fills(accountId),
      deps.copyFigures?.([accountId]),
    ]);
    const copy = copyFigures?.get(accountId) ?? NO_COPY_FIGURES;
    // Returns, drawdown and balance follow the marks taken after fills; the annualised risk
    // ratios stay on the evenly spaced hourly snapshots.
    const points = mergeEquitySeries(
      snapshots,
      marks.map((m) => ({ timeMs: m.timeMs, equity: m.equity })),
    );
    const input = { points, riskPoints: snapshots, flows: inferCashFlows(marks), ...fills };
    const figures = Object.fromEntries(
      SQUARE_PERIODS.map((period) => {
        const hours = SQUARE_PERIOD_HOURS[period];
        return [period, periodFigures(input, nowMs, hours === null ? null : hours * HOUR_MS)];
      }),
    ) as Record<SquarePeriod, PeriodFigures>;
    const days = daysOfHistory(points, nowMs);
    const isNew = days < NEW_STRATEGY_HISTORY_DAYS;
    const balance = points.at(-1)?.equity ?? 0;
    const sparkline = dailyPoints(points, nowMs, SPARKLINE_DAYS).map((p) => ({
      timestamp: new Date(p.timeMs).toISOString(),
      balance: Number(p.equity),
    }));
    const rows: NewStrategyMetricsRow[] = SQUARE_PERIODS.map((period) => {
      const f = figures[period];
      const winRate = finiteOrNull(f.winRate);
      const sharpe = finiteOrNull(f.sharpe);
      return {
        accountId,
        period,
        userId: account.userId,
        exchange: account.exchange,
        name: settings.name,
        isPublic: settings.isPublic,
        publishedAt: settings.publishedAt,
        balance: String(balance),
        totalReturnPercent: figures.total.returnPercent,
        returnPercent: f.returnPercent,
        pnl: f.pnl,
        maxDrawdown: f.maxDrawdownPercent,
        winRate,
        sharpeRatio: sharpe,
        sortinoRatio: finiteOrNull(f.sortino),
        tradesCount: f.tradesCount,
        copiersCount: settings.copiersCount,
        copierPnl: copy.copierPnl,
        copyEfficiency: copy.copyEfficiency,
        daysOfHistory: Math.round(days * 100) / 100,
        isNew,
        rankWinRate: isNew ? null : winRate,
        rankSharpe: isNew ? null : sharpe,
        computedAt: now,
      };
    });
    await repo.saveMetrics(rows, { accountId, points: sparkline, computedAt: now });
    deps.onSaved?.(accountId);
    if (settings.isPublic) {
      await deps.events.publish('StrategyStatisticsChanged', {
        accountId,
        totalPnlPercent: figures.total.returnPercent,
        dailyPnlPercent: figures.daily.returnPercent,
        maxDrawdown: figures.total.maxDrawdownPercent,
        balance: Number(balance),
        daysOfHistory: Math.round(days * 100) / 100,
        isNew,
      });
    }
  }

  return { refreshAccount };
}
export type MetricsService = ReturnType<typeof createMetricsService>;
