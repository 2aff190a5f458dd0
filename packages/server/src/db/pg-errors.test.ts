import { describe, expect, it } from 'vitest';
import { isTransientConflict, pgErrorCode, retryOnConflict } from './pg-errors.js';

/** A failed statement as drizzle reports it: the driver's error as the cause. */
const failed = (code: string) =>
  new Error('Failed query: delete from "exchange_accounts"', {
    cause: Object.assign(new Error('driver'), { code }),
  });

describe('PostgreSQL errors', () => {
  it("reads the driver's code through drizzle's wrapper, and nothing else as a code", () => {
    expect(pgErrorCode(failed('40P01'))).toBe('40P01');
    expect(pgErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(isTransientConflict(failed('40001'))).toBe(true);
    expect(isTransientConflict(failed('23505'))).toBe(false);
  });

  it('runs a transaction again after a deadlock, at most three times, and no other failure', async () => {
    /** Runs `retryOnConflict` over a transaction failing with `code` its first `failures` times. */
    const attempt = async (code: string, failures: number) => {
      let runs = 0;
      const outcome = await retryOnConflict(async () => {
        runs += 1;
        if (runs <= failures) throw failed(code);
        return 'done';
      }).catch((error: unknown) => error);
      return { runs, outcome };
    };
    expect(await attempt('40P01', 2)).toEqual({ runs: 3, outcome: 'done' });
    const serialization = await attempt('40001', 3);
    expect(serialization.runs).toBe(3);
    expect(String(serialization.outcome)).toContain('Failed query');
    const foreignKey = await attempt('23503', 1);
    expect(foreignKey.runs).toBe(1);
    expect(String(foreignKey.outcome)).toContain('Failed query');
  });
});
