import { z } from 'zod';
import { EXCHANGE_ERROR_KINDS } from './accounts.js';
import { codeSchema, ID_MAX, idSchema } from './common.js';
import { EXCHANGES } from './limits.js';
import { coinAmountInput } from './wallet.js';

// TradingView webhook trading (issue 13; document 2 §2 screens /webhook-trading, /logs,
// /signals; §7 calls). A configuration turns alerts posted to its secret URL into orders on one
// of the user's own exchange accounts, through the execution core (owner = the configuration).
// Money in answers is a decimal string (USDT); latencies are integer milliseconds; times ISO.

// ---------------------------------------------------------------------------------------------
// Constants and limits
// ---------------------------------------------------------------------------------------------

/** What an alert may ask. buy/sell open (closing the opposite side first); close_* reduce only. */
export const WEBHOOK_ACTIONS = ['buy', 'sell', 'close_long', 'close_short', 'close'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

/** Margin per signal in USDT (the order's notional is amount × leverage). */
export const WEBHOOK_AMOUNT_MIN = 10;
export const WEBHOOK_AMOUNT_MAX = 10_000_000;
export const WEBHOOK_AMOUNT_DEFAULT = 100;
export const WEBHOOK_LEVERAGE_MIN = 1;
export const WEBHOOK_LEVERAGE_MAX = 125;
export const WEBHOOK_LEVERAGE_DEFAULT = 1;
/** Alerts older than this many seconds (by their `timestamp`) are refused as stale. */
export const WEBHOOK_MAX_SIGNAL_AGE_DEFAULT = 60;
export const WEBHOOK_MAX_SIGNAL_AGE_MIN = 1;
export const WEBHOOK_MAX_SIGNAL_AGE_MAX = 86_400;
/** A body above this many bytes is refused (400, recorded). */
export const WEBHOOK_BODY_MAX_BYTES = 10 * 1024;
/** The raw body kept on a signal (characters; longer bodies are truncated). */
export const WEBHOOK_RAW_BODY_KEPT_CHARS = 2_000;
/** Without an `id`, the same body within this many seconds is the same signal. */
export const WEBHOOK_DEDUPE_WINDOW_SECONDS = 10;
/** `id` in an alert: at most this many characters. */
export const WEBHOOK_SIGNAL_ID_MAX_LENGTH = 128;
/** Random bytes in a receiver key (hex in the URL: twice as many characters). */
export const WEBHOOK_KEY_BYTES = 32;
export const WEBHOOK_KEY_HEX_LENGTH = WEBHOOK_KEY_BYTES * 2;
export const WEBHOOK_NAME_MAX_LENGTH = 100;
export const WEBHOOK_IP_ALLOWLIST_MAX = 50;
export const WEBHOOK_BATCH_MAX = 100;
/** Configurations one user may have. */
export const WEBHOOK_CONFIGS_MAX = 50;
/** Unknown-key requests per source address per minute before 429. */
export const WEBHOOK_UNKNOWN_KEY_LIMIT_PER_MINUTE = 20;
/** Alerts per configuration per minute before 429 (TradingView's own cap is 15 per 3 min). */
export const WEBHOOK_SIGNALS_PER_MINUTE = 120;
export const WEBHOOK_PAGE_SIZE_DEFAULT = 20;
export const WEBHOOK_PAGE_SIZE_MAX = 200;

/** TradingView's published webhook source addresses (the allowlist's one-click preset). */
export const TRADINGVIEW_WEBHOOK_IPS = [
  '52.89.214.238',
  '34.212.75.30',
  '54.218.53.128',
  '52.32.178.7',
] as const;

/** The receiver's path under the API prefix: POST /api/webhook-trading/hook/{key}/ (no login). */
export const WEBHOOK_HOOK_PATH_PREFIX = '/api/webhook-trading/hook/';

/** An example alert for the configuration screen (copyable; TradingView placeholders). */
export const WEBHOOK_EXAMPLE_ALERT = {
  action: 'buy',
  symbol: 'BINANCE:BTCUSDT.P',
  amount: 100,
  price: 61000,
  id: '{{strategy.order.id}}-{{timenow}}',
  timestamp: '{{timenow}}',
} as const;
/** The same as TradingView's alert message box takes it (placeholders filled by TradingView). */
export const WEBHOOK_EXAMPLE_ALERT_TEXT =
  '{"action": "{{strategy.order.action}}", "symbol": "{{ticker}}", "amount": 100, "price": {{close}}, "id": "{{strategy.order.id}}-{{timenow}}", "timestamp": "{{timenow}}"}';

// ---------------------------------------------------------------------------------------------
// Signal trail: statuses, steps, reasons
// ---------------------------------------------------------------------------------------------

/**
 * A signal's status is its latest step: received → validated | refused → intent → placed →
 * filled | failed; `ignored` when valid but nothing to do (already long without pyramiding, no
 * position to close). refused / ignored / filled / failed are final.
 */
export const WEBHOOK_SIGNAL_STATUSES = [
  'received',
  'validated',
  'refused',
  'intent',
  'placed',
  'filled',
  'failed',
  'ignored',
] as const;
export type WebhookSignalStatus = (typeof WEBHOOK_SIGNAL_STATUSES)[number];
export const WEBHOOK_FINAL_STATUSES: readonly WebhookSignalStatus[] = [
  'refused',
  'filled',
  'failed',
  'ignored',
];
/** Shown as in progress (the web polls while a signal is in one of these). */
export const WEBHOOK_PENDING_STATUSES: readonly WebhookSignalStatus[] = [
  'received',
  'validated',
  'intent',
  'placed',
];

export const WEBHOOK_STEPS = [
  'received',
  'validated',
  'refused',
  'intent',
  'placed',
  'filled',
  'failed',
  'ignored',
] as const;
export type WebhookStep = (typeof WEBHOOK_STEPS)[number];

/** Why a signal was refused (400 from the receiver, or refused at execution time). */
export const WEBHOOK_REFUSE_REASONS = [
  'invalid_json',
  'payload_too_large',
  'missing_action',
  'unknown_action',
  'action_not_allowed',
  'symbol_required',
  'invalid_symbol',
  'symbol_mismatch',
  'invalid_amount',
  'amount_too_small',
  'amount_too_large',
  'invalid_price',
  'invalid_id',
  'invalid_timestamp',
  'stale',
  'disabled',
  'ip_not_allowed',
  'account_inactive',
  'rate_limited',
  /** Refused at execution time by the account's risk gate: halted, or beyond a limit. */
  'risk_halted',
  'risk_limit',
] as const;
export type WebhookRefuseReason = (typeof WEBHOOK_REFUSE_REASONS)[number];

/** Why a valid signal traded nothing. */
export const WEBHOOK_IGNORE_REASONS = [
  /** buy while the configuration is already long (pyramiding off). */
  'already_long',
  /** sell while already short (pyramiding off). */
  'already_short',
  /** close_long / close_short / close with no such position. */
  'no_position',
] as const;
export type WebhookIgnoreReason = (typeof WEBHOOK_IGNORE_REASONS)[number];

/** Why an execution failed: the exchange's error kinds plus the core's own. */
export const WEBHOOK_FAILURE_KINDS = [
  ...EXCHANGE_ERROR_KINDS,
  /** Below the venue's minimum amount or notional: not sent. */
  'below_minimum',
  /** No market price for the symbol (sizing impossible). */
  'no_price',
  /** The symbol is not traded on the account's exchange. */
  'unknown_symbol',
  /** Setting the leverage on the exchange failed. */
  'leverage_failed',
  /** Protective orders could not be placed. */
  'unprotected',
  /** The account's risk gate refused the opening (halted, or beyond a limit): not sent. */
  'risk_halted',
  'risk_limit',
  'internal',
] as const;
export type WebhookFailureKind = (typeof WEBHOOK_FAILURE_KINDS)[number];

/** What one order of a signal does. */
export const WEBHOOK_EXECUTION_ACTIONS = [
  'open_long',
  'open_short',
  'add_long',
  'add_short',
  /** buy while short: one order to the long target (closes the short first). */
  'reverse_to_long',
  'reverse_to_short',
  'close_long',
  'close_short',
] as const;
export type WebhookExecutionAction = (typeof WEBHOOK_EXECUTION_ACTIONS)[number];

export const WEBHOOK_EXECUTION_STATUSES = ['pending', 'placed', 'filled', 'failed'] as const;
export type WebhookExecutionStatus = (typeof WEBHOOK_EXECUTION_STATUSES)[number];

export const WEBHOOK_LOG_LEVELS = ['info', 'warning', 'error'] as const;
export type WebhookLogLevel = (typeof WEBHOOK_LOG_LEVELS)[number];

/** What a log line records. */
export const WEBHOOK_LOG_EVENTS = [
  'signal_received',
  'signal_refused',
  'signal_duplicate',
  'signal_ignored',
  'order_placed',
  'order_filled',
  'order_failed',
  'config_created',
  'config_updated',
  'config_deleted',
  'config_enabled',
  'config_disabled',
  'key_regenerated',
  'unknown_key',
] as const;
export type WebhookLogEvent = (typeof WEBHOOK_LOG_EVENTS)[number];

export const WEBHOOK_BATCH_ACTIONS = ['enable', 'disable', 'delete'] as const;
export type WebhookBatchAction = (typeof WEBHOOK_BATCH_ACTIONS)[number];

// ---------------------------------------------------------------------------------------------
// Texts and error codes
// ---------------------------------------------------------------------------------------------

/** Server texts (English; the web says each in its own words by code). */
export const WEBHOOK_MESSAGES = {
  nameRequired: 'Enter a name',
  nameTooLong: `The name may have at most ${WEBHOOK_NAME_MAX_LENGTH} characters`,
  accountRequired: 'Choose one of your active trading accounts',
  accountNotFound: 'This trading account does not exist or is not yours',
  accountInactive: 'This trading account is not active',
  invalidSymbol: 'Enter a symbol such as BTC/USDT:USDT or BTCUSDT',
  unknownSymbol: 'This symbol is not traded on the account’s exchange',
  invalidAmount: 'Enter an amount in steps of 0.01',
  amountTooSmall: `The amount cannot be less than ${WEBHOOK_AMOUNT_MIN} USDT`,
  amountTooLarge: `The amount may not exceed ${WEBHOOK_AMOUNT_MAX} USDT`,
  maxBelowDefault: 'The max amount cannot be less than the default amount',
  leverageRange: `Leverage must be between ${WEBHOOK_LEVERAGE_MIN} and ${WEBHOOK_LEVERAGE_MAX}`,
  actionsRequired: 'Allow at least one action',
  maxAgeRange: `The max signal age must be between ${WEBHOOK_MAX_SIGNAL_AGE_MIN} and ${WEBHOOK_MAX_SIGNAL_AGE_MAX} seconds`,
  invalidIp: 'Enter IPv4 or IPv6 addresses',
  tooManyIps: `At most ${WEBHOOK_IP_ALLOWLIST_MAX} addresses`,
  tooManyConfigs: `At most ${WEBHOOK_CONFIGS_MAX} configurations`,
  configNotFound: 'Webhook configuration not found',
  batchEmpty: 'Choose at least one configuration',
  /** The receiver's answers. */
  accepted: 'Signal accepted',
  duplicate: 'Signal already received',
  unknownKey: 'Webhook not found',
  rateLimited: 'Too many requests, try again later',
  /** Why a signal was refused (the receiver's 400 `error`, the trail's reason text). */
  refused: {
    invalid_json: 'The body is not JSON (or text containing a JSON object)',
    payload_too_large: `The body exceeds ${WEBHOOK_BODY_MAX_BYTES} bytes`,
    missing_action: 'The alert has no action',
    unknown_action: `Unknown action: use ${WEBHOOK_ACTIONS.join(', ')}`,
    action_not_allowed: 'This configuration does not allow this action',
    symbol_required: 'The alert has no symbol and the configuration fixes none',
    invalid_symbol:
      'The symbol is not in a known format (BTC/USDT:USDT, BTCUSDT, BTCUSDT.P, BINANCE:BTCUSDT.P)',
    symbol_mismatch: 'The alert’s symbol differs from the configuration’s',
    invalid_amount: 'The amount is not a positive number',
    amount_too_small: `The amount is below ${WEBHOOK_AMOUNT_MIN} USDT`,
    amount_too_large: 'The amount exceeds the configuration’s max amount',
    invalid_price: 'The price is not a positive number',
    invalid_id: `The id must be a string of at most ${WEBHOOK_SIGNAL_ID_MAX_LENGTH} characters`,
    invalid_timestamp: 'The timestamp is not an ISO time or epoch seconds/milliseconds',
    stale: 'The alert is older than the max signal age',
    disabled: 'This configuration is disabled',
    ip_not_allowed: 'The source address is not in the allowlist',
    account_inactive: 'The trading account is not active',
    rate_limited: 'Too many alerts for this configuration, try again later',
    risk_halted: 'Refused: the exchange account is halted by its risk gate',
    risk_limit: 'Refused: the order is beyond a risk limit of the exchange account',
  } satisfies Record<WebhookRefuseReason, string>,
  ignored: {
    already_long: 'Already long: pyramiding is off, nothing added',
    already_short: 'Already short: pyramiding is off, nothing added',
    no_position: 'No position to close',
  } satisfies Record<WebhookIgnoreReason, string>,
} as const;

/** `code` of error answers specific to webhooks (others: ERROR_CODES). */
export const WEBHOOK_ERROR_CODES = {
  /** The receiver refused the alert (400); `reason` says why (WEBHOOK_REFUSE_REASONS). */
  signalRefused: 'signal_refused',
  /** Unknown receiver key (404). */
  unknownKey: 'unknown_webhook_key',
  tooManyConfigs: 'too_many_configs',
} as const;

/** Field codes of the server's own webhook rules (besides FIELD_ERROR_CODES). */
export const WEBHOOK_FIELD_ERROR_CODES = {
  unknownAccount: 'unknown_account',
  accountInactive: 'account_inactive',
  unknownSymbol: 'unknown_symbol',
  maxBelowDefault: 'max_below_default',
  invalidIp: 'invalid_ip',
} as const;

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

// ---------------------------------------------------------------------------------------------
// The trail: signals, executions, logs, stats
// ---------------------------------------------------------------------------------------------

export const webhookSignalStep = z.object({
  step: z.enum(WEBHOOK_STEPS),
  at: z.string(),
  /** Milliseconds since the previous step (0 for received). */
  latency_ms: z.number().int(),
  /** Milliseconds since received. */
  since_received_ms: z.number().int(),
  detail: z.string().nullable(),
});
export type WebhookSignalStep = z.infer<typeof webhookSignalStep>;

export const webhookExecution = z.object({
  id: z.number().int(),
  signal_id: z.number().int(),
  config_id: z.number().int(),
  config_name: z.string(),
  exchange_api: z.number().int(),
  symbol: z.string(),
  action: z.enum(WEBHOOK_EXECUTION_ACTIONS),
  side: z.enum(['buy', 'sell']),
  /** Requested base quantity (decimal string). */
  quantity: money,
  filled_quantity: money,
  /** Average fill price; null until filled. */
  price: money.nullable(),
  fee: money,
  leverage: z.number().int(),
  status: z.enum(WEBHOOK_EXECUTION_STATUSES),
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  error: z.string().nullable(),
  /** The execution core's idempotency key (derived from the signal id). */
  intent_key: z.string(),
  exchange_order_id: z.string().nullable(),
  created_at: z.string(),
  filled_at: z.string().nullable(),
  /** Milliseconds from the signal's receipt to the fill. */
  receive_to_fill_ms: z.number().int().nullable(),
});
export type WebhookExecution = z.infer<typeof webhookExecution>;

export const webhookSignal = z.object({
  id: z.number().int(),
  config_id: z.number().int(),
  config_name: z.string(),
  status: z.enum(WEBHOOK_SIGNAL_STATUSES),
  /** Refused or ignored: why (WEBHOOK_REFUSE_REASONS / WEBHOOK_IGNORE_REASONS); failed: null. */
  reason: z.string().nullable(),
  /** The reason's text, or the failure's message. */
  message: z.string().nullable(),
  /** Failed: the failure's kind. */
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  action: z.enum(WEBHOOK_ACTIONS).nullable(),
  symbol: z.string().nullable(),
  amount: money.nullable(),
  price: money.nullable(),
  external_id: z.string().nullable(),
  signal_time: z.string().nullable(),
  source_ip: z.string(),
  /** Truncated to WEBHOOK_RAW_BODY_KEPT_CHARS. */
  raw_body: z.string(),
  raw_body_truncated: z.boolean(),
  received_at: z.string(),
  /** received → filled (or → failed / ignored / refused) in milliseconds; null while pending. */
  total_latency_ms: z.number().int().nullable(),
  steps: z.array(webhookSignalStep),
  executions: z.array(webhookExecution),
});
export type WebhookSignal = z.infer<typeof webhookSignal>;

/**
 * What a log line's signal is, for the web to word the line in the reader's language (the
 * `message` is the server's own technical line).
 */
export const webhookLogSignal = z.object({
  action: z.enum(WEBHOOK_ACTIONS).nullable(),
  symbol: z.string().nullable(),
  amount: money.nullable(),
  status: z.enum(WEBHOOK_SIGNAL_STATUSES),
  reason: z.string().nullable(),
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  /** The signal's last order: what it did, how much filled, at what price, its venue id. */
  order: z
    .object({
      action: z.enum(WEBHOOK_EXECUTION_ACTIONS),
      quantity: money,
      filled_quantity: money,
      price: money.nullable(),
      leverage: z.number().int(),
      exchange_order_id: z.string().nullable(),
    })
    .nullable(),
});
export type WebhookLogSignal = z.infer<typeof webhookLogSignal>;

export const webhookLog = z.object({
  id: z.number().int(),
  config_id: z.number().int().nullable(),
  config_name: z.string().nullable(),
  signal_id: z.number().int().nullable(),
  level: z.enum(WEBHOOK_LOG_LEVELS),
  event: z.enum(WEBHOOK_LOG_EVENTS),
  message: z.string(),
  source_ip: z.string().nullable(),
  created_at: z.string(),
  /** The line's signal, when it has one (still there). */
  signal: webhookLogSignal.nullable(),
});
export type WebhookLog = z.infer<typeof webhookLog>;

const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_PAGE_SIZE_MAX)
    .default(WEBHOOK_PAGE_SIZE_DEFAULT),
  /** A configuration id of the user's (another user's: empty results). */
  config: idSchema.optional(),
  /** ISO times (inclusive since, exclusive until). */
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
};

