import { createKeyedQueue } from '../common/keyed-queue.js';
import type { OrderRateLimit } from '../exchange/exchange-capabilities.js';

// Concurrency per exchange account: the work of one account runs one at a time, in order (its
// orders, leverage changes, protective orders); different accounts run side by side. Orders
// also wait for the account's rate limits (the venue's, from the capability table, with a
// margin), so the exchange never refuses one for its rate.

/** Share of a venue's limit the core uses: room for the account's other clients and clock drift. */
export const RATE_LIMIT_SHARE = 0.9;

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sliding window per limit: at most `limit` sends in any `windowMs` (exact, unlike buckets). */
class SlidingWindows {
  private readonly sent: number[][];
  constructor(private readonly limits: readonly OrderRateLimit[]) {
    this.sent = limits.map(() => []);
  }
  /** Milliseconds to wait before the next send may go at `nowMs` (0: now). */
  waitMs(nowMs: number): number {
    let wait = 0;
    this.limits.forEach((rule, i) => {
      const times = this.sent[i] ?? [];
      while (times.length > 0 && (times[0] ?? 0) <= nowMs - rule.windowMs) times.shift();
      const allowed = Math.max(1, Math.floor(rule.limit * RATE_LIMIT_SHARE));
      if (times.length >= allowed) {
        const oldest = times[times.length - allowed] ?? nowMs;
        wait = Math.max(wait, oldest + rule.windowMs - nowMs + 1);
      }
    });
    return wait;
  }
  record(nowMs: number): void {
    for (const times of this.sent) times.push(nowMs);
  }
}

export interface AccountLanes {
  /** Runs `work` after the account's earlier work (a failure does not block the next). */
  run<T>(accountId: number, work: () => Promise<T>): Promise<T>;
  /** Waits until the account may send one more order, and counts it. Call inside `run`. */
  takeOrderSlot(accountId: number, limits: readonly OrderRateLimit[]): Promise<void>;
  /** Resolves when every lane is idle. */
  idle(): Promise<void>;
}

export function createAccountLanes(
  options: { now?: () => number; sleep?: Sleep } = {},
): AccountLanes {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const queue = createKeyedQueue<number>();
  const windows = new Map<number, SlidingWindows>();

  return {
    run: (accountId, work) => queue.run(accountId, work),
    async takeOrderSlot(accountId, limits) {
      let window = windows.get(accountId);
      if (!window) {
        window = new SlidingWindows(limits);
        windows.set(accountId, window);
      }
      for (let wait = window.waitMs(now()); wait > 0; wait = window.waitMs(now())) {
        await sleep(wait);
      }
      window.record(now());
    },
    idle: () => queue.idle(),
  };
}
