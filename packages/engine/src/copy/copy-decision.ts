import { Decimal } from 'decimal.js';
import { type MarketLimits, roundToStep } from '../position/sizing.js';
import { type CopyDirection, copyTarget, entryPriceCap } from './copy-target.js';

// One copy decision (pure): what a follower does about one leader change on one symbol. The live
// copy engine (server copy-engine.ts) and the copy simulator (copy-simulation.ts) both call it,
// so a simulated copy sizes, reverses, rounds and caps exactly as a running one.

/** The follower market's facts a decision needs (the exchange client's MarketFacts fit). */
export interface CopyMarket extends MarketLimits {
  /** Smallest price step (the entry cap is rounded to it). */
  readonly priceStep: number;
}

export interface CopyJoinInput {
  /** The leader's signed size after its change, and the size the relation saw before it. */
  readonly leaderSize: Decimal.Value;
  readonly previousLeaderSize: Decimal.Value;
  /** The follower's signed size held by the relation. */
  readonly followerSize: Decimal.Value;
  /** A late join copies the leader's current positions whatever the change. */
  readonly isLateJoin: boolean;
}

/**
 * Whether the change concerns the follower at all: a follower that never joined a position (it
 * is flat) does not open on the leader's reductions; it joins when the leader grows or flips.
 */
export function copyJoins(input: CopyJoinInput): boolean {
  const leader = new Decimal(input.leaderSize);
  const previous = new Decimal(input.previousLeaderSize);
  const grew =
    leader.abs().gt(previous.abs()) ||
    (!leader.isZero() && leader.isNegative() !== previous.isNegative());
  return !new Decimal(input.followerSize).isZero() || input.isLateJoin || grew;
}

export interface CopyDecisionInput {
  /** The leader's signed size after its change (base asset). */
  readonly leaderSize: Decimal.Value;
  /** copy_amount / leader equity at the relation's base (`copyRatio`). */
  readonly ratio: Decimal.Value;
  readonly mode: CopyDirection;
  /** The follower's signed size held by the relation. */
  readonly followerSize: Decimal.Value;
  readonly market: CopyMarket;
  /** The leader's fill price (the entry cap's and the minimum notional's reference), if known. */
  readonly leaderPrice: number | null;
  /** The entry's slippage limit in percent from the leader's price. */
  readonly slippageCapPercent: number;
}

/** One order of a decision; `leg` is the last part of its idempotency key. */
export interface CopyLeg {
  readonly leg: 'c' | 'o' | 'r';
  readonly action: 'copy_close' | 'copy_open_long' | 'copy_open_short' | 'copy_reduce';
  /** The follower's signed size after the order (the close of a flip: 0). */
  readonly targetSize: number;
  /** Entries: an IOC no worse than this price; null: at market. */
  readonly priceCap: number | null;
}

export type CopyDecision =
  /** A new share under the venue's minimum while flat: no order (a skipped order). */
  | {
      readonly kind: 'below_minimum';
      readonly target: number;
      readonly unrounded: number;
      readonly minimum: number;
      readonly limit: 'amount' | 'notional';
    }
  /** The follower holds its target already. */
  | { readonly kind: 'hold'; readonly target: number }
  /** Orders to send in this order (a flip: close, then open). */
  | { readonly kind: 'orders'; readonly target: number; readonly legs: readonly CopyLeg[] };

/**
 * The follower's target for the leader's size (ratio, reverse, the follower market's step and
 * minimums) and the orders that reach it: an increase or a flip's opening leg is an IOC capped at
 * the slippage limit from the leader's price; a reduction or a close goes at market. A share under
 * the minimum while holding reduces to what rounds (maybe flat) rather than keeping the old size.
 */
export function copyDecision(input: CopyDecisionInput): CopyDecision {
  const own = new Decimal(input.followerSize);
  const computed = copyTarget({
    leaderSize: input.leaderSize,
    ratio: input.ratio,
    mode: input.mode,
    market: input.market,
    ...(input.leaderPrice !== null ? { price: input.leaderPrice } : {}),
  });
  let target: number;
  if (computed.ok) {
    target = computed.size;
  } else if (own.isZero()) {
    return {
      kind: 'below_minimum',
      target: roundToStep(computed.unrounded, input.market.amountStep),
      unrounded: computed.unrounded,
      minimum: computed.minimum,
      limit: computed.limit,
    };
  } else {
    target = roundToStep(computed.unrounded, input.market.amountStep);
  }
  const next = new Decimal(target);
  if (next.eq(own)) return { kind: 'hold', target };

  const flips = !own.isZero() && !next.isZero() && own.isNegative() !== next.isNegative();
  const opens = !flips && next.abs().gt(own.abs());
  const legs: CopyLeg[] = [];
  if (flips) legs.push({ leg: 'c', action: 'copy_close', targetSize: 0, priceCap: null });
  if (flips || opens) {
    const side = next.gt(0) ? 'buy' : 'sell';
    legs.push({
      leg: 'o',
      action: next.gt(0) ? 'copy_open_long' : 'copy_open_short',
      targetSize: target,
      priceCap:
        input.leaderPrice === null
          ? null
          : entryPriceCap(
              input.leaderPrice,
              side,
              input.slippageCapPercent,
              input.market.priceStep,
            ),
    });
  } else {
    legs.push({ leg: 'r', action: 'copy_reduce', targetSize: target, priceCap: null });
  }
  return { kind: 'orders', target, legs };
}