/** GET /webhook-trading/signals/?config&status&since&until&page&page_size (newest first). */
export const webhookSignalsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_SIGNAL_STATUSES).optional(),
});
export type WebhookSignalsQuery = z.input<typeof webhookSignalsQuery>;
/** GET /webhook-trading/executions/?config&status&since&until&page&page_size */
export const webhookExecutionsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_EXECUTION_STATUSES).optional(),
});
export type WebhookExecutionsQuery = z.input<typeof webhookExecutionsQuery>;
/** GET /webhook-trading/logs/?config&level&event&since&until&page&page_size (`status` = level). */
export const webhookLogsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_LOG_LEVELS).optional(),
  level: z.enum(WEBHOOK_LOG_LEVELS).optional(),
  event: z.enum(WEBHOOK_LOG_EVENTS).optional(),
});
export type WebhookLogsQuery = z.input<typeof webhookLogsQuery>;
/** GET /webhook-trading/stats/?config */
export const webhookStatsQuery = z.object({
  config: idSchema.optional(),
});
export type WebhookStatsQuery = z.input<typeof webhookStatsQuery>;

const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    results: z.array(item),
    count: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
export const webhookSignalListResponse = paged(webhookSignal);
export type WebhookSignalListResponse = z.infer<typeof webhookSignalListResponse>;
export const webhookExecutionListResponse = paged(webhookExecution);
export type WebhookExecutionListResponse = z.infer<typeof webhookExecutionListResponse>;
export const webhookLogListResponse = paged(webhookLog);
export type WebhookLogListResponse = z.infer<typeof webhookLogListResponse>;

/** GET /webhook-trading/signals/{id}/: one signal with its whole trail. */
export const webhookSignalResponse = webhookSignal;

export const webhookStatsWindow = z.object({
  total: z.number().int(),
  /** Signals per status (every status present, 0 when none). */
  by_status: z.record(z.enum(WEBHOOK_SIGNAL_STATUSES), z.number().int()),
  /** filled ÷ (filled + failed) × 100; null when neither. */
  success_rate: z.number().nullable(),
  /** Receive-to-fill latency of filled signals (ms); null when none. */
  median_latency_ms: z.number().int().nullable(),
  p99_latency_ms: z.number().int().nullable(),
});
export type WebhookStatsWindow = z.infer<typeof webhookStatsWindow>;
export const webhookStatsResponse = z.object({
  last_24h: webhookStatsWindow,
  total: webhookStatsWindow,
  configs: z.object({ total: z.number().int(), enabled: z.number().int() }),
});
export type WebhookStatsResponse = z.infer<typeof webhookStatsResponse>;
