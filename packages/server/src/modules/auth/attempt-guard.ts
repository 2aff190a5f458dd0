import {
  AUTH_MESSAGES,
  ERROR_CODES,
  LOGIN_ADDRESS_MAX_FAILURES,
  LOGIN_LOCK_SECONDS,
  LOGIN_MAX_FAILURES,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { RateLimited } from '../../common/errors.js';
import type { AuthRepository } from './auth.repository.js';

/** The client address a request came from (the app's TRUST_PROXY decides it). */
export type ClientAddress = string;

/**
 * What the attempts are on: a user id, or a string naming a target whose account must not be
 * revealed (a password reset of an address that may have none).
 */
export type AttemptSubject = number | `${string}:${string}`;

const accountKey = (subject: AttemptSubject, address: ClientAddress) =>
  `${typeof subject === 'number' ? `account:${subject}` : subject}@${address}`;
const addressKey = (address: ClientAddress) => `address:${address}`;

/**
 * The lock shared by every check of a secret (login, phone login, 2FA setup and disable,
 * password change and reset). Failures count per (account, client address) and per client
 * address, never per account alone: a stranger who guesses locks out only the stranger's own
 * address, and the owner still signs in from another. Each attempt is claimed atomically
 * BEFORE its check runs, so a burst of concurrent guesses meets the lock after
 * LOGIN_MAX_FAILURES of them; a passed check clears the (account, address) count and takes
 * its own claim back from the address count.
 */
export function createAttemptGuard(deps: { repo: AuthRepository; clock: Clock }) {
  const { repo, clock } = deps;

  async function claim(key: string, maxFailures: number, now: Date): Promise<void> {
    const claimed = await repo.claimAttempt(key, now, LOGIN_LOCK_SECONDS, maxFailures);
    if (claimed.allowed) return;
    const until = claimed.lockedUntil?.getTime() ?? now.getTime() + LOGIN_LOCK_SECONDS * 1000;
    throw new RateLimited(
      AUTH_MESSAGES.accountLocked,
      (until - now.getTime()) / 1000,
      ERROR_CODES.accountLocked,
    );
  }

  return {
    /**
     * Runs `check` as one attempt on the subject (the user's account) from `address`; 429
     * account_locked while that pair or that address is locked.
     */
    async guarded<T>(
      subject: AttemptSubject,
      address: ClientAddress,
      check: () => Promise<T>,
    ): Promise<T> {
      const now = clock.now();
      // The address first: a locked address does not even count against the account.
      await claim(addressKey(address), LOGIN_ADDRESS_MAX_FAILURES, now);
      await claim(accountKey(subject, address), LOGIN_MAX_FAILURES, now);
      const result = await check();
      await repo.clearAttempts(accountKey(subject, address));
      await repo.releaseAttempt(addressKey(address), LOGIN_ADDRESS_MAX_FAILURES);
      await repo.deleteStaleAttempts(new Date(now.getTime() - LOGIN_LOCK_SECONDS * 1000), now);
      return result;
    },
  };
}
export type AttemptGuard = ReturnType<typeof createAttemptGuard>;
