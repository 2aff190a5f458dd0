import type { PositionMode } from '@quantsquare/contracts';
import {
  grossPnlDecimal,
  hitProtective,
  type ProtectiveHitOut,
  slippedPriceDecimal,
  unrealizedPnl,
} from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { ExchangeAdapterError, type OrderSide, type PositionSide } from '../exchange-client.js';

// The pure rules of the paper exchange: which position a market fill closes or opens, at what
// price, for what fee and realised P&L; when the feed's prices reach a resting order. No I/O;
// the client loads the state and writes the outcome.

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

/** Profit of closing `amount` of a position at `price` (the engine's P&L rule). */
function closingPnl(position: PaperPositionState, amount: Decimal, price: Decimal): Decimal {
  return grossPnlDecimal(position.side === 'long' ? 1 : -1, amount, position.entryPrice, price);
}

export function planMarketFill(input: MarketFillInput): MarketFillOutcome {
  if (!input.amount.isFinite() || input.amount.lte(0)) {
    throw new ExchangeAdapterError('invalid_order', 'Order amount must be positive');
  }
  // Buyers pay above the feed's price, sellers receive below it.
  const fillPrice = slippedPriceDecimal(
    input.marketPrice,
    input.side === 'buy',
    input.slippageRate.times(10_000),
  );
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

/** The engine's unrealised P&L of a paper position (side and amount as a signed size). */
export function paperUnrealizedPnl(position: PaperPositionState, markPrice: Decimal): Decimal {
  const size = position.side === 'long' ? position.amount : position.amount.negated();
  return unrealizedPnl({ size, entryPrice: position.entryPrice }, markPrice);
}

/** A resting order as the feed's prices trigger it. */
export interface RestingOrder {
  readonly side: OrderSide;
  readonly type: 'limit' | 'stop_market' | 'take_profit_market';
  /** Limit price (limit orders). */
  readonly price: number | null;
  /** Trigger price (stop and take-profit orders). */
  readonly triggerPrice: number | null;
}

/** One candle as seen by a resting order; partial when the order was placed inside it. */
export interface RestingWindow {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  /** The candle began before the order rested (or before its last check): no gap at the open. */
  readonly isPartial: boolean;
}

/** Stops first, then take-profits, then limits: when one candle reaches several, SL comes first. */
export const RESTING_ORDER_RANK: Readonly<Record<RestingOrder['type'], number>> = {
  stop_market: 0,
  take_profit_market: 1,
  limit: 2,
};

/**
 * The price at which a resting order fills inside `window`, or null when the window does not
 * reach it. Stop and take-profit orders follow the engine's hit rule (a sell stop protects a
 * long: it triggers when the low reaches it; a candle opening beyond the level fills at the
 * open), and fill as market orders (the caller adds slippage). A limit fills at its price, or at
 * a better open.
 */
export function restingFillPrice(order: RestingOrder, window: RestingWindow): number | null {
  if (order.type === 'limit') {
    const limit = order.price;
    if (limit === null) return null;
    const touched = order.side === 'buy' ? window.low <= limit : window.high >= limit;
    if (!touched) return null;
    if (window.isPartial) return limit;
    return order.side === 'buy' ? Math.min(window.open, limit) : Math.max(window.open, limit);
  }
  const trigger = order.triggerPrice;
  if (trigger === null) return null;
  const out: ProtectiveHitOut = { reason: 'stop_loss', price: 0 };
  // A sell closes a long (direction 1), a buy closes a short.
  const direction = order.side === 'sell' ? 1 : -1;
  const isStop = order.type === 'stop_market';
  const isHit = hitProtective(
    out,
    direction,
    isStop ? trigger : Number.NaN,
    isStop ? Number.NaN : trigger,
    window.open,
    window.high,
    window.low,
  );
  if (!isHit) return null;
  return window.isPartial ? trigger : out.price;
}
