// Business constants from the specification (section 9 of both documents). The one place they
// are written; server and web import them.

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 5 * 60;
export const CODE_COOLDOWN_SECONDS = 60;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_DAILY_LIMIT = 10;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NICKNAME_MAX_LENGTH = 30;
export const BIO_MAX_LENGTH = 200;
export const INVITATION_CODE_MAX_LENGTH = 32;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * Failed checks of a secret (logins, 2FA and password checks) per account from one client
 * address inside the window before that address is locked out of the account for the window.
 * The owner, coming from another address, is not locked.
 */
export const LOGIN_MAX_FAILURES = 10;
/** Failed checks from one client address, whatever the accounts, before it is locked. */
export const LOGIN_ADDRESS_MAX_FAILURES = 50;
export const LOGIN_LOCK_SECONDS = 15 * 60;
/** Sign-in calls per IP per minute. */
export const AUTH_IP_RATE_PER_MINUTE = 60;

export const REQUEST_BODY_LIMIT_BYTES = 1024 * 1024;
export const HTTP_TIMEOUT_MS = 30_000;

export const SUCCESS_MESSAGE_MS = 3000;
export const REGISTER_NOTICE_MS = 5000;
export const POST_LOGIN_REDIRECT_MS = 1000;
export const GOOGLE_PROMPT_DELAY_MS = 1000;
export const MOBILE_BREAKPOINT_PX = 768;

export const EXCHANGES = ['binance', 'okx'] as const;
export type Exchange = (typeof EXCHANGES)[number];
export const TIMEFRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

export const PLATFORM_FEE_RATE = 0.0005;
export const VIP_PRICE_COINS = 100;
export const VIP_DURATION_DAYS = 365;
