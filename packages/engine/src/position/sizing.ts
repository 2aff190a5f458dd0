// Order sizing: how much base asset a margin buys at a leverage and a price, rounded to what a
// market accepts. The backtest uses the raw amount (a simulation has no lot size); live execution
// rounds it down to the venue's step and checks its minimums.

/** What a market accepts, in base-asset quantity and quote value. */
export interface MarketLimits {
  /** Smallest base-asset quantity step (0: any). */
  readonly amountStep: number;
  /** Smallest order quantity; 0 when the venue sets none. */
  readonly minAmount: number;
  /** Smallest order value in quote; 0 when the venue sets none. */
  readonly minNotional: number;
}

export type Sizing =
  | { readonly ok: true; readonly amount: number }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Which minimum the order misses: its amount or its notional (amount × price). */
      readonly limit: 'amount' | 'notional';
      readonly value: number;
      readonly minimum: number;
    };

/** Base-asset amount of a position: margin × leverage / price (unrounded). */
export function positionAmount(margin: number, leverage: number, price: number): number {
  return (margin * leverage) / price;
}

/** Number of decimals of a step such as 0.001 or 1e-8. */
export function decimalsOf(step: number): number {
  const text = step.toString();
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}

/** `amount` rounded toward zero to a whole number of `step`s (sign kept). */
export function roundToStep(amount: number, step: number): number {
  const unit = step > 0 ? step : 1e-8;
  // The epsilon keeps 0.3 / 0.1 = 2.9999999999999996 from rounding down a whole step.
  const steps = Math.floor(Math.abs(amount) / unit + 1e-9);
  const rounded = Number((steps * unit).toFixed(decimalsOf(unit)));
  return amount < 0 ? -rounded : rounded;
}

/**
 * An order of (unsigned) `amount` at `price`, rounded down to the market's step, or why the
 * market would refuse it (below its minimum amount or notional).
 */
export function sizeAmount(amount: number, price: number, limits: MarketLimits): Sizing {
  const rounded = roundToStep(amount, limits.amountStep);
  if (rounded <= 0 || rounded < limits.minAmount) {
    return {
      ok: false,
      reason: `amount ${rounded} is below the minimum ${limits.minAmount}`,
      limit: 'amount',
      value: rounded,
      minimum: limits.minAmount,
    };
  }
  if (rounded * price < limits.minNotional) {
    const notional = Number((rounded * price).toFixed(2));
    return {
      ok: false,
      reason: `notional ${notional.toFixed(2)} is below the minimum ${limits.minNotional}`,
      limit: 'notional',
      value: notional,
      minimum: limits.minNotional,
    };
  }
  return { ok: true, amount: rounded };
}

/** Amount = margin × leverage / price, rounded DOWN to the market's step, minimums checked. */
export function sizeOrder(
  margin: number,
  leverage: number,
  price: number,
  limits: MarketLimits,
): Sizing {
  return sizeAmount(positionAmount(margin, leverage, price), price, limits);
}
