import { z } from 'zod';
import { codeSchema, decimal } from './common.js';
import { EXCHANGES } from './limits.js';

// Exchange API accounts (document 1 §2 "API management", §3 "Exchange API", §7 /auth/apis/) and
// the account overview (§2 "Account overview", §3 "Exchange account (overview)").

export const ACCOUNT_TYPES = ['classic', 'unified'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
/** `net` is shown as one-way. */
export const POSITION_MODES = ['hedge', 'net'] as const;
export type PositionMode = (typeof POSITION_MODES)[number];

export const LEVERAGE_MIN = 1;
export const LEVERAGE_MAX = 125;
export const ACCOUNT_NAME_MAX_LENGTH = 50;
export const API_CREDENTIAL_MAX_LENGTH = 256;
export const PAPER_BALANCE_DEFAULT = 10_000;
/** A paper account's virtual USDT: 100 to 100,000,000, in steps of 0.01. */
export const PAPER_BALANCE_MIN = 100;
export const PAPER_BALANCE_MAX = 100_000_000;
export const PAPER_BALANCE_STEP = 0.01;
/**
 * Every new user's paper "experience account" (the welcome pop-up's new-user bonus), created with
 * the user and flagged `is_experience`; the web labels it in the reader's language.
 */
export const EXPERIENCE_ACCOUNT_BALANCE = 10_000;
export const EXPERIENCE_ACCOUNT_NAME = 'Experience account';
/** The account overview and its balance chart (document 1 §9). */
export const ACCOUNT_OVERVIEW_REFRESH_MS = 30_000;
export const BALANCE_CHART_POINTS = 30;

/** The kinds of exchange failure (the server's adapter errors), answered as `error_kind`. */
export const EXCHANGE_ERROR_KINDS = [
  'invalid_key',
  'insufficient_funds',
  'invalid_order',
  'rate_limited',
  'unavailable',
  'unknown_outcome',
] as const;
export type ExchangeErrorKindCode = (typeof EXCHANGE_ERROR_KINDS)[number];
const errorKind = z.enum(EXCHANGE_ERROR_KINDS);

/**
 * What each kind of exchange failure says to the user: the server's error texts (followed by the
 * exchange's own detail) and the web's English for the same kinds.
 */
export const EXCHANGE_ERROR_MESSAGES = {
  invalid_key: 'Invalid API key or permissions',
  insufficient_funds: 'Insufficient funds on the exchange account',
  invalid_order: 'The exchange refused the request',
  rate_limited: 'Too many requests to the exchange, try again later',
  unavailable: 'Exchange unavailable, try again later',
  unknown_outcome: 'The exchange did not answer in time, try again later',
} as const;

const credential = z
  .string()
  .trim()
  .min(1, { message: 'This field is required' })
  .max(API_CREDENTIAL_MAX_LENGTH);
// JSON bodies are never coerced: `true`, `[5]` or `"5"` are not a leverage.
const leverage = z
  .number()
  .int({ message: 'Leverage must be a whole number' })
  .min(LEVERAGE_MIN, { message: `Leverage must be between ${LEVERAGE_MIN} and ${LEVERAGE_MAX}` })
  .max(LEVERAGE_MAX, { message: `Leverage must be between ${LEVERAGE_MIN} and ${LEVERAGE_MAX}` });

/**
 * POST /auth/apis/. Live accounts need api_key and api_secret, OKX also api_password (its
 * passphrase); api_password is dropped for other exchanges. Paper accounts (`is_paper`) need no
 * keys and start with `paper_balance` virtual USDT. Cross-field rules are checked by the server
 * and answered as field errors.
 */
export const exchangeApiCreateRequest = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: 'This field is required' })
    .max(ACCOUNT_NAME_MAX_LENGTH),
  exchange: z.enum(EXCHANGES),
  account_type: z.enum(ACCOUNT_TYPES).default('classic'),
  api_key: credential.optional(),
  api_secret: credential.optional(),
  api_password: z.string().trim().max(API_CREDENTIAL_MAX_LENGTH).optional(),
  is_testnet: z.boolean().default(false),
  is_paper: z.boolean().default(false),
  position_mode: z.enum(POSITION_MODES).default('hedge'),
  default_leverage: leverage,
  paper_balance: z
    .number()
    .min(PAPER_BALANCE_MIN, { message: `Paper balance must be at least ${PAPER_BALANCE_MIN} USDT` })
    .max(PAPER_BALANCE_MAX, { message: `Paper balance must be at most ${PAPER_BALANCE_MAX} USDT` })
    .multipleOf(PAPER_BALANCE_STEP, { message: 'At most two decimals' })
    .optional(),
  is_active: z.boolean().default(true),
  /** The authenticator code: required for a live key when the user has 2FA on (step-up). */
  google_code: codeSchema.optional(),
});
export type ExchangeApiCreateRequest = z.infer<typeof exchangeApiCreateRequest>;

