import {
  AUTH_MESSAGES,
  ERROR_CODES,
  LOGIN_LOCK_SECONDS,
  LOGIN_MAX_FAILURES,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { RateLimited } from '../../common/errors.js';
import type { AuthRepository } from './auth.repository.js';

/**
 * The account lock shared by every check of a secret (login, 2FA disable, password change):
 * each attempt is counted atomically BEFORE its check runs, so a burst of concurrent guesses
 * meets the lock after LOGIN_MAX_FAILURES of them; a passed check clears the count.
 */
export function createAttemptGuard(deps: { repo: AuthRepository; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    /** Runs `check` as one attempt of the user's; 429 account_locked while the account is locked. */
    async guarded<T>(userId: number, check: () => Promise<T>): Promise<T> {
      const now = clock.now();
      const claim = await repo.claimAttempt(userId, now, LOGIN_LOCK_SECONDS, LOGIN_MAX_FAILURES);
      if (!claim.allowed) {
        const until = claim.lockedUntil?.getTime() ?? now.getTime() + LOGIN_LOCK_SECONDS * 1000;
        throw new RateLimited(
          AUTH_MESSAGES.accountLocked,
          (until - now.getTime()) / 1000,
          ERROR_CODES.accountLocked,
        );
      }
      const result = await check();
      await repo.clearLoginFailures(userId);
      return result;
    },
  };
}
export type AttemptGuard = ReturnType<typeof createAttemptGuard>;
