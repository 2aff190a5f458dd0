import {
  AUTH_MESSAGES,
  CODE_LENGTH,
  ERROR_CODES,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from './client';

type ServerMessageKey = keyof typeof import('../i18n/locales/zh-CN').zhCN.errors.server;

// Known server texts (contracts' AUTH_MESSAGES and the field messages of its schemas) mapped to
// translation keys. Anything not listed is shown as the server wrote it.
const SERVER_TEXTS: ReadonlyArray<readonly [string, ServerMessageKey]> = [
  [AUTH_MESSAGES.googleCodeRequired, 'googleCodeRequired'],
  [AUTH_MESSAGES.invalidEmailCode, 'invalidEmailCode'],
  [AUTH_MESSAGES.invalidGoogleCode, 'invalidGoogleCode'],
  [AUTH_MESSAGES.emailCodeRequired, 'emailCodeRequired'],
  [AUTH_MESSAGES.emailNotRegistered, 'emailNotRegistered'],
  [AUTH_MESSAGES.invalidCredentials, 'invalidCredentials'],
  [AUTH_MESSAGES.sendFailed, 'sendFailed'],
  [AUTH_MESSAGES.userNotFound, 'userNotFound'],
  [AUTH_MESSAGES.invalidCode, 'invalidCode'],
  [AUTH_MESSAGES.invalidVerificationCode, 'invalidVerificationCode'],
  [AUTH_MESSAGES.emailAlreadyRegistered, 'emailAlreadyRegistered'],
  [AUTH_MESSAGES.phoneAlreadyRegistered, 'phoneAlreadyRegistered'],
  [AUTH_MESSAGES.passwordMismatch, 'passwordMismatch'],
  [AUTH_MESSAGES.invalidInvitationCode, 'invalidInvitationCode'],
  [AUTH_MESSAGES.invalidOldPassword, 'invalidOldPassword'],
  [AUTH_MESSAGES.accountLocked, 'accountLocked'],
  [AUTH_MESSAGES.tokenInvalid, 'tokenInvalid'],
  [AUTH_MESSAGES.refreshReused, 'refreshReused'],
  [AUTH_MESSAGES.notAuthenticated, 'notAuthenticated'],
  [AUTH_MESSAGES.twoFactorNotPending, 'twoFactorNotPending'],
  [AUTH_MESSAGES.twoFactorNotEnabled, 'twoFactorNotEnabled'],
  [AUTH_MESSAGES.twoFactorAlreadyEnabled, 'twoFactorAlreadyEnabled'],
  ['This field is required', 'fieldRequired'],
  ['Enter a valid e-mail address', 'invalidEmail'],
  ['Enter a valid phone number', 'invalidPhone'],
  [`Password must be at least ${PASSWORD_MIN_LENGTH} characters`, 'passwordTooShort'],
  [`Password must be at most ${PASSWORD_MAX_LENGTH} characters`, 'passwordTooLong'],
  [`Code must be ${CODE_LENGTH} digits`, 'codeFormat'],
  [`Leverage must be between ${LEVERAGE_MIN} and ${LEVERAGE_MAX}`, 'leverageRange'],
  ['Leverage must be a whole number', 'leverageWhole'],
];
const SERVER_TEXT_KEYS = new Map<string, ServerMessageKey>(SERVER_TEXTS);

/** Translates one server message; unknown texts come back unchanged. */
export function translateServerText(t: TFunction, text: string): string {
  const key = SERVER_TEXT_KEYS.get(text);
  if (!key) return text;
  return t(`errors.server.${key}`, {
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
    length: CODE_LENGTH,
    leverageMin: LEVERAGE_MIN,
    leverageMax: LEVERAGE_MAX,
  });
}

/**
 * The message to show for a failed call: the translated server text, a rate-limit wait, a
 * network/timeout text, or the given fallback.
 */
export function errorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (!(error instanceof ApiRequestError)) return fallback;
  if (error.kind === 'network') return t('errors.network');
  if (error.kind === 'timeout') return t('errors.timeout');
  const body = error.body;
  if (!body) return fallback;
  if (body.code === ERROR_CODES.concurrentChange) return t('errors.concurrentChange');
  if (body.code === ERROR_CODES.referenceGone) return t('errors.referenceGone');
  const known = SERVER_TEXT_KEYS.has(body.error);
  if (!known && body.retry_after !== undefined && body.retry_after > 0) {
    if (body.code === ERROR_CODES.codeDailyLimit) return t('errors.server.codeDailyLimit');
    if (body.code === ERROR_CODES.codeCooldown) {
      return t('errors.codeRetryAfter', { seconds: body.retry_after });
    }
    return t('errors.retryAfter', { seconds: body.retry_after });
  }
  if (!known && body.code === ERROR_CODES.codeDailyLimit) return t('errors.server.codeDailyLimit');
  return body.error ? translateServerText(t, body.error) : fallback;
}

export function apiErrorBody(error: unknown) {
  return error instanceof ApiRequestError ? error.body : null;
}