/** PATCH /auth/apis/{id}/: the editable fields, each optional; new keys replace the stored ones. */
export const exchangeApiUpdateRequest = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: 'This field is required' })
    .max(ACCOUNT_NAME_MAX_LENGTH)
    .optional(),
  account_type: z.enum(ACCOUNT_TYPES).optional(),
  api_key: credential.optional(),
  api_secret: credential.optional(),
  api_password: z.string().trim().max(API_CREDENTIAL_MAX_LENGTH).optional(),
  is_testnet: z.boolean().optional(),
  position_mode: z.enum(POSITION_MODES).optional(),
  default_leverage: leverage.optional(),
  is_active: z.boolean().optional(),
  /** The authenticator code: required for new keys when the user has 2FA on (step-up). */
  google_code: codeSchema.optional(),
});
export type ExchangeApiUpdateRequest = z.infer<typeof exchangeApiUpdateRequest>;

/** A bot on an exchange API, for the delete confirmation (what deleting the API takes along). */
export const exchangeApiBot = z.object({
  id: z.number().int(),
  symbol: z.string(),
  status: z.enum(['created', 'stopped', 'running', 'error']),
  /** The bot holds a position: deleting the API closes it first (through the bot engine). */
  has_open_position: z.boolean(),
});
export type ExchangeApiBot = z.infer<typeof exchangeApiBot>;

/**
 * An exchange API account as answered: the key masked (first 4 … last 4), never a secret.
 * `is_active` is the status the spec shows as normal / abnormal: the user's switch
 * (`is_enabled`, set by PATCH `is_active`) and the last check (test, validate, balance, the
 * overview's load) did not fail.
 */
export const exchangeApi = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  account_type: z.enum(ACCOUNT_TYPES),
  is_testnet: z.boolean(),
  is_paper: z.boolean(),
  position_mode: z.enum(POSITION_MODES),
  default_leverage: z.number().int(),
  is_active: z.boolean(),
  /** The user's on/off switch as stored (PATCH `is_active` sets it). */
  is_enabled: z.boolean(),
  /** Every new user's paper account with EXPERIENCE_ACCOUNT_BALANCE virtual USDT. */
  is_experience: z.boolean(),
  /** Masked, e.g. "abcd…wxyz"; null for paper accounts. */
  api_key: z.string().nullable(),
  has_api_password: z.boolean(),
  /** Virtual USDT of a paper account (decimal string); null for live accounts. */
  paper_balance: z.string().nullable(),
  /** The last error reaching the exchange (English, with the exchange's detail), cleared by the next success. */
  last_error: z.string().nullable(),
  /** The kind of that error: the web says it in the reader's language, `last_error` on demand. */
  last_error_kind: errorKind.nullable(),
  /** When the account was last checked (test, validate, balance, overview); null: never. */
  last_checked_at: z.string().nullable(),
  /** Whether that check succeeded; null: never checked. */
  last_check_ok: z.boolean().nullable(),
  /** The bots on this account (oldest first). */
  bots: z.array(exchangeApiBot),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ExchangeApi = z.infer<typeof exchangeApi>;
export const exchangeApiList = z.object({ results: z.array(exchangeApi), count: z.number().int() });
export type ExchangeApiList = z.infer<typeof exchangeApiList>;

/**
 * DELETE /auth/apis/{id}/: refused (400 `bot_running`, 'Please stop the bot before deleting',
 * `running_bots`) while a bot of the account runs. Otherwise the positions of its stopped bots
 * are closed through the bot engine (each logged; a failure answers 400
 * `position_close_failed` with `error_kind` and deletes nothing), then the account and its
 * bots are deleted in one transaction, each bot logged as `bot_deleted`. Copies end with it:
 * those copying with the account stop and their positions are closed (a failed close refuses
 * the deletion likewise); those copying it stop for their followers, their positions closed.
 */
