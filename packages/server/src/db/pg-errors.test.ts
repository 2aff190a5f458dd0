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
    let runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        if (runs < 3) throw failed('40P01');
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(runs).toBe(3);

    runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw failed('40001');
      }),
    ).rejects.toThrow('Failed query');
    expect(runs).toBe(3);

    runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw failed('23503');
      }),
    ).rejects.toThrow('Failed query');
    expect(runs).toBe(1);
  });
});
