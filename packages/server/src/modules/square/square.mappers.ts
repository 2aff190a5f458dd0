import {
  HONEST_MAX_ABS_DELTA_PCT,
  HONEST_MIN_LIVE_DAYS,
  type PeriodMetrics,
  type StrategyCard,
  type StrategyPosition,
  type StrategyTrade,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { decimalText, decimalTextOrNull, floatDecimal } from '../../common/decimal-text.js';
import type {
  StrategyMetricsRow,
  StrategyPositionRow,
  StrategyTradeRow,
} from '../../db/schema/index.js';

const round = (value: number, digits = 4) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
const roundOrNull = (value: number | null) => (value === null ? null : round(value));

export function periodMetricsOf(row: StrategyMetricsRow | undefined): PeriodMetrics {
  return {
    return_percent: round(row?.returnPercent ?? 0),
    pnl: decimalText(new Decimal(row?.pnl ?? 0).toDecimalPlaces(4)),
    max_drawdown: round(row?.maxDrawdown ?? 0),
    win_rate: roundOrNull(row?.winRate ?? null),
    sharpe_ratio: roundOrNull(row?.sharpeRatio ?? null),
    sortino_ratio: roundOrNull(row?.sortinoRatio ?? null),
    trades_count: row?.tradesCount ?? 0,
    copiers_count: row?.copiersCount ?? 0,
    copier_pnl: floatDecimal(row?.copierPnl ?? 0, 4),
    copy_efficiency: roundOrNull(row?.copyEfficiency ?? null),
  };
}

export interface CardRow {
  readonly metrics: StrategyMetricsRow;
  readonly accountType: 'classic' | 'unified';
  readonly isPaper: boolean;
  readonly acceptCopy: boolean;
  readonly nickname: string;
  readonly avatarUrl: string | null;
  readonly followersCount: number;
  readonly sparkline: { timestamp: string; balance: number }[] | null;
}

export function cardOf(row: CardRow): StrategyCard {
  const m = row.metrics;
  return {
    id: m.accountId,
    name: m.name,
    exchange: m.exchange,
    account_type: row.accountType,
    is_paper: row.isPaper,
    balance: decimalText(new Decimal(m.balance).toDecimalPlaces(4)),
    total_pnl_percent: round(m.totalReturnPercent),
    total_profit_rate: round(m.returnPercent),
    max_drawdown: round(m.maxDrawdown),
    period: m.period,
    metrics: periodMetricsOf(m),
    days_of_history: m.daysOfHistory,
    is_new: m.isNew,
    published_at: m.publishedAt?.toISOString() ?? null,
    snapshots: row.sparkline ?? [],
    user_id: m.userId,
    user_profile: {
      user_id: m.userId,
      nickname: row.nickname,
      avatar_url: row.avatarUrl,
      followers_count: Number(row.followersCount),
    },
    share_settings: { accept_copy: row.acceptCopy, copiers_count: m.copiersCount },
    live_check:
      m.liveDays === null || m.liveDeltaPct === null
        ? null
        : {
            live_days: round(m.liveDays),
            delta_pct: round(m.liveDeltaPct),
            is_honest:
              m.liveDays >= HONEST_MIN_LIVE_DAYS &&
              Math.abs(m.liveDeltaPct) <= HONEST_MAX_ABS_DELTA_PCT,
          },
  };
}

export function tradeOf(row: StrategyTradeRow): StrategyTrade {
  return {
    id: row.eventId,
    order_id: row.exchangeOrderId,
    timestamp: row.filledAt.toISOString(),
    symbol: row.symbol,
    side: row.side,
    // The read model realises P&L on a fill exactly when it reduces the owner's position.
    effect: row.realizedPnl === null ? 'open' : 'close',
    amount: decimalText(row.amount),
    price: decimalText(row.price),
    value: decimalText(new Decimal(row.amount).times(row.price).toDecimalPlaces(8)),
  };
}

/**
 * Owners' positions summed per (symbol, side): quantities add, entries are size-weighted.
 * Unrealised P&L is marked at `markPrice` (0 without one); the percentage is against margin.
 */
export function positionsOf(
  rows: readonly StrategyPositionRow[],
  leverage: number,
  markPrices: ReadonlyMap<string, number>,
): StrategyPosition[] {
  const groups = new Map<
    string,
    { symbol: string; side: 'long' | 'short'; size: Decimal; cost: Decimal }
  >();
  for (const row of rows) {
    const size = new Decimal(row.size);
    if (size.isZero() || row.entryPrice === null) continue;
    const side = size.isPositive() ? 'long' : 'short';
    const key = `${row.symbol}|${side}`;
    const group = groups.get(key) ?? {
      symbol: row.symbol,
      side,
      size: new Decimal(0),
      cost: new Decimal(0),
    };
    group.size = group.size.plus(size.abs());
    group.cost = group.cost.plus(size.abs().times(row.entryPrice));
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => {
    const entry = g.cost.dividedBy(g.size);
    const mark = markPrices.get(g.symbol);
    const direction = g.side === 'long' ? 1 : -1;
    const pnl =
      mark === undefined
        ? new Decimal(0)
        : new Decimal(mark).minus(entry).times(g.size).times(direction);
    const margin = entry.times(g.size).dividedBy(leverage);
    return {
      symbol: g.symbol,
      side: g.side,
      leverage,
      contracts: g.size.toNumber(),
      entry_price: decimalText(entry.toDecimalPlaces(8)),
      mark_price: decimalTextOrNull(mark),
      unrealized_pnl: decimalText(pnl.toDecimalPlaces(8)),
      percentage: margin.isZero() ? 0 : round(pnl.dividedBy(margin).times(100).toNumber()),
    };
  });
}
