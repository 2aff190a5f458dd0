// Stop-loss and take-profit: where they sit from the entry fill, and when a candle's range hits
// them. One rule for the backtest loop, the live bot and the paper exchange: a long's stop is
// touched when the low reaches it, its target when the high does (mirrored for a short); when a
// candle touches both, the stop-loss is taken first (its order inside the candle is unknown, and
// the loss is the prudent guess); a candle that OPENS beyond a level exits at that open (a gap).

import type { PositionSide } from '../backtest/backtest.types.js';

/** 1 for a long, -1 for a short: the sign of the position's profit per price move. */
export type Direction = 1 | -1;

export const directionOf = (side: PositionSide): Direction => (side === 'long' ? 1 : -1);

/** The stop-loss price `percent` % against a position entered at `entry`. */
export function stopLossLevel(direction: number, entry: number, percent: number): number {
  return entry * (1 - direction * (percent / 100));
}

/** The take-profit price `percent` % in favour of a position entered at `entry`. */
export function takeProfitLevel(direction: number, entry: number, percent: number): number {
  return entry * (1 + direction * (percent / 100));
}

/**
 * The tighter of a fixed stop and a trailing one: the higher for a long, the lower for a short.
 * A NaN fixed stop (none) leaves the trailing one.
 */
export function tighterStop(direction: number, fixed: number, trailing: number): number {
  if (Number.isNaN(fixed)) return trailing;
  return direction > 0 ? Math.max(fixed, trailing) : Math.min(fixed, trailing);
}

/**
 * Both levels from the entry fill; a missing (null or 0) percentage sets no level. A trailing
 * stop starts `trailingStopPercent` % from the entry (its best price so far) and the stop is the
 * tighter of the two, as the backtest sets it.
 */
export function protectiveLevels(
  side: PositionSide,
  entryPrice: number,
  stopLossPercent: number | null,
  takeProfitPercent: number | null,
  trailingStopPercent: number | null = null,
): { stopLoss: number | null; takeProfit: number | null } {
  const direction = directionOf(side);
  const fixed = stopLossPercent
    ? stopLossLevel(direction, entryPrice, stopLossPercent)
    : Number.NaN;
  const stop = trailingStopPercent
    ? tighterStop(direction, fixed, stopLossLevel(direction, entryPrice, trailingStopPercent))
    : fixed;
  return {
    stopLoss: Number.isNaN(stop) ? null : stop,
    takeProfit: takeProfitPercent
      ? takeProfitLevel(direction, entryPrice, takeProfitPercent)
      : null,
  };
}

export type ProtectiveReason = 'stop_loss' | 'take_profit';

/** Scratch result of `hitProtective`, reused by hot loops so a hit allocates nothing. */
export interface ProtectiveHitOut {
  reason: ProtectiveReason;
  /** The level, or the candle's open when it opened beyond the level; before any slippage. */
  price: number;
}

/**
 * Whether a price range touched the stop (first) or the target. `stop`/`take` may be NaN (no
 * level: comparisons with NaN are false). Writes the exit into `out` and answers true on a hit.
 */
export function hitProtective(
  out: ProtectiveHitOut,
  direction: number,
  stop: number,
  take: number,
  open: number,
  high: number,
  low: number,
): boolean {
  if (direction > 0) {
    if (low <= stop) {
      out.reason = 'stop_loss';
      out.price = Math.min(open, stop);
      return true;
    }
    if (high >= take) {
      out.reason = 'take_profit';
      out.price = Math.max(open, take);
      return true;
    }
    return false;
  }
  if (high >= stop) {
    out.reason = 'stop_loss';
    out.price = Math.max(open, stop);
    return true;
  }
  if (low <= take) {
    out.reason = 'take_profit';
    out.price = Math.min(open, take);
    return true;
  }
  return false;
}

export interface PriceRange {
  readonly open: number;
  readonly high: number;
  readonly low: number;
}

export interface ProtectiveHit {
  readonly reason: ProtectiveReason;
  readonly price: number;
}

/** `hitProtective` for one position and one range, as an object (null for no hit). */
export function protectiveHit(
  position: {
    readonly side: PositionSide;
    readonly stopLoss: number | null;
    readonly takeProfit: number | null;
  },
  range: PriceRange,
): ProtectiveHit | null {
  const out: ProtectiveHitOut = { reason: 'stop_loss', price: 0 };
  const isHit = hitProtective(
    out,
    directionOf(position.side),
    position.stopLoss ?? Number.NaN,
    position.takeProfit ?? Number.NaN,
    range.open,
    range.high,
    range.low,
  );
  return isHit ? { reason: out.reason, price: out.price } : null;
}
