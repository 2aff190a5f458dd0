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
  type PeriodFigures,
  periodFigures,
} from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import type { NewStrategyMetricsRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { MetricsRepository } from './metrics.repository.js';

const finiteOrNull = (value: number | null) =>
  value === null || !Number.isFinite(value) ? null : value;

/**
 * Computes a shared account's square figures for every period from its hourly equity (balance
 * snapshots), the flows inferred from the wallet marks and the read model's fills, and writes
 * them (one row per period). Publishes StrategyStatisticsChanged for live viewers when public.
 */
export function createMetricsService(deps: {
  repo: MetricsRepository;
  clock: Clock;
  events: EventBus;
  /** Called after an account's figures were written. */
  onSaved?: (accountId: number) => void;
}) {
  const { repo } = deps;

  async function refreshAccount(accountId: number): Promise<void> {
    const shared = await repo.sharedAccount(accountId);
    if (!shared) return;
    const { account, settings } = shared;
    const now = deps.clock.now();
    const nowMs = now.getTime();
    const [points, marks, fills] = await Promise.all([
      repo.equitySeries(accountId),
      repo.walletMarks(accountId),
      repo.fills(accountId),
    ]);
    const input = { points, flows: inferCashFlows(marks), ...fills };
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
