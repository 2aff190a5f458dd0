// A strategy's trade book of one (account, symbol, owner) as the square keeps it: decimal strings
// and a side per fill. The arithmetic is the engine's one position maths (position/pnl.ts), with
// fees left out: the square records fees beside each trade and shows gross realised P&L.
import { Decimal } from 'decimal.js';
import { applyFill } from '../position/pnl.js';

export interface TradeBookPosition {
  /** Signed base-asset quantity (positive long, negative short), a decimal string. */
  readonly size: string;
  /** Average entry price; null when flat. */
  readonly entryPrice: string | null;
}

export interface TradeBookFill {
  readonly side: 'buy' | 'sell';
  /** Base-asset quantity, positive. */
  readonly amount: number | string;
  readonly price: number | string;
}

export interface TradeBookOutcome {
  readonly position: TradeBookPosition;
  /** Gross P&L realised by the part of the fill that reduced the position; null when it did not. */
  readonly realizedPnl: string | null;
  /** Base-asset quantity the fill closed. */
  readonly closedAmount: string;
}

export const FLAT_TRADE_BOOK: TradeBookPosition = { size: '0', entryPrice: null };

/**
 * Adding to the position (or opening) moves the average entry; reducing realises
 * (price − entry) × closed × direction and keeps the entry; going through zero opens the rest at
 * the fill's price.
 */
export function applyTradeToBook(
  position: TradeBookPosition,
  fill: TradeBookFill,
): TradeBookOutcome {
  const amount = new Decimal(fill.amount);
  const applied = applyFill(
    {
      size: new Decimal(position.size),
      entryPrice: new Decimal(position.entryPrice ?? 0),
      entryFee: new Decimal(0),
    },
    {
      amount: fill.side === 'buy' ? amount : amount.negated(),
      price: new Decimal(fill.price),
      fee: new Decimal(0),
    },
  );
  const size = applied.position.size;
  const hasClosed = !applied.closedAmount.isZero();
  return {
    position: {
      size: size.toString(),
      entryPrice: size.isZero() ? null : applied.position.entryPrice.toString(),
    },
    realizedPnl: hasClosed ? applied.realizedPnl.toString() : null,
    closedAmount: applied.closedAmount.toString(),
  };
}
