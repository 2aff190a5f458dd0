/** PostgreSQL's error code of a failed statement (drizzle wraps the driver's error as `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** unique_violation. */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === '23505';

/** foreign_key_violation: the row a new row points at is gone. */
export const isForeignKeyViolation = (error: unknown): boolean => pgErrorCode(error) === '23503';

/** deadlock_detected: PostgreSQL rolled this transaction back so another could go on. */
export const isDeadlock = (error: unknown): boolean => pgErrorCode(error) === '40P01';

/**
 * Runs a transaction again when PostgreSQL picked it as a deadlock's victim (it was rolled back
 * whole, so running it again is safe), at most `attempts` times in all.
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}
