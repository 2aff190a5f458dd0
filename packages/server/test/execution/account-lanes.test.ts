import { describe, expect, it } from 'vitest';
import { createAccountLanes, RATE_LIMIT_SHARE } from '../../src/execution/account-lanes.js';

/** A clock that moves only when the lanes sleep. */
function fakeTime() {
  let nowMs = 0;
  return {
    now: () => nowMs,
    sleep: async (ms: number) => {
      nowMs += ms;
    },
  };
}

describe('account lanes', () => {
  it('runs one account one at a time, in order, and accounts side by side', async () => {
    const lanes = createAccountLanes();
    const log: string[] = [];
    const step = (name: string, ms: number) => async () => {
      log.push(`${name}+`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name}-`);
    };
    await Promise.all([
      lanes.run(1, step('a1', 20)),
      lanes.run(1, step('a2', 1)),
      lanes.run(2, step('b1', 5)),
    ]);
    expect(log.indexOf('a1-')).toBeLessThan(log.indexOf('a2+'));
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  it("goes on after a failure of the account's previous work", async () => {
    const lanes = createAccountLanes();
    const failing = lanes.run(1, async () => {
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    await expect(lanes.run(1, async () => 'next')).resolves.toBe('next');
  });

  it('keeps every sliding window of every limit under its share of the venue limit', async () => {
    const time = fakeTime();
    const lanes = createAccountLanes(time);
    const limits = [
      { limit: 10, windowMs: 1_000 },
      { limit: 30, windowMs: 10_000 },
    ];
    const sent: number[] = [];
    for (let i = 0; i < 100; i++) {
      await lanes.takeOrderSlot(7, limits);
      sent.push(time.now());
    }
    for (const { limit, windowMs } of limits) {
      const allowed = Math.floor(limit * RATE_LIMIT_SHARE);
      for (const start of sent) {
        const inWindow = sent.filter((t) => t >= start && t < start + windowMs).length;
        expect(inWindow).toBeLessThanOrEqual(allowed);
      }
    }
    // Another account has its own windows.
    const before = time.now();
    await lanes.takeOrderSlot(8, limits);
    expect(time.now()).toBe(before);
  });
});
