import { z } from 'zod';

/** Every error answer: `{error, code, fields?}` plus the extra keys the spec names. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  /** Messages per field (the spec's lists; the first is shown on one line). */
  fields: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * Stable machine codes per field, same keys and order as `fields` (FIELD_ERROR_CODES), so a
   * client says each error in its own words. Every `fields` answer carries them.
   */
  field_codes: z.record(z.string(), z.array(z.string())).optional(),
  needs_google_auth: z.boolean().optional(),
  redirect_to: z.string().optional(),
  retry_after: z.number().int().optional(),
  /** The exchange failure's kind (EXCHANGE_ERROR_KINDS) when an exchange call failed. */
  error_kind: z.string().optional(),
  /** Deleting an exchange API refused: its running bots (stop them first). */
  running_bots: z.array(z.object({ id: z.number().int(), symbol: z.string() })).optional(),
  /**
   * Deleting an exchange API refused: the symbols on which it still holds a position or an
   * order in flight (one opened while the others were being closed); a later try closes them.
   */
  open_symbols: z.array(z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Machine-readable error codes (the `code` of an error answer). */
export const ERROR_CODES = {
  validation: 'validation_failed',
  invalidJson: 'invalid_json',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  notFound: 'not_found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  codeCooldown: 'code_cooldown',
  codeDailyLimit: 'code_daily_limit',
  notRegistered: 'not_registered',
  alreadyRegistered: 'already_registered',
  invalidCredentials: 'invalid_credentials',
  invalidCode: 'invalid_code',
  codeRequired: 'code_required',
  googleCodeRequired: 'google_code_required',
  invalidGoogleCode: 'invalid_google_code',
  accountLocked: 'account_locked',
  sendFailed: 'send_failed',
  twoFactorNotPending: 'two_factor_not_pending',
  twoFactorNotEnabled: 'two_factor_not_enabled',
  twoFactorAlreadyEnabled: 'two_factor_already_enabled',
  /** A login code sent by e-mail is wrong or expired (`invalid_code` is the phone/reset one). */
  invalidEmailCode: 'invalid_email_code',
  invalidVerificationCode: 'invalid_verification_code',
  /** A phone number with no account (`not_registered` is the e-mail one). */
  phoneNotRegistered: 'phone_not_registered',
  phoneAlreadyRegistered: 'phone_already_registered',
  /** The signed-in user no longer exists. */
  userNotFound: 'user_not_found',
  /** 401s: a token that is malformed or expired, and a refresh token used twice. */
  tokenInvalid: 'token_invalid',
  refreshReused: 'refresh_reused',
  /** Starting a bot needs an active VIP (document 1 §4). */
  vipRequired: 'vip_required',
  /** An exchange could not be read; only MARKET_DATA=live answers it (auto falls back). */
  exchangeUnavailable: 'exchange_unavailable',
  internal: 'internal_error',
  /**
   * The database rolled the request's transaction back for a deadlock or a serialization
   * failure with another request: nothing was saved, and the same request may be sent again.
   */
  concurrentChange: 'concurrent_change',
  /** Something the request refers to was deleted while it was being saved: nothing was saved. */
  referenceGone: 'reference_gone',
  /** A bot (or an exchange API's bot) is running: stop it before deleting. */
  botRunning: 'bot_running',
  /** A stopped bot's position could not be closed, so nothing was deleted. */
  positionCloseFailed: 'position_close_failed',
  /** Telegram notifications are not set up on this server (no TELEGRAM_BOT_TOKEN). */
  telegramUnavailable: 'telegram_unavailable',
} as const;

/**
 * Machine codes of field errors (`field_codes`). Schema checks map to the generic ones; the
 * server's own rules name theirs. A client shows its own text per code (with the limits from
 * these contracts) and may fall back to the server's message in `fields`.
 */
export const FIELD_ERROR_CODES = {
  /** Missing or empty. */
  required: 'required',
  /** A field the call does not take (strict payloads). */
  unknownField: 'unknown_field',
  /** Wrong JSON type (a string where a number is expected, `true` for a number, …). */
  invalidType: 'invalid_type',
  notInteger: 'not_integer',
  /** Not a multiple of the field's step (e.g. money with more than two decimals). */
  invalidStep: 'invalid_step',
  /** Number below the minimum / above the maximum. */
  tooSmall: 'too_small',
  tooBig: 'too_big',
  /** Text shorter / longer than allowed. */
  tooShort: 'too_short',
  tooLong: 'too_long',
  /** List with too few / too many entries. */
  tooFew: 'too_few',
  tooMany: 'too_many',
  /** Not one of the allowed values (enums). */
  invalidChoice: 'invalid_choice',
  invalidEmail: 'invalid_email',
  invalidPhone: 'invalid_phone',
  /** Text of the wrong shape (codes, symbols, dates…). */
  invalidFormat: 'invalid_format',
  /** A NUL character, or a key such as `__proto__` / `constructor`. */
  invalidCharacter: 'invalid_character',
  forbiddenKey: 'forbidden_key',
  /** A JSON body nested deeper than the API ever needs (objects/arrays inside one another). */
  tooDeep: 'too_deep',
  /** Any other failed check of a value. */
  invalid: 'invalid',
  // The server's own rules.
  passwordMismatch: 'password_mismatch',
  /** A new password found among the most common ones. */
  commonPassword: 'common_password',
  /** A new password equal to the account's e-mail (or its name part) or phone number. */
  passwordLikeAccount: 'password_like_account',
  emailTaken: 'email_taken',
  phoneTaken: 'phone_taken',
  invalidInvitationCode: 'invalid_invitation_code',
  invalidCode: 'invalid_code',
  oldPasswordIncorrect: 'old_password_incorrect',
  unknownAccount: 'unknown_account',
  accountInactive: 'account_inactive',
  /** An exchange account whose last connection check failed (it cannot trade until it passes). */
  accountCheckFailed: 'account_check_failed',
  /** A step-up check (withdrawal, keys, 2FA off): the authenticator code is missing or wrong. */
  invalidGoogleCode: 'invalid_google_code',
  unknownStrategy: 'unknown_strategy',
  unknownSymbol: 'unknown_symbol',
  unknownParameter: 'unknown_parameter',
  /** An uploaded file of a kind the field does not take (images). */
  unsupportedFormat: 'unsupported_format',
} as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[keyof typeof FIELD_ERROR_CODES];
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Server error texts of the spec's login/register catalogue (document 1 §8, document 2 §8). */
export const AUTH_MESSAGES = {
  googleCodeRequired: 'Google authentication code required',
  invalidEmailCode: 'Invalid or expired email verification code',
  invalidGoogleCode: 'Invalid Google authentication code',
  emailCodeRequired: 'Email verification code is required',
  emailNotRegistered: 'Email not registered',
  invalidCredentials: 'Invalid email or password',
  sendFailed: 'Failed to send code',
  userNotFound: 'User not found',
  invalidCode: 'Invalid or expired verification code',
  invalidVerificationCode: 'Invalid verification code',
  emailAlreadyRegistered: 'Email already registered',
  phoneAlreadyRegistered: 'Phone number already registered',
  passwordMismatch: 'Passwords do not match',
  commonPassword: 'This password is too common; choose another',
  passwordLikeAccount: 'The password must not be your e-mail address or phone number',
  invalidInvitationCode: 'Invalid invitation code',
  invalidOldPassword: 'Old password is incorrect',
  accountLocked: 'Too many failed attempts, try again later',
  tokenInvalid: 'Token is invalid or expired',
  refreshReused: 'Refresh token already used; this login has been signed out',
  notAuthenticated: 'Authentication credentials were not provided',
  twoFactorNotPending: 'Start 2FA setup first',
  twoFactorNotEnabled: '2FA is not enabled',
  twoFactorAlreadyEnabled: '2FA is already enabled',
} as const;
