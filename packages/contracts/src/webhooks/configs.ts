import { z } from 'zod';
import { codeSchema, ID_MAX } from '../common.js';
import { EXCHANGES } from '../limits.js';
import { coinAmountInput } from '../wallet.js';
import {
  WEBHOOK_ACTIONS,
  WEBHOOK_AMOUNT_DEFAULT,
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_BATCH_ACTIONS,
  WEBHOOK_BATCH_MAX,
  WEBHOOK_IP_ALLOWLIST_MAX,
  WEBHOOK_LEVERAGE_DEFAULT,
  WEBHOOK_LEVERAGE_MAX,
  WEBHOOK_LEVERAGE_MIN,
  WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
  WEBHOOK_MAX_SIGNAL_AGE_MAX,
  WEBHOOK_MAX_SIGNAL_AGE_MIN,
  WEBHOOK_MESSAGES,
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_SIGNAL_STATUSES,
} from './constants.js';

// TradingView webhook trading: a configuration's requests and answers.

// ---------------------------------------------------------------------------------------------
// Configurations
// ---------------------------------------------------------------------------------------------

const money = z.string();
const amountInput = coinAmountInput(WEBHOOK_MESSAGES.invalidAmount).refine(
  (text) => Number(text) >= WEBHOOK_AMOUNT_MIN,
  { message: WEBHOOK_MESSAGES.amountTooSmall, params: { code: 'too_small' } },
);
const nameInput = z
  .string({ error: WEBHOOK_MESSAGES.nameRequired })
  .trim()
  .min(1, { message: WEBHOOK_MESSAGES.nameRequired })
  .max(WEBHOOK_NAME_MAX_LENGTH, { message: WEBHOOK_MESSAGES.nameTooLong });
/** null = taken from each alert. The server normalises it to BTC/USDT:USDT. */
const symbolInput = z
  .string()
  .trim()
  .min(1, { message: WEBHOOK_MESSAGES.invalidSymbol })
  .max(40, { message: WEBHOOK_MESSAGES.invalidSymbol })
  .nullable();
const leverageInput = z
  .number({ error: WEBHOOK_MESSAGES.leverageRange })
  .int({ message: WEBHOOK_MESSAGES.leverageRange })
  .min(WEBHOOK_LEVERAGE_MIN, { message: WEBHOOK_MESSAGES.leverageRange })
  .max(WEBHOOK_LEVERAGE_MAX, { message: WEBHOOK_MESSAGES.leverageRange });
const actionsInput = z
  .array(z.enum(WEBHOOK_ACTIONS))
  .min(1, { message: WEBHOOK_MESSAGES.actionsRequired })
  .max(WEBHOOK_ACTIONS.length);
const maxAgeInput = z
  .number({ error: WEBHOOK_MESSAGES.maxAgeRange })
  .int({ message: WEBHOOK_MESSAGES.maxAgeRange })
  .min(WEBHOOK_MAX_SIGNAL_AGE_MIN, { message: WEBHOOK_MESSAGES.maxAgeRange })
  .max(WEBHOOK_MAX_SIGNAL_AGE_MAX, { message: WEBHOOK_MESSAGES.maxAgeRange });
/** Empty = any source address. Entries: IPv4 or IPv6 addresses (the server checks the format). */
const ipAllowlistInput = z
  .array(z.string().trim().min(1).max(45))
  .max(WEBHOOK_IP_ALLOWLIST_MAX, { message: WEBHOOK_MESSAGES.tooManyIps });

/** POST /webhook-trading/configs/ */
export const webhookConfigCreateRequest = z.strictObject({
  name: nameInput,
  /** The exchange account id (the user's own, active). */
  exchange_api: z.number({ error: WEBHOOK_MESSAGES.accountRequired }).int().positive().max(ID_MAX),
  symbol: symbolInput.default(null),
  default_amount: amountInput.default(String(WEBHOOK_AMOUNT_DEFAULT)),
  /** null = no cap beyond WEBHOOK_AMOUNT_MAX; else ≥ default_amount. */
  max_amount: amountInput.nullable().default(null),
  leverage: leverageInput.default(WEBHOOK_LEVERAGE_DEFAULT),
  allowed_actions: actionsInput.default([...WEBHOOK_ACTIONS]),
  /** buy while long (sell while short) adds to the position. */
  allow_pyramiding: z.boolean().default(false),
  max_signal_age: maxAgeInput.default(WEBHOOK_MAX_SIGNAL_AGE_DEFAULT),
  ip_allowlist: ipAllowlistInput.default([]),
  enabled: z.boolean().default(true),
});
export type WebhookConfigCreateRequest = z.input<typeof webhookConfigCreateRequest>;

