import type { PositionMode } from '@quantsquare/contracts';
import { roundToStep, type Sizing, sizeAmount } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { MarketFacts, OrderSide, PositionSide } from '../exchange/exchange-client.js';
import type { OrderLeg } from './client-order-id.js';
import type { IntentSize } from './execution.types.js';

// What an intent sends, decided from the owner's position and the account's net position on the
// symbol (pure; the lane calls it with the book as it is when the account's turn comes).

export interface PlannedLeg {
  readonly leg: OrderLeg;
  readonly side: OrderSide;
  /** Base-asset quantity, positive, on the market's step. */
  readonly amount: number;
  readonly reduceOnly: boolean;
  /** Adds to the owner's exposure (the risk gate judges these; closes always pass). */
  readonly opens: boolean;
  /** Hedge-mode accounts: the side of the position the order belongs to. */
  readonly positionSide: PositionSide | undefined;
}

export type OrderPlan =
  | { readonly kind: 'noop' }
  | { readonly kind: 'skipped'; readonly sizing: Extract<Sizing, { ok: false }> }
  | { readonly kind: 'send'; readonly legs: readonly PlannedLeg[] };

export interface PlanInput {
  readonly size: IntentSize;
  /** The owner's signed position. */
  readonly own: Decimal;
  /** The signed sum of every owner's position on this account and symbol (own included). */
  readonly accountNet: Decimal;
  readonly facts: MarketFacts;
  readonly positionMode: PositionMode;
  readonly referencePrice: number | undefined;
}

const sideOf = (direction: number): PositionSide => (direction > 0 ? 'long' : 'short');

/**
 * A close may be sent reduce-only only when the account's net position covers it: with two
 * owners holding opposite positions on a one-way account the exchange holds their difference,
 * and a reduce-only close of the larger would be refused or cut short. Hedge accounts keep the
 * owners' sides apart at the exchange, so a close there is always reduce-only.
 */
function closesReduceOnly(input: PlanInput, direction: number, amount: Decimal): boolean {
  if (input.positionMode === 'hedge') return true;
  const net = input.accountNet;
  return net.isNegative() === direction < 0 && !net.isZero() && net.abs().gte(amount);
}

function minimumOf(input: PlanInput, amount: number, isOpening: boolean): Sizing {
  if (isOpening && input.referencePrice !== undefined) {
    return sizeAmount(amount, input.referencePrice, input.facts);
  }
  // Closing never meets a notional minimum (reduce-only orders are exempt); the amount one holds.
  const rounded = roundToStep(amount, input.facts.amountStep);
  if (rounded <= 0 || (isOpening && rounded < input.facts.minAmount)) {
    return {
      ok: false,
      reason: `amount ${rounded} is below the minimum ${input.facts.minAmount}`,
      limit: 'amount',
      value: rounded,
      minimum: input.facts.minAmount,
    };
  }
  return { ok: true, amount: rounded };
}

export function planOrder(input: PlanInput): OrderPlan {
  const own = input.own;
  const target =
    input.size.kind === 'close'
      ? new Decimal(0)
      : input.size.kind === 'target'
        ? new Decimal(input.size.amount)
        : own.plus(input.size.amount);
  const delta = target.minus(own);
  if (delta.isZero()) return { kind: 'noop' };
  const ownDirection = own.isZero() ? 0 : own.isNegative() ? -1 : 1;
  const targetDirection = target.isZero() ? 0 : target.isNegative() ? -1 : 1;
  const hedgeSide = (direction: number) =>
    input.positionMode === 'hedge' ? sideOf(direction) : undefined;

  const reduceLeg = (leg: OrderLeg, amount: number): PlannedLeg => ({
    leg,
    side: ownDirection > 0 ? 'sell' : 'buy',
    amount,
    reduceOnly: closesReduceOnly(input, ownDirection, new Decimal(amount)),
    opens: false,
    positionSide: hedgeSide(ownDirection),
  });
  const openLeg = (leg: OrderLeg, amount: number): PlannedLeg => ({
    leg,
    side: targetDirection > 0 ? 'buy' : 'sell',
    amount,
    reduceOnly: false,
    opens: true,
    positionSide: hedgeSide(targetDirection),
  });

  // Flat: open the target.
  if (ownDirection === 0) {
    const sizing = minimumOf(input, delta.abs().toNumber(), true);
    return sizing.ok
      ? { kind: 'send', legs: [openLeg('', sizing.amount)] }
      : { kind: 'skipped', sizing };
  }
  // Same direction: add to the position, or reduce it (a partial close, on the market's step).
  if (targetDirection === ownDirection) {
    const isAdding = target.abs().gt(own.abs());
    const sizing = minimumOf(input, delta.abs().toNumber(), isAdding);
    if (!sizing.ok) return { kind: 'skipped', sizing };
    return {
      kind: 'send',
      legs: [isAdding ? openLeg('', sizing.amount) : reduceLeg('', sizing.amount)],
    };
  }
  // Flat target: close exactly what is held.
  const held = own.abs().toNumber();
  if (targetDirection === 0) return { kind: 'send', legs: [reduceLeg('', held)] };
  // Reversal: close what is held, then open the other side (alone when that side is too small).
  const sizing = minimumOf(input, target.abs().toNumber(), true);
  if (!sizing.ok) return { kind: 'send', legs: [reduceLeg('', held)] };
  return { kind: 'send', legs: [reduceLeg('R', held), openLeg('O', sizing.amount)] };
}
