import { z } from 'zod';
import { webhookPosition } from './configs.js';
import {
  WEBHOOK_ACTIONS,
  WEBHOOK_BODY_MAX_BYTES,
  WEBHOOK_ERROR_CODES,
  WEBHOOK_EXECUTION_ACTIONS,
  WEBHOOK_IGNORE_REASONS,
  WEBHOOK_REFUSE_REASONS,
  WEBHOOK_SIGNAL_STATUSES,
} from './constants.js';

const money = z.string();

// TradingView webhook trading: the alert a configuration's URL receives, and the dry run.

// ---------------------------------------------------------------------------------------------
// The alert (receiver body) and the dry run
// ---------------------------------------------------------------------------------------------

/**
 * The alert body as documented (the receiver parses it leniently itself: JSON, or text
 * containing a JSON object; this schema is for documentation and clients).
 */
export const webhookAlert = z.object({
  action: z.enum(WEBHOOK_ACTIONS),
  /** BTC/USDT:USDT, BTCUSDT, BTCUSDT.P or BINANCE:BTCUSDT.P; optional when the config fixes one. */
  symbol: z.string().optional(),
  /** USDT margin; default the config's default_amount; ≤ max_amount. */
  amount: z.union([z.number(), z.string()]).optional(),
  /** Informational. */
  price: z.union([z.number(), z.string()]).optional(),
  /** Dedupe key: the same id is executed once. */
  id: z.string().optional(),
  /** ISO time or epoch seconds / milliseconds; refused when older than max_signal_age. */
  timestamp: z.union([z.string(), z.number()]).optional(),
});
export type WebhookAlert = z.infer<typeof webhookAlert>;

/** POST /api/webhook-trading/hook/{key}/ → 202. A repeat answers 202 with the first signal. */
export const webhookHookAccepted = z.object({
  signal_id: z.number().int(),
  status: z.enum(WEBHOOK_SIGNAL_STATUSES),
  duplicate: z.boolean(),
  message: z.string(),
});
export type WebhookHookAccepted = z.infer<typeof webhookHookAccepted>;

/**
 * The receiver's 400: `{error, code: 'signal_refused', reason, signal_id}` (the refusal is
 * recorded as a signal). 404 `{error, code: 'unknown_webhook_key'}`; 429 `{error, code:
 * 'rate_limited', retry_after}`.
 */
export const webhookHookRefused = z.object({
  error: z.string(),
  code: z.literal(WEBHOOK_ERROR_CODES.signalRefused),
  reason: z.enum(WEBHOOK_REFUSE_REASONS),
  signal_id: z.number().int().nullable(),
});
export type WebhookHookRefused = z.infer<typeof webhookHookRefused>;

/** The alert as understood (after normalisation). */
export const webhookParsedAlert = z.object({
  action: z.enum(WEBHOOK_ACTIONS).nullable(),
  /** Normalised: BTC/USDT:USDT. */
  symbol: z.string().nullable(),
  amount: money.nullable(),
  price: money.nullable(),
  external_id: z.string().nullable(),
  /** The alert's own time (ISO), null if none. */
  signal_time: z.string().nullable(),
});
export type WebhookParsedAlert = z.infer<typeof webhookParsedAlert>;

/** POST /webhook-trading/configs/{id}/test/: a body as TradingView would post it. */
export const webhookTestRequest = z.strictObject({
  /** The alert text (JSON or text containing JSON), or an alert object. */
  body: z.union([z.string().max(WEBHOOK_BODY_MAX_BYTES * 2), z.record(z.string(), z.unknown())]),
  /** Check the allowlist against this address (default: skip the address check). */
  source_ip: z.string().max(45).optional(),
});
export type WebhookTestRequest = z.input<typeof webhookTestRequest>;

/** What the signal would do now (dry run: nothing ordered, nothing recorded). */
export const webhookPlanStep = z.object({
  action: z.enum(WEBHOOK_EXECUTION_ACTIONS),
  /** Base quantity (decimal string), signed positive; for closes the position's size. */
  quantity: money,
  side: z.enum(['buy', 'sell']),
  reduce_only: z.boolean(),
});
export const webhookTestResponse = z.object({
  /** Would the receiver accept it (202)? */
  accepted: z.boolean(),
  /** validated, refused or ignored. */
  outcome: z.enum(['validated', 'refused', 'ignored']),
  reason: z.enum([...WEBHOOK_REFUSE_REASONS, ...WEBHOOK_IGNORE_REASONS]).nullable(),
  message: z.string(),
  parsed: webhookParsedAlert,
  /** Margin (USDT) × leverage ÷ price at the current market price. */
  amount: money.nullable(),
  leverage: z.number().int(),
  market_price: money.nullable(),
  notional: money.nullable(),
  /** The orders it would send (empty when refused or ignored). */
  plan: z.array(webhookPlanStep),
  position: webhookPosition.nullable(),
});
export type WebhookTestResponse = z.infer<typeof webhookTestResponse>;
