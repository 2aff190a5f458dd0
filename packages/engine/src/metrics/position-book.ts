// Average-cost position book of one (account, symbol, owner): what a fill does to the position
// and the P&L it realises. Decimal arithmetic, so a closed position is exactly flat.
import { Decimal } from 'decimal.js';

export interface BookPosition {
  /** Signed base-asset quantity (positive long, negative short), a decimal string. */
  readonly size: string;
  /** Average entry price; null when flat. */
  readonly entryPrice: string | null;
}

export interface BookFill {
  readonly side: 'buy' | 'sell';
  /** Base-asset quantity, positive. */
  readonly amount: number | string;
  readonly price: number | string;
}

export interface FillOutcome {
  readonly position: BookPosition;
  /**
   * Gross P&L realised by the part of the fill that reduced the position (fees not included);
   * null when the fill only opened or added.
   */
  readonly realizedPnl: string | null;
  /** Base-asset quantity the fill closed. */
  readonly closedAmount: string;
}

export const FLAT: BookPosition = { size: '0', entryPrice: null };

/**
 * Applies a fill: adding to the position (or opening) moves the average entry; reducing realises
 * (price − entry) × closed × direction and keeps the entry; going through zero opens the rest at
 * the fill's price.
 */
export function applyFill(position: BookPosition, fill: BookFill): FillOutcome {
  const size = new Decimal(position.size);
  const amount = new Decimal(fill.amount);
  const price = new Decimal(fill.price);
  const signed = fill.side === 'buy' ? amount : amount.negated();
  const entry = position.entryPrice === null ? null : new Decimal(position.entryPrice);
  if (size.isZero() || entry === null || size.isPositive() === signed.isPositive()) {
    const newSize = size.plus(signed);
    const cost = entry === null ? new Decimal(0) : size.abs().times(entry);
    const newEntry = cost.plus(amount.times(price)).dividedBy(newSize.abs());
    return {
      position: { size: newSize.toString(), entryPrice: newEntry.toString() },
      realizedPnl: null,
      closedAmount: '0',
    };
  }
  const closed = Decimal.min(amount, size.abs());
  const direction = size.isPositive() ? 1 : -1;
  const realized = price.minus(entry).times(closed).times(direction);
  const remaining = size.plus(signed);
  let newEntry: string | null;
  if (remaining.isZero()) newEntry = null;
  else if (remaining.isPositive() === size.isPositive()) newEntry = entry.toString();
  else newEntry = price.toString();
  return {
    position: { size: remaining.toString(), entryPrice: newEntry },
    realizedPnl: realized.toString(),
    closedAmount: closed.toString(),
  };
}
