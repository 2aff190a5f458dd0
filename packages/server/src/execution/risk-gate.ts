import { RISK_LIMITS, type RiskRefusalReason, type RiskState } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';

// The risk gate's decision (pure, table-tested): whether an intent may be written. Only what an
// order opens is judged; closes and reductions always pass, whatever the state, so a halted
// account can always get flat.

/** The account's limits and state as the core reads them (null limits: none). */
export interface AccountRiskView {
  readonly state: RiskState;
  readonly maxOrderNotional: string | null;
  readonly maxOpenNotional: string | null;
}

export interface GateInput {
  /** Null: the account has no risk settings (active, no limits, no price guard). */
  readonly risk: AccountRiskView | null;
  /** Base amount of the order's opening legs (0: the order only closes or reduces). */
  readonly openingAmount: Decimal;
  /** The price the opening is valued at (the owner's reference, else the venue's). */
  readonly price: number | null;
  /** USDT notional of every owner's open positions on the account (at their entry prices). */
  readonly openNotional: Decimal;
  readonly isMarket: boolean;
  /** The venue's last price and whether it is fresh (null: not known). */
  readonly venue: { readonly price: number; readonly isFresh: boolean } | null;
  /** The price the owner decided on (its reference price), when it gave one. */
  readonly referencePrice: number | null;
}

export type GateDecision =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly kind: 'risk_halted' | 'risk_limit';
      readonly reason: RiskRefusalReason;
      readonly message: string;
    };

const refuse = (
  kind: 'risk_halted' | 'risk_limit',
  reason: RiskRefusalReason,
  message: string,
): GateDecision => ({ ok: false, kind, reason, message });

export function decideGate(input: GateInput): GateDecision {
  const { risk } = input;
  if (risk === null || input.openingAmount.lte(0)) return { ok: true };
  if (risk.state !== 'active') {
    return refuse('risk_halted', 'halted', `the account is ${risk.state}: openings are refused`);
  }
  if (input.isMarket) {
    if (input.venue !== null && !input.venue.isFresh) {
      return refuse('risk_limit', 'stale_price', 'the venue price is stale');
    }
    if (input.venue !== null && input.referencePrice !== null && input.venue.price > 0) {
      const deviationPct = new Decimal(input.referencePrice)
        .minus(input.venue.price)
        .abs()
        .dividedBy(input.venue.price)
        .times(100);
      if (deviationPct.gt(RISK_LIMITS.maxPriceDeviationPct)) {
        return refuse(
          'risk_limit',
          'price_deviation',
          `the order's price ${input.referencePrice} differs from the venue's ${input.venue.price} by ${deviationPct.toFixed(2)} %`,
        );
      }
    }
  }
  const price = input.price;
  if (price === null || !(price > 0)) {
    // Without any price the notional limits cannot be checked: refused rather than guessed.
    if (risk.maxOrderNotional !== null || risk.maxOpenNotional !== null) {
      return refuse('risk_limit', 'stale_price', 'no price to value the order against its limits');
    }
    return { ok: true };
  }
  const orderNotional = input.openingAmount.times(price);
  if (risk.maxOrderNotional !== null && orderNotional.gt(risk.maxOrderNotional)) {
    return refuse(
      'risk_limit',
      'max_order_notional',
      `order notional ${orderNotional.toFixed(2)} USDT is above the limit ${risk.maxOrderNotional}`,
    );
  }
  if (
    risk.maxOpenNotional !== null &&
    input.openNotional.plus(orderNotional).gt(risk.maxOpenNotional)
  ) {
    return refuse(
      'risk_limit',
      'max_open_notional',
      `open notional would reach ${input.openNotional.plus(orderNotional).toFixed(2)} USDT, above the limit ${risk.maxOpenNotional}`,
    );
  }
  return { ok: true };
}
