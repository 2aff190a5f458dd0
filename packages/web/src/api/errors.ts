import { ERROR_CODES } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from './client';
import { fieldErrorText } from './field-errors';

type ServerMessageKey = keyof typeof import('../i18n/locales/zh-CN').zhCN.errors.server;

// The shared error codes of the API (contracts' ERROR_CODES) said in the reader's language. An
// answer is recognised by its `code` alone, never by its English text; a code not listed shows
// the server's message as written.
const CODE_TEXTS: Readonly<Record<string, ServerMessageKey>> = {
  [ERROR_CODES.googleCodeRequired]: 'googleCodeRequired',
  [ERROR_CODES.invalidEmailCode]: 'invalidEmailCode',
  [ERROR_CODES.invalidGoogleCode]: 'invalidGoogleCode',
  [ERROR_CODES.codeRequired]: 'emailCodeRequired',
  [ERROR_CODES.notRegistered]: 'emailNotRegistered',
  [ERROR_CODES.phoneNotRegistered]: 'userNotFound',
  [ERROR_CODES.userNotFound]: 'userNotFound',
  [ERROR_CODES.invalidCredentials]: 'invalidCredentials',
  [ERROR_CODES.sendFailed]: 'sendFailed',
  [ERROR_CODES.invalidCode]: 'invalidCode',
  [ERROR_CODES.invalidVerificationCode]: 'invalidVerificationCode',
  [ERROR_CODES.alreadyRegistered]: 'emailAlreadyRegistered',
  [ERROR_CODES.phoneAlreadyRegistered]: 'phoneAlreadyRegistered',
  [ERROR_CODES.accountLocked]: 'accountLocked',
  [ERROR_CODES.tokenInvalid]: 'tokenInvalid',
  [ERROR_CODES.refreshReused]: 'refreshReused',
  [ERROR_CODES.unauthorized]: 'notAuthenticated',
  [ERROR_CODES.twoFactorNotPending]: 'twoFactorNotPending',
  [ERROR_CODES.twoFactorNotEnabled]: 'twoFactorNotEnabled',
  [ERROR_CODES.twoFactorAlreadyEnabled]: 'twoFactorAlreadyEnabled',
  [ERROR_CODES.codeDailyLimit]: 'codeDailyLimit',
};

/** The text of a known error code in the reader's language, or null. */
export function codeText(t: TFunction, code: string): string | null {
  const key = Object.hasOwn(CODE_TEXTS, code) ? CODE_TEXTS[code] : undefined;
  return key ? t(`errors.server.${key}`) : null;
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
  const known = codeText(t, body.code);
  if (known) return known;
  if (body.retry_after !== undefined && body.retry_after > 0) {
    if (body.code === ERROR_CODES.codeCooldown) {
      return t('errors.codeRetryAfter', { seconds: body.retry_after });
    }
    return t('errors.retryAfter', { seconds: body.retry_after });
  }
  // A validation answer is said by its first field's code.
  const [field, messages] = Object.entries(body.fields ?? {})[0] ?? [];
  if (field !== undefined && messages?.[0] !== undefined) {
    return fieldErrorText(t, field, body.field_codes?.[field]?.[0], messages[0]);
  }
  return body.error || fallback;
}

export function apiErrorBody(error: unknown) {
  return error instanceof ApiRequestError ? error.body : null;
}
