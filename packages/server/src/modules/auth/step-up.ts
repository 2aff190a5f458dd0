import { AUTH_MESSAGES, ERROR_CODES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import { DomainError } from '../../common/errors.js';
import type { AttemptGuard, ClientAddress } from './attempt-guard.js';
import type { AuthRepository } from './auth.repository.js';
import type { TotpService } from './totp.service.js';

/**
 * Step-up for money and keys (a withdrawal, a new webhook key, an exchange key): a user with
 * 2FA on confirms the action with an authenticator code. The check is the login's
 * (`totp.checkLoginCode`: each time step accepted once) under the login's lock (`guard`: wrong
 * codes count per account and address, 429 account_locked after a few); users without 2FA
 * pass untouched.
 */
export interface StepUp {
  /** Throws a `google_code` field error (400) or 429 when 2FA is on and the code does not pass. */
  confirm(userId: number, googleCode: string | undefined, address: ClientAddress): Promise<void>;
}

/** The answer for a missing or wrong code: a field error on google_code with its code. */
function codeFailure(code: string, message: string, fieldCode: string): DomainError {
  return new DomainError(
    400,
    code,
    message,
    { google_code: [message] },
    { needs_google_auth: true },
    { google_code: [fieldCode] },
  );
}

export function createStepUp(deps: {
  repo: AuthRepository;
  totp: TotpService;
  guard: AttemptGuard;
}): StepUp {
  const { repo, totp, guard } = deps;
  return {
    async confirm(userId, googleCode, address) {
      const user = await repo.findUserById(userId);
      if (!user?.twoFactorEnabled) return;
      if (!googleCode) {
        throw codeFailure(
          ERROR_CODES.googleCodeRequired,
          AUTH_MESSAGES.googleCodeRequired,
          FIELD_ERROR_CODES.required,
        );
      }
      try {
        await guard.guarded(userId, address, () => totp.checkLoginCode(user, googleCode));
      } catch (error) {
        if (error instanceof DomainError && error.code === ERROR_CODES.invalidGoogleCode) {
          throw codeFailure(
            ERROR_CODES.invalidGoogleCode,
            AUTH_MESSAGES.invalidGoogleCode,
            FIELD_ERROR_CODES.invalidGoogleCode,
          );
        }
        throw error;
      }
    },
  };
}
