import { EXCHANGE_ERROR_KINDS } from '../accounts.js';

// TradingView webhook trading: the constants and limits, the signal trail's statuses, steps and
// reasons, and the server's texts and error codes.

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
