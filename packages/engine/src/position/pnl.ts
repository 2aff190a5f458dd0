// Fees, slippage and profit: the number forms run in the backtest's loop, the Decimal forms keep
// the ledgers of live and paper accounts (money is never a float sum). Both compute the same
// formulas; the tests hold them to each other.
import { Decimal } from 'decimal.js';

/** Fee of a fill of `notional` quote value. */
export function tradeFee(notional: number, feeRate: number): number {
  return notional * feeRate;
}

/** A market fill's price `slippageBps` against the taker: buyers pay more, sellers get less. */
export function slippedPrice(price: number, isBuy: boolean, slippageBps: number): number {
  return price * (isBuy ? 1 + slippageBps / 10_000 : 1 - slippageBps / 10_000);
}

/** Profit of `amount` held in `direction` (1 long, -1 short) from `entry` to `exit`, before fees. */
export function grossPnl(direction: number, amount: number, entry: number, exit: number): number {
  return direction * amount * (exit - entry);
}

/** Decimal form of `grossPnl`. */
export function grossPnlDecimal(
  direction: number,
  amount: Decimal.Value,
  entry: Decimal.Value,
  exit: Decimal.Value,
): Decimal {
  return new Decimal(exit).minus(entry).times(amount).times(direction);
}

/** Decimal form of `slippedPrice`. */
export function slippedPriceDecimal(
  price: Decimal.Value,
  isBuy: boolean,
  slippageBps: Decimal.Value,
): Decimal {
  const rate = new Decimal(slippageBps).dividedBy(10_000);
  return new Decimal(price).times(isBuy ? Decimal.add(1, rate) : Decimal.sub(1, rate));
}

/** Decimal form of `tradeFee`. */
export function tradeFeeDecimal(notional: Decimal.Value, feeRate: Decimal.Value): Decimal {
  return new Decimal(notional).times(feeRate);
}

/**
 * One owner's net position on a symbol: signed base-asset size (positive long), the average
 * entry price of what is held, and the entry fees paid for what is held.
 */
export interface BookPosition {
  readonly size: Decimal;
  readonly entryPrice: Decimal;
  readonly entryFee: Decimal;
}

export const FLAT_POSITION: BookPosition = {
  size: new Decimal(0),
  entryPrice: new Decimal(0),
  entryFee: new Decimal(0),
};

export interface BookFill {
  /** Signed base-asset quantity: positive bought, negative sold. */
  readonly amount: Decimal;
  readonly price: Decimal;
  /** Fee paid on this fill, in quote. */
  readonly fee: Decimal;
}

export interface AppliedFill {
  readonly position: BookPosition;
  /** Base-asset quantity of the earlier position this fill closed (0: none). */
  readonly closedAmount: Decimal;
  /** Direction of the closed part (1 long, -1 short; 0 when nothing closed). */
  readonly closedDirection: number;
  /** Entry price and entry fee of the closed part. */
  readonly closedEntryPrice: Decimal;
  readonly closedEntryFee: Decimal;
  /** The share of this fill's fee paid for closing. */
  readonly closingFee: Decimal;
  /** Profit of the closed part net of its entry fee and its share of this fill's fee. */
  readonly realizedPnl: Decimal;
}

/**
 * A fill applied to a net position: a fill in the position's direction adds to it at a weighted
 * average entry; an opposite fill closes up to the held size (realising profit net of both fees,
 * pro rata) and opens the rest in its own direction.
 */
export function applyFill(position: BookPosition, fill: BookFill): AppliedFill {
  const zero = new Decimal(0);
  const held = position.size.abs();
  const traded = fill.amount.abs();
  if (traded.isZero()) {
    return {
      position,
      closedAmount: zero,
      closedDirection: 0,
      closedEntryPrice: zero,
      closedEntryFee: zero,
      closingFee: zero,
      realizedPnl: zero,
    };
  }
  const isOpposite = !held.isZero() && position.size.isNegative() !== fill.amount.isNegative();
  if (!isOpposite) {
    const size = position.size.plus(fill.amount);
    const entryPrice = held
      .times(position.entryPrice)
      .plus(traded.times(fill.price))
      .dividedBy(size.abs());
    return {
      position: { size, entryPrice, entryFee: position.entryFee.plus(fill.fee) },
      closedAmount: zero,
      closedDirection: 0,
      closedEntryPrice: zero,
      closedEntryFee: zero,
      closingFee: zero,
      realizedPnl: zero,
    };
  }
  const closedAmount = Decimal.min(held, traded);
  const direction = position.size.isNegative() ? -1 : 1;
  const closedEntryFee = position.entryFee.times(closedAmount).dividedBy(held);
  const closingFee = fill.fee.times(closedAmount).dividedBy(traded);
  const gross = grossPnlDecimal(direction, closedAmount, position.entryPrice, fill.price);
  const size = position.size.plus(fill.amount);
  const remainsOpen = held.gt(traded);
  const flipped = traded.gt(held);
  const next: BookPosition = remainsOpen
    ? {
        size,
        entryPrice: position.entryPrice,
        entryFee: position.entryFee.minus(closedEntryFee),
      }
    : flipped
      ? { size, entryPrice: fill.price, entryFee: fill.fee.minus(closingFee) }
      : FLAT_POSITION;
  return {
    position: next,
    closedAmount,
    closedDirection: direction,
    closedEntryPrice: position.entryPrice,
    closedEntryFee,
    closingFee,
    realizedPnl: gross.minus(closedEntryFee).minus(closingFee),
  };
}

/**
 * Profit of a held position (signed size: negative is short) marked at `mark`, before fees. The
 * one definition the server's books, paper desk, copies and bots mark their positions with.
 */
export function unrealizedPnl(
  position: { readonly size: Decimal.Value; readonly entryPrice: Decimal.Value },
  mark: Decimal.Value,
): Decimal {
  const size = new Decimal(position.size);
  if (size.isZero()) return new Decimal(0);
  return new Decimal(mark).minus(position.entryPrice).times(size);
}
