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

/**
 * deadlock_detected or serialization_failure: the transaction was rolled back whole because of
 * another one; nothing it wrote stayed, and the same work may be tried again.
 */
export const isTransientConflict = (error: unknown): boolean => {
  const code = pgErrorCode(error);
  return code === '40P01' || code === '40001';
};

/**
 * Runs a transaction again when PostgreSQL rolled it back for another one (a deadlock's victim,
 * a serialization failure): it was undone whole, so running it again is safe. At most
 * `attempts` runs in all; `run` must be one transaction and nothing outside it.
 */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
    }
  }
}
