import type { PositionMode } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { ExchangeAdapterError, type OrderSide, type PositionSide } from '../exchange-client.js';

// The pure rules of a paper market fill: which position it closes or opens, at what price, for
// what fee and realised P&L. No I/O; the client loads the state and writes the outcome.

export interface PaperPositionState {
  readonly side: PositionSide;
  readonly amount: Decimal;
  readonly entryPrice: Decimal;
  readonly leverage: number;
}

export interface MarketFillInput {
  readonly positionMode: PositionMode;
  /** The account's open positions on the order's symbol. */
  readonly positions: readonly PaperPositionState[];
  readonly side: OrderSide;
  readonly amount: Decimal;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide | undefined;
  /** The feed's price before slippage. */
  readonly marketPrice: Decimal;
  readonly slippageRate: Decimal;
  readonly feeRate: Decimal;
  /** Leverage of a newly opened position. */
  readonly leverage: number;
  /** Wallet balance minus the margin held by all open positions (USDT). */
  readonly availableMargin: Decimal;
}

export interface MarketFillOutcome {
  readonly fillPrice: Decimal;
  readonly filled: Decimal;
  readonly fee: Decimal;
  readonly realizedPnl: Decimal;
  /** The symbol's positions after the fill (amount 0 = closed). */
  readonly positions: readonly PaperPositionState[];
}

const opposite = (side: PositionSide): PositionSide => (side === 'long' ? 'short' : 'long');
const sideOpenedBy = (side: OrderSide): PositionSide => (side === 'buy' ? 'long' : 'short');

/** Profit of closing `amount` of a position at `price`. */
function closingPnl(position: PaperPositionState, amount: Decimal, price: Decimal): Decimal {
  const move = price.minus(position.entryPrice);
  return (position.side === 'long' ? move : move.negated()).times(amount);
}

export function planMarketFill(input: MarketFillInput): MarketFillOutcome {
  if (!input.amount.isFinite() || input.amount.lte(0)) {
    throw new ExchangeAdapterError('invalid_order', 'Order amount must be positive');
  }
  // Buyers pay above the feed's price, sellers receive below it.
  const slip = input.side === 'buy' ? input.slippageRate : input.slippageRate.negated();
  const fillPrice = input.marketPrice.times(new Decimal(1).plus(slip));
  const byside = new Map(input.positions.map((p) => [p.side, p]));

  // Which position the order reduces, and which one it may open or increase.
  let reduces: PositionSide | null;
  let opens: PositionSide | null;
  if (input.positionMode === 'hedge') {
    const target =
      input.positionSide ??
      (input.reduceOnly ? opposite(sideOpenedBy(input.side)) : sideOpenedBy(input.side));
    const isOpening = sideOpenedBy(input.side) === target;
    if (isOpening && input.reduceOnly) {
      throw new ExchangeAdapterError(
        'invalid_order',
        'A reduce-only order cannot open or increase a position',
      );
    }
    reduces = isOpening ? null : target;
    opens = isOpening ? target : null;
  } else {
    reduces = opposite(sideOpenedBy(input.side));
    opens = input.reduceOnly ? null : sideOpenedBy(input.side);
  }

  const reduced = reduces ? byside.get(reduces) : undefined;
  const closeAmount = reduced ? Decimal.min(reduced.amount, input.amount) : new Decimal(0);
  const openAmount = opens ? input.amount.minus(closeAmount) : new Decimal(0);
  if (closeAmount.isZero() && openAmount.isZero()) {
    throw new ExchangeAdapterError(
      'invalid_order',
      'A reduce-only order needs a position to reduce',
    );
  }
  const filled = closeAmount.plus(openAmount);
  const fee = filled.times(fillPrice).times(input.feeRate);
  const realizedPnl = reduced ? closingPnl(reduced, closeAmount, fillPrice) : new Decimal(0);

  const next = new Map(byside);
  if (reduced && closeAmount.gt(0)) {
    next.set(reduced.side, { ...reduced, amount: reduced.amount.minus(closeAmount) });
  }
  if (opens && openAmount.gt(0)) {
    const margin = openAmount.times(fillPrice).dividedBy(input.leverage);
    if (margin.plus(fee).gt(input.availableMargin.plus(realizedPnl))) {
      throw new ExchangeAdapterError(
        'insufficient_funds',
        'Insufficient paper balance for this order',
      );
    }
    const held = next.get(opens);
    if (held?.amount.gt(0)) {
      const amount = held.amount.plus(openAmount);
      const entryPrice = held.entryPrice
        .times(held.amount)
        .plus(fillPrice.times(openAmount))
        .dividedBy(amount);
      next.set(opens, { ...held, amount, entryPrice });
    } else {
      next.set(opens, {
        side: opens,
        amount: openAmount,
        entryPrice: fillPrice,
        leverage: input.leverage,
      });
    }
  }
  return { fillPrice, filled, fee, realizedPnl, positions: [...next.values()] };
}

/** Margin held by a position: its value at entry over its leverage. */
export function positionMargin(position: PaperPositionState): Decimal {
  return position.amount.times(position.entryPrice).dividedBy(position.leverage);
}

export function unrealizedPnl(position: PaperPositionState, markPrice: Decimal): Decimal {
  return closingPnl(position, position.amount, markPrice);
}
