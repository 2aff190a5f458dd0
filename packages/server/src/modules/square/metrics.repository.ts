import type { ClosedTrade, EquitySample, WalletMark } from '@quantsquare/engine';
import { and, asc, eq, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  balanceSnapshots,
  type ExchangeAccountRow,
  exchangeAccounts,
  type NewStrategyMetricsRow,
  type StrategyShareSettingsRow,
  strategyMetrics,
  strategyShareSettings,
  strategySparklines,
  strategyTrades,
  strategyWalletMarks,
} from '../../db/schema/index.js';

export interface SharedAccount {
  readonly account: ExchangeAccountRow;
  readonly settings: StrategyShareSettingsRow;
}

/** Which accounts are shared, public and active, and their live checks. */
function sharedAccounts(db: Database) {
  return {
    /**
     * The accounts' live-vs-backtest figures (every period's row); accounts not listed lose
     * theirs (their bots were deleted or never traded live).
     */
    async applyLiveChecks(
      checks: readonly {
        accountId: number;
        liveDays: number;
        deltaPct: number;
        liveReturnPct: number;
        backtestReturnPct: number;
      }[],
    ): Promise<void> {
      await db.transaction(async (tx) => {
        for (const check of checks) {
          await tx
            .update(strategyMetrics)
            .set({
              liveDays: check.liveDays,
              liveDeltaPct: check.deltaPct,
              liveDeltaAbs: Math.abs(check.deltaPct),
              liveReturnPct: check.liveReturnPct,
              backtestReturnPct: check.backtestReturnPct,
            })
            .where(eq(strategyMetrics.accountId, check.accountId));
        }
        const listed = checks.map((check) => check.accountId);
        await tx
          .update(strategyMetrics)
          .set({
            liveDays: null,
            liveDeltaPct: null,
            liveDeltaAbs: null,
            liveReturnPct: null,
            backtestReturnPct: null,
          })
          .where(
            and(
              isNotNull(strategyMetrics.liveDays),
              listed.length > 0 ? notInArray(strategyMetrics.accountId, listed) : undefined,
            ),
          );
      });
    },
    async sharedAccount(accountId: number): Promise<SharedAccount | undefined> {
      const [row] = await db
        .select({ account: exchangeAccounts, settings: strategyShareSettings })
        .from(strategyShareSettings)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, strategyShareSettings.accountId))
        .where(eq(strategyShareSettings.accountId, accountId));
      return row;
    },
    async publicAccountIds(): Promise<number[]> {
      const rows = await db
        .select({ id: strategyShareSettings.accountId })
        .from(strategyShareSettings)
        .where(eq(strategyShareSettings.isPublic, true))
        .orderBy(asc(strategyShareSettings.accountId));
      return rows.map((r) => r.id);
    },
    async activeAccounts(): Promise<ExchangeAccountRow[]> {
      return db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.isActive, true))
        .orderBy(asc(exchangeAccounts.id));
    },
  };
}

