import { AUTH_MESSAGES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import type { FieldErrorList } from '../../common/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

/** What a new password is compared with: the account's own e-mail and phone. */
export interface PasswordOwner {
  email: string | null;
  phone: string | null;
}

const digitsOf = (phone: string) => phone.replace(/^\+/, '');

/** Whether the password is the account's e-mail (or its name part) or phone number. */
function isOwnIdentifier(password: string, owner: PasswordOwner): boolean {
  const candidate = password.trim().toLowerCase();
  if (owner.email) {
    const email = owner.email.toLowerCase();
    if (candidate === email || candidate === email.split('@')[0]) return true;
  }
  if (owner.phone) {
    const phone = digitsOf(owner.phone);
    const given = digitsOf(candidate);
    // The whole number, or the national part without the country code (+86 138… → 138…).
    if (given === phone || (/^\d+$/.test(given) && phone.endsWith(given))) return true;
  }
  return false;
}

/**
 * The rules a new password meets beyond its length (register, reset, change): not one of the
 * most common passwords, not the account's e-mail or phone. Adds a field error to `errors`.
 */
export function checkNewPassword(
  password: string,
  owner: PasswordOwner,
  field: string,
  errors: FieldErrorList,
): void {
  if (COMMON_PASSWORDS.has(password.trim().toLowerCase())) {
    errors.add(field, AUTH_MESSAGES.commonPassword, FIELD_ERROR_CODES.commonPassword);
  } else if (isOwnIdentifier(password, owner)) {
    errors.add(field, AUTH_MESSAGES.passwordLikeAccount, FIELD_ERROR_CODES.passwordLikeAccount);
  }
}
