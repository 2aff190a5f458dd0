import { createKeyedQueue } from '../common/keyed-queue.js';
import { SlidingWindow } from '../common/rate-window.js';
import type { OrderRateLimit } from '../exchange/exchange-capabilities.js';

// Concurrency per exchange account: the work of one account runs one at a time, in order (its
// orders, leverage changes, protective orders); different accounts run side by side. Orders
// also wait for the account's rate limits (the venue's, from the capability table, with a
// margin), so the exchange never refuses one for its rate.

/** Share of a venue's limit the core uses: room for the account's other clients and clock drift. */
export const RATE_LIMIT_SHARE = 0.9;

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const windows = new Map<number, SlidingWindow>();

  return {
    run: (accountId, work) => queue.run(accountId, work),
    async takeOrderSlot(accountId, limits) {
      let window = windows.get(accountId);
      if (!window) {
        // The core's share of each of the venue's limits, in exact sliding windows.
        window = new SlidingWindow(
          limits.map((rule) => ({
            limit: Math.max(1, Math.floor(rule.limit * RATE_LIMIT_SHARE)),
            windowMs: rule.windowMs,
          })),
        );
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
