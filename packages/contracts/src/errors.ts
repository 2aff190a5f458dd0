import { z } from 'zod';

/** Every error answer: `{error, code, fields?}` plus the extra keys the spec names. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
  needs_google_auth: z.boolean().optional(),
  redirect_to: z.string().optional(),
  retry_after: z.number().int().optional(),
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
  /** An exchange could not be read; only MARKET_DATA=live answers it (auto falls back). */
  exchangeUnavailable: 'exchange_unavailable',
  internal: 'internal_error',
} as const;
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