/** What metrics are computed from, and where they are saved. */
function metricInputs(db: Database) {
  return {
    /** The account's hourly equity (balance snapshots), oldest first. */
    async equitySeries(accountId: number): Promise<EquitySample[]> {
      const rows = await db
        .select({ takenAt: balanceSnapshots.takenAt, equity: balanceSnapshots.equity })
        .from(balanceSnapshots)
        .where(eq(balanceSnapshots.accountId, accountId))
        .orderBy(asc(balanceSnapshots.takenAt));
      return rows.map((r) => ({ timeMs: r.takenAt.getTime(), equity: r.equity }));
    },
    async walletMarks(accountId: number): Promise<WalletMark[]> {
      const rows = await db
        .select()
        .from(strategyWalletMarks)
        .where(eq(strategyWalletMarks.accountId, accountId))
        .orderBy(asc(strategyWalletMarks.takenAt));
      return rows.map((r) => ({
        timeMs: r.takenAt.getTime(),
        equity: Number(r.equity),
        unrealizedPnl: Number(r.unrealizedPnl),
        realizedPnlCum: Number(r.realizedPnlCum),
      }));
    },
    /** Every fill's time, and the closing fills' P&L net of the closing fee. */
    async fills(
      accountId: number,
    ): Promise<{ fillTimesMs: number[]; closedTrades: ClosedTrade[] }> {
      const rows = await db
        .select({
          filledAt: strategyTrades.filledAt,
          realizedPnl: strategyTrades.realizedPnl,
          fee: strategyTrades.fee,
        })
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId))
        .orderBy(asc(strategyTrades.filledAt));
      const fillTimesMs: number[] = [];
      const closedTrades: ClosedTrade[] = [];
      for (const row of rows) {
        const timeMs = row.filledAt.getTime();
        fillTimesMs.push(timeMs);
        if (row.realizedPnl !== null) {
          closedTrades.push({ timeMs, pnl: Number(row.realizedPnl) - Number(row.fee) });
        }
      }
      return { fillTimesMs, closedTrades };
    },
    /** Realised P&L of all the account's fills, fees deducted (a decimal string). */
    async realizedPnlCum(accountId: number): Promise<string> {
      const [row] = await db
        .select({
          total: sql<string>`coalesce(sum(coalesce(${strategyTrades.realizedPnl}, 0) - ${strategyTrades.fee}), 0)`,
        })
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId));
      return String(row?.total ?? '0');
    },
    async insertWalletMark(values: typeof strategyWalletMarks.$inferInsert): Promise<void> {
      await db.insert(strategyWalletMarks).values(values).onConflictDoNothing();
    },
    /** The account's figures (one row per period) and its sparkline, in one transaction. */
    async saveMetrics(
      rows: NewStrategyMetricsRow[],
      sparkline: {
        accountId: number;
        points: { timestamp: string; balance: number }[];
        computedAt: Date;
      },
    ): Promise<void> {
      if (rows.length === 0) return;
      await db.transaction(async (tx) => {
        await tx
          .insert(strategySparklines)
          .values(sparkline)
          .onConflictDoUpdate({
            target: strategySparklines.accountId,
            set: { points: sparkline.points, computedAt: sparkline.computedAt },
          });
        await tx
          .insert(strategyMetrics)
          .values(rows)
          .onConflictDoUpdate({
            target: [strategyMetrics.accountId, strategyMetrics.period],
            set: {
              userId: sql`excluded.user_id`,
              exchange: sql`excluded.exchange`,
              name: sql`excluded.name`,
              isPublic: sql`excluded.is_public`,
              publishedAt: sql`excluded.published_at`,
              balance: sql`excluded.balance`,
              totalReturnPercent: sql`excluded.total_return_percent`,
              returnPercent: sql`excluded.return_percent`,
              pnl: sql`excluded.pnl`,
              maxDrawdown: sql`excluded.max_drawdown`,
              winRate: sql`excluded.win_rate`,
              sharpeRatio: sql`excluded.sharpe_ratio`,
              sortinoRatio: sql`excluded.sortino_ratio`,
              tradesCount: sql`excluded.trades_count`,
              copiersCount: sql`excluded.copiers_count`,
              copierPnl: sql`excluded.copier_pnl`,
              copyEfficiency: sql`excluded.copy_efficiency`,
              daysOfHistory: sql`excluded.days_of_history`,
              isNew: sql`excluded.is_new`,
              rankWinRate: sql`excluded.rank_win_rate`,
              rankSharpe: sql`excluded.rank_sharpe`,
              computedAt: sql`excluded.computed_at`,
            },
          });
      });
    },
  };
}

/** What the metrics worker reads (snapshots, marks, the read model's fills) and writes. */
export function createMetricsRepository(db: Database) {
  return {
    ...sharedAccounts(db),
    ...metricInputs(db),
  };
}
export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
