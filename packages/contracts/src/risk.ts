import { z } from 'zod';

// The risk gate and kill switch of an exchange account: its limits (GET/PUT
// /api/trading/accounts/{id}/risk/), the user's halt and resume, and the state the execution
// core checks before every opening order. Money in answers is a decimal string (USDT).

export const RISK_STATES = ['active', 'reducing', 'halted'] as const;
export type RiskState = (typeof RISK_STATES)[number];

/** Why an account is not active: its user's kill switch, or the limit that tripped. */
export const RISK_STATE_REASONS = ['user', 'daily_loss', 'trailing_drawdown'] as const;
export type RiskStateReason = (typeof RISK_STATE_REASONS)[number];

/** What a breach does: stop openings (halt), or close every position and then halt. */
export const RISK_ON_BREACH = ['halt', 'close_all'] as const;
export type RiskOnBreach = (typeof RISK_ON_BREACH)[number];

/** Why the gate refused an opening order (the drivers show it: a bot's stop, a copy's pause). */
export const RISK_REFUSAL_REASONS = [
  /** The account is halted or reducing: openings wait for its resume. */
  'halted',
  'max_order_notional',
  'max_open_notional',
  /** A market order while the venue's price is stale. */
  'stale_price',
  /** A market order whose price differs from the venue's last price by more than 5 %. */
  'price_deviation',
] as const;
export type RiskRefusalReason = (typeof RISK_REFUSAL_REASONS)[number];

export const RISK_LIMITS = {
  notionalMax: 1_000_000_000,
  dailyLossPct: { min: 0.5, max: 50 },
  trailingDrawdownPct: { min: 1, max: 90 },
  /** A market order is refused when its price and the venue's differ by more than this. */
  maxPriceDeviationPct: 5,
} as const;

const notional = z.number().positive().max(RISK_LIMITS.notionalMax).nullable();

export const riskSettingsRequest = z.strictObject({
  max_order_notional: notional,
  max_open_notional: notional,
  daily_loss_limit_pct: z
    .number()
    .min(RISK_LIMITS.dailyLossPct.min)
    .max(RISK_LIMITS.dailyLossPct.max)
    .nullable(),
  trailing_drawdown_pct: z
    .number()
    .min(RISK_LIMITS.trailingDrawdownPct.min)
    .max(RISK_LIMITS.trailingDrawdownPct.max)
    .nullable(),
  on_breach: z.enum(RISK_ON_BREACH),
});
export type RiskSettingsRequest = z.infer<typeof riskSettingsRequest>;

export const riskSettings = z.object({
  account_id: z.number().int(),
  max_order_notional: z.string().nullable(),
  max_open_notional: z.string().nullable(),
  daily_loss_limit_pct: z.number().nullable(),
  trailing_drawdown_pct: z.number().nullable(),
  on_breach: z.enum(RISK_ON_BREACH),
  state: z.enum(RISK_STATES),
  state_reason: z.enum(RISK_STATE_REASONS).nullable(),
  /** The highest equity since the trailing drawdown was set or last reset (null: not read yet). */
  peak_equity: z.string().nullable(),
  /** When the state last changed (null: never). */
  since: z.string().nullable(),
});
export type RiskSettings = z.infer<typeof riskSettings>;
