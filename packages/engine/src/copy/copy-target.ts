import { Decimal } from 'decimal.js';
import { type MarketLimits, roundToStep } from '../position/sizing.js';

// Copy trading's target maths (pure): a follower holds the leader's position scaled by
// copy_amount / leader equity, in the same or the opposite direction, on the follower's market.
// Amounts are base-asset quantities on both sides (exchange clients convert contracts), so a
// cross-exchange copy is converted by rounding to the follower market's step — OKX's step is a
// whole contract (e.g. 0.01 BTC), Binance's a base-asset step.

export type CopyDirection = 'normal' | 'reverse';

/** The follower's share of the leader: copy_amount / leader equity (0 when equity is unknown). */
export function copyRatio(copyAmount: Decimal.Value, leaderEquity: Decimal.Value): Decimal {
  const equity = new Decimal(leaderEquity);
  if (!equity.isFinite() || equity.lte(0)) return new Decimal(0);
  return new Decimal(copyAmount).dividedBy(equity);
}

export type CopyTarget =
  /** The follower's signed target on its market's step (0: flat). */
  | { readonly ok: true; readonly size: number; readonly unrounded: number }
  /** The leader holds a position whose share is under the follower market's minimum. */
  | {
      readonly ok: false;
      readonly reason: 'below_minimum';
      readonly unrounded: number;
      readonly minimum: number;
      readonly limit: 'amount' | 'notional';
    };

export interface CopyTargetInput {
  /** The leader's signed position (base asset). */
  readonly leaderSize: Decimal.Value;
  readonly ratio: Decimal.Value;
  readonly mode: CopyDirection;
  /** The follower's market: its step (contract size × lot for venues counting contracts). */
  readonly market: MarketLimits;
  /** A price to check the minimum notional against (none: only the minimum amount). */
  readonly price?: number;
}

/**
 * The follower's target: leader × ratio, negated for reverse, rounded toward zero to the
 * follower's step. A non-zero share that rounds below the market's minimum amount or notional is
 * refused with the minimum it misses (the caller holds no new position and says why).
 */
export function copyTarget(input: CopyTargetInput): CopyTarget {
  const sign = input.mode === 'reverse' ? -1 : 1;
  const raw = new Decimal(input.leaderSize).times(input.ratio).times(sign);
  const unrounded = raw.toNumber();
  if (raw.isZero()) return { ok: true, size: 0, unrounded: 0 };
  const size = roundToStep(unrounded, input.market.amountStep);
  const abs = Math.abs(size);
  if (abs === 0 || abs < input.market.minAmount) {
    return {
      ok: false,
      reason: 'below_minimum',
      unrounded,
      minimum: input.market.minAmount,
      limit: 'amount',
    };
  }
  if (input.price !== undefined && abs * input.price < input.market.minNotional) {
    return {
      ok: false,
      reason: 'below_minimum',
      unrounded,
      minimum: input.market.minNotional,
      limit: 'notional',
    };
  }
  return { ok: true, size, unrounded };
}

/**
 * The worst price an entry may fill at: `slippagePercent` above the leader's fill for a buy,
 * below it for a sell, on the market's price step (rounded toward the leader's price).
 */
export function entryPriceCap(
  leaderPrice: number,
  side: 'buy' | 'sell',
  slippagePercent: number,
  priceStep: number,
): number {
  const factor = side === 'buy' ? 1 + slippagePercent / 100 : 1 - slippagePercent / 100;
  const cap = leaderPrice * factor;
  const step = priceStep > 0 ? priceStep : 1e-8;
  const steps = side === 'buy' ? Math.floor(cap / step + 1e-9) : Math.ceil(cap / step - 1e-9);
  return Number((steps * step).toFixed(12));
}

/** Signed slippage of a follower fill against the leader's, in bps (positive = worse). */
export function slippageBps(
  side: 'buy' | 'sell',
  leaderPrice: number,
  followerPrice: number,
): number {
  if (leaderPrice <= 0) return 0;
  const diff = side === 'buy' ? followerPrice - leaderPrice : leaderPrice - followerPrice;
  return Number(((diff / leaderPrice) * 10_000).toFixed(2));
}

/**
 * Late join: copy a leader position now only while the price is within `distancePercent` of the
 * leader's entry, so a late joiner never buys a move that already happened.
 */
export function isWithinEntryDistance(
  entryPrice: number,
  currentPrice: number,
  distancePercent: number,
): boolean {
  if (entryPrice <= 0) return false;
  return (Math.abs(currentPrice - entryPrice) / entryPrice) * 100 <= distancePercent;
}

/**
 * Follower return ÷ the return the copy aims at: the leader's own for a normal copy, its
 * opposite for a reverse one (a reverse copier of a leader who lost 5% aims at +5%; losing too is
 * a negative efficiency, not a good one). Null while the leader's return is 0.
 */
export function copyEfficiency(
  followerReturn: number,
  leaderReturn: number,
  mode: CopyDirection,
): number | null {
  if (!Number.isFinite(leaderReturn) || Math.abs(leaderReturn) < 1e-12) return null;
  const aimedAt = mode === 'reverse' ? -leaderReturn : leaderReturn;
  return Number((followerReturn / aimedAt).toFixed(4));
}

/**
 * How far the leader's equity has moved against the copy since it began, in percent (≥ 0): for
 * a normal copy the leader's fall from its highest (its drawdown), for a reverse copy its rise
 * from its lowest (what a reverse copier loses on). The drift breaker stops the copy at a limit.
 */
export function leaderDriftPercent(input: {
  readonly peak: Decimal.Value;
  readonly trough: Decimal.Value;
  readonly equity: Decimal.Value;
  readonly mode: CopyDirection;
}): number {
  const equity = new Decimal(input.equity);
  if (input.mode === 'reverse') {
    const trough = new Decimal(input.trough);
    return trough.gt(0)
      ? Decimal.max(equity.minus(trough), 0).div(trough).times(100).toNumber()
      : 0;
  }
  const peak = new Decimal(input.peak);
  return peak.gt(0) ? Decimal.max(peak.minus(equity), 0).div(peak).times(100).toNumber() : 0;
}