export const exchangeApiDeleteResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  deleted_bots: z.array(z.object({ id: z.number().int(), symbol: z.string() })),
  closed_positions: z.array(z.object({ bot_id: z.number().int(), symbol: z.string() })),
  /** Webhook configurations' positions on the account, closed before it was deleted. */
  closed_webhook_positions: z
    .array(z.object({ config_id: z.number().int(), symbol: z.string() }))
    .optional(),
  /** Copied positions closed because the copies the account drove ended with it. */
  closed_copy_positions: z
    .array(z.object({ relation_id: z.number().int(), symbol: z.string() }))
    .optional(),
});
export type ExchangeApiDeleteResponse = z.infer<typeof exchangeApiDeleteResponse>;

/**
 * Answers of test_connection, validate and balance. On failure `error_kind` names the kind
 * (the web shows its own text) and `message` is the English text with the exchange's detail.
 */
export const connectionTestResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  error_kind: errorKind.nullable(),
});
export type ConnectionTestResponse = z.infer<typeof connectionTestResponse>;

/** What the exchange tells about the key; null where it does not say. */
export const keyPermissions = z.object({
  can_trade: z.boolean().nullable(),
  can_withdraw: z.boolean().nullable(),
  ip_restricted: z.boolean().nullable(),
});
export const validateResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  error_kind: errorKind.nullable(),
  permissions: keyPermissions,
  /** E.g. a key that can withdraw: we recommend a trade-only key with an IP allowlist. */
  warnings: z.array(z.string()),
});
export type ValidateResponse = z.infer<typeof validateResponse>;

/** Amounts of one currency: decimal strings, as all money in answers. */
export const currencyBalance = z.object({ total: decimal, free: decimal, used: decimal });
export type CurrencyBalance = z.infer<typeof currencyBalance>;
export const balanceResponse = z.object({
  success: z.boolean(),
  balance: z.record(z.string(), currencyBalance),
  message: z.string(),
  error_kind: errorKind.nullable(),
});
export type BalanceResponse = z.infer<typeof balanceResponse>;

export const accountPosition = z.object({
  id: z.string(),
  symbol: z.string(),
  side: z.enum(['long', 'short']),
  /** Unrealised P&L in USDT (decimal string). */
  pnl: decimal,
  contracts: z.number(),
  entry_price: decimal,
  mark_price: decimal.nullable(),
  leverage: z.number().nullable(),
});
export type AccountPosition = z.infer<typeof accountPosition>;

export const balanceSnapshot = z.object({
  time: z.string(),
  balance: decimal,
  daily_pnl: decimal,
});
export type BalanceSnapshot = z.infer<typeof balanceSnapshot>;

export const accountOverview = z.object({
  id: z.number().int(),
  name: z.string(),
  exchange: z.enum(EXCHANGES),
  account_type: z.enum(ACCOUNT_TYPES),
  is_testnet: z.boolean(),
  is_paper: z.boolean(),
  position_mode: z.enum(POSITION_MODES),
  default_leverage: z.number().int(),
  /** Enabled and this load (the account's latest check) succeeded; counted active. */
  is_active: z.boolean(),
  is_enabled: z.boolean(),
  is_experience: z.boolean(),
  /** USDT; null when the account could not be loaded (see `error`). */
  balance: currencyBalance.nullable(),
  daily_pnl: decimal,
  daily_pnl_percent: z.number(),
  positions: z.array(accountPosition),
  /** Oldest first, at most BALANCE_CHART_POINTS unless asked otherwise. */
  snapshots: z.array(balanceSnapshot),
  /** English text with the exchange's detail when this load failed. */
  error: z.string().nullable(),
  /** The kind of that failure (the web's text), null when it loaded. */
  error_kind: errorKind.nullable(),
  last_checked_at: z.string().nullable(),
});
export type AccountOverview = z.infer<typeof accountOverview>;

export const accountsOverviewResponse = z.object({
  accounts: z.array(accountOverview),
  total: z.object({
    balance: decimal,
    daily_pnl: decimal,
    daily_pnl_percent: z.number(),
    /** Accounts answered with `is_active`. */
    active_count: z.number().int(),
  }),
});
export type AccountsOverviewResponse = z.infer<typeof accountsOverviewResponse>;
