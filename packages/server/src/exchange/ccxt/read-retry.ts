import { ExchangeAdapterError } from '../exchange-client.js';

/** Waits `ms` milliseconds; tests pass one that returns at once and records the waits. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the caller gets rate_limited. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Capped exponential backoff: base, 2×base, 4×base… never above maxDelayMs. */
export function backoffDelayMs(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
}

/**
 * Runs a read (or an idempotent write such as set-leverage or cancel) and retries it on
 * `unavailable` and `rate_limited` only; every other kind is final. A rate limit waits what the
 * exchange asked (Retry-After) when it said, else the backoff.
 */
export async function withReadRetries<T>(
  run: () => Promise<T>,
  policy: RetryPolicy,
  sleep: Sleep,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ExchangeAdapterError)) throw error;
      if (!error.isRetryable || attempt >= policy.attempts) throw error;
      const retryAfterMs = error.kind === 'rate_limited' ? error.retryAfterMs : null;
      if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) throw error;
      await sleep(retryAfterMs ?? backoffDelayMs(policy, attempt));
    }
  }
}