/** PATCH /webhook-trading/configs/{id}/ (any subset). */
export const webhookConfigUpdateRequest = z.strictObject({
  name: nameInput.optional(),
  exchange_api: z.number().int().positive().max(ID_MAX).optional(),
  symbol: symbolInput.optional(),
  default_amount: amountInput.optional(),
  max_amount: amountInput.nullable().optional(),
  leverage: leverageInput.optional(),
  allowed_actions: actionsInput.optional(),
  allow_pyramiding: z.boolean().optional(),
  max_signal_age: maxAgeInput.optional(),
  ip_allowlist: ipAllowlistInput.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookConfigUpdateRequest = z.input<typeof webhookConfigUpdateRequest>;

/** The configuration's position as the execution core's book holds it. */
export const webhookPosition = z.object({
  symbol: z.string(),
  /** Signed base quantity (decimal string): positive long, negative short. */
  size: money,
  side: z.enum(['long', 'short']),
  entry_price: money,
  realized_pnl: money,
});
export type WebhookPosition = z.infer<typeof webhookPosition>;

/** A configuration as every call answers it. */
export const webhookConfig = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange_api: z.number().int(),
  exchange_api_name: z.string(),
  exchange: z.enum(EXCHANGES),
  is_testnet: z.boolean(),
  symbol: z.string().nullable(),
  default_amount: money,
  max_amount: money.nullable(),
  leverage: z.number().int(),
  allowed_actions: z.array(z.enum(WEBHOOK_ACTIONS)),
  allow_pyramiding: z.boolean(),
  max_signal_age: z.number().int(),
  ip_allowlist: z.array(z.string()),
  enabled: z.boolean(),
  /**
   * The full receiver URL with its key in the create and regenerate-key answers only
   * (`key_visible: true`); afterwards masked: …/hook/abcd…wxyz/ (`key_visible: false`).
   */
  webhook_url: z.string(),
  key_visible: z.boolean(),
  /** The key's last 4 characters (to tell URLs apart). */
  key_hint: z.string(),
  key_created_at: z.string(),
  signal_count: z.number().int(),
  last_signal_at: z.string().nullable(),
  last_signal_status: z.enum(WEBHOOK_SIGNAL_STATUSES).nullable(),
  /** Open positions of this configuration (from the execution core's book). */
  positions: z.array(webhookPosition),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookConfig = z.infer<typeof webhookConfig>;

/** GET /webhook-trading/configs/ */
export const webhookConfigListResponse = z.object({
  results: z.array(webhookConfig),
  count: z.number().int(),
});
export type WebhookConfigListResponse = z.infer<typeof webhookConfigListResponse>;

/**
 * POST /webhook-trading/configs/{id}/regenerate-key/: no body, or the authenticator code when
 * the user has 2FA on (step-up). Answers the config, URL in full.
 */
export const webhookRegenerateKeyRequest = z
  .strictObject({ google_code: codeSchema.optional() })
  .nullish();
export type WebhookRegenerateKeyRequest = z.infer<typeof webhookRegenerateKeyRequest>;
export const webhookRegenerateKeyResponse = webhookConfig;

/** POST /webhook-trading/configs/batch-action/ */
export const webhookBatchActionRequest = z.strictObject({
  ids: z
    .array(z.number().int().positive().max(ID_MAX))
    .min(1, { message: WEBHOOK_MESSAGES.batchEmpty })
    .max(WEBHOOK_BATCH_MAX),
  action: z.enum(WEBHOOK_BATCH_ACTIONS),
});
export type WebhookBatchActionRequest = z.input<typeof webhookBatchActionRequest>;
/** `updated`: ids acted on; `not_found`: ids that are not the user's (nothing done to them). */
export const webhookBatchActionResponse = z.object({
  action: z.enum(WEBHOOK_BATCH_ACTIONS),
  updated: z.array(z.number().int()),
  not_found: z.array(z.number().int()),
});
export type WebhookBatchActionResponse = z.infer<typeof webhookBatchActionResponse>;

/** DELETE /webhook-trading/configs/{id}/ answers 204 (open positions stay on the account). */
