import {
  type CopyReceipt,
  type CopyRelation,
  defaultCopySlippagePercent,
  maskEmail,
  maskPhone,
} from '@quantsquare/contracts';
import { copyEfficiency } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { decimalTextOrNull } from '../../common/decimal-text.js';
import type { CopyReceiptRow, CopyRelationRow } from '../../db/schema/index.js';
import type { RelationView } from './copy-trading.repository.js';

/** A decimal column as the answers show it: no trailing zeros. */
export const money = (value: string | null | undefined): string => decimalTextOrNull(value) ?? '0';
const moneyOrNull = decimalTextOrNull;

/** The columns a relation's return and copy efficiency are computed from. */
export type RelationFigureColumns = Pick<
  CopyRelationRow,
  'copyAmount' | 'copyMode' | 'totalProfitLoss' | 'leaderEquityStart' | 'leaderEquityLast'
>;

/** The relation's copied P&L as a percent of its copy amount. */
export function profitPercent(row: RelationFigureColumns): number {
  const amount = Number(row.copyAmount);
  return amount > 0 ? Number(((Number(row.totalProfitLoss) / amount) * 100).toFixed(4)) : 0;
}

/** Follower return ÷ the return it aims at (the leader's, negated in reverse) since it began. */
export function relationEfficiency(row: RelationFigureColumns): number | null {
  const start = Number(row.leaderEquityStart);
  if (!(start > 0)) return null;
  const leaderReturn = (Number(row.leaderEquityLast) - start) / start;
  return copyEfficiency(profitPercent(row) / 100, leaderReturn, row.copyMode);
}

/** What a leader account's copiers made, as the square shows it. */
export interface LeaderCopyFigures {
  /** Copied P&L of its relations summed, USDT. */
  readonly copierPnl: number;
  /** Mean of the relations' defined efficiencies (`relationEfficiency`); null when none is. */
  readonly copyEfficiency: number | null;
}

/** The figures of one leader's relations (the caller passes the ones not deleted). */
export function leaderCopyFigures(relations: readonly RelationFigureColumns[]): LeaderCopyFigures {
  let pnl = new Decimal(0);
  const efficiencies: number[] = [];
  for (const relation of relations) {
    pnl = pnl.plus(relation.totalProfitLoss);
    const efficiency = relationEfficiency(relation);
    if (efficiency !== null) efficiencies.push(efficiency);
  }
  if (efficiencies.length === 0) return { copierPnl: pnl.toNumber(), copyEfficiency: null };
  const mean = efficiencies.reduce((sum, e) => sum + e, 0) / efficiencies.length;
  return { copierPnl: pnl.toNumber(), copyEfficiency: Number(mean.toFixed(4)) };
}

/** The entry slippage cap of a symbol for this relation (its own, else the default). */
export function slippageCapPercent(row: CopyRelationRow, symbol: string): number {
  return row.maxSlippagePercent ?? defaultCopySlippagePercent(symbol);
}

/** One relation; `audience` decides whether the follower's e-mail is shown (masked). */
export function toCopyRelation(view: RelationView, audience: 'follower' | 'leader'): CopyRelation {
  const r = view.relation;
  return {
    id: r.id,
    leader_account_id: r.leaderAccountId,
    leader_account_name: view.leaderAccount.name,
    strategy_name: view.strategyName,
    leader_nickname: view.leaderNickname,
    leader_avatar_url: view.leaderAvatarUrl,
    leader_exchange: view.leaderAccount.exchange,
    leader_user_id: r.leaderUserId,
    follower_account_id: r.followerAccountId,
    follower_account_name: view.followerAccount.name,
    follower_exchange: view.followerAccount.exchange,
    copy_amount: money(r.copyAmount),
    max_loss: r.maxLoss === null || Number(r.maxLoss) === 0 ? null : money(r.maxLoss),
    copy_mode: r.copyMode,
    is_cross_exchange: view.leaderAccount.exchange !== view.followerAccount.exchange,
    total_profit_loss: new Decimal(r.totalProfitLoss).toDecimalPlaces(8).toString(),
    profit_percent: profitPercent(r),
    total_copied_trades: r.totalCopiedTrades,
    status: r.status,
    stop_reason: r.stopReason,
    pause_reason: r.status === 'paused' ? r.pauseReason : null,
    fee_paid: money(r.feePaid),
    follower_user: r.followerUserId,
    follower_email:
      audience === 'leader' && view.followerEmail ? maskEmail(view.followerEmail) : null,
    follower_phone:
      audience === 'leader' && view.followerPhone ? maskPhone(view.followerPhone) : null,
    follower_nickname: audience === 'leader' ? view.followerNickname : null,
    max_slippage_percent: r.maxSlippagePercent,
    leader_drawdown_limit_percent: r.leaderDrawdownLimitPercent,
    copy_efficiency: relationEfficiency(r),
    last_error: r.lastError,
    last_error_at: r.lastErrorAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toCopyReceipt(row: CopyReceiptRow): CopyReceipt {
  return {
    id: row.id,
    symbol: row.symbol,
    leader_size_delta: money(row.leaderSizeDelta),
    leader_price: moneyOrNull(row.leaderPrice),
    leader_filled_at: row.leaderFilledAt.toISOString(),
    target_size: money(row.targetSize),
    follower_size_delta: moneyOrNull(row.followerSizeDelta),
    follower_price: moneyOrNull(row.followerPrice),
    slippage_bps: row.slippageBps,
    delay_ms: row.delayMs,
    status: row.status,
    miss_reason: row.missReason,
    error_kind: row.errorKind,
    created_at: row.createdAt.toISOString(),
  };
}
