import type { Exchange } from '@quantsquare/contracts';
import { Redis } from 'ioredis';
import { SlidingWindow } from '../common/rate-window.js';
import { EXCHANGE_CAPABILITIES, type RequestWeightLimit } from './exchange-capabilities.js';

// A venue's request budget per address: Binance counts the weight of every request from one IP
// (2,400 a minute on USDⓈ-M), whichever account it is for, so every process on a host draws
// from one budget. On one process the budget is kept in memory; across processes (REDIS_URL) in
// Redis. The budget is spent per tenth of the venue's minute: no minute can exceed the venue's
// limit, and a burst is spread over the minute. In memory the windows slide; on Redis they are
// fixed (one counter per window, the form a shared count takes).
// Limits per account or instrument (order counts, OKX's per-instrument limits) are the account
// lanes' (execution/account-lanes.ts): all of an account's work runs in one process of the
// cluster, so a process's own count is the account's.

/** Share of the venue's limit spent by this deployment: room for the users' other tools. */
export const VENUE_BUDGET_SHARE = 0.9;
/** Windows per venue window: spend is spread over the minute, not taken at its start. */
const SUB_WINDOWS = 10;

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface VenueBudget {
  /** Waits until `cost` (the venue's weight of one request) fits in the budget, and spends it. */
  take(venue: Exchange, cost: number): Promise<void>;
  close(): Promise<void>;
}

/** The limit per sub-window and its length, or undefined for a venue without an address budget. */
function windowOf(limits: Partial<Record<Exchange, RequestWeightLimit>>, venue: Exchange) {
  const limit = limits[venue];
  if (!limit) return undefined;
  return {
    allowed: Math.max(1, Math.floor((limit.weight * VENUE_BUDGET_SHARE) / SUB_WINDOWS)),
    windowMs: Math.max(1, Math.floor(limit.windowMs / SUB_WINDOWS)),
  };
}

const defaultLimits = (): Partial<Record<Exchange, RequestWeightLimit>> =>
  Object.fromEntries(
    Object.entries(EXCHANGE_CAPABILITIES).flatMap(([venue, caps]) =>
      caps.requestWeightPerAddress ? [[venue, caps.requestWeightPerAddress]] : [],
    ),
  );

interface BudgetOptions {
  limits?: Partial<Record<Exchange, RequestWeightLimit>>;
  now?: () => number;
  sleep?: Sleep;
}

/**
 * The budget of one process (no Redis): the same share per tenth of the venue's window, in exact
 * sliding windows (common/rate-window.ts).
 */
export function createLocalVenueBudget(options: BudgetOptions = {}): VenueBudget {
  const limits = options.limits ?? defaultLimits();
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const windows = new Map<Exchange, SlidingWindow>();
  return {
    async take(venue, cost) {
      const window = windowOf(limits, venue);
      if (!window) return;
      let spent = windows.get(venue);
      if (!spent) {
        spent = new SlidingWindow([{ limit: window.allowed, windowMs: window.windowMs }]);
        windows.set(venue, spent);
      }
      // A request heavier than a whole window still goes, alone in its window.
      for (let wait = spent.waitMs(now(), cost); wait > 0; wait = spent.waitMs(now(), cost)) {
        await sleep(wait);
      }
      spent.record(now(), cost);
    },
    async close() {},
  };
}

/** The budget shared by every process on Redis: one counter per venue and window. */
export async function createRedisVenueBudget(
  options: BudgetOptions & { url: string; prefix: string },
): Promise<VenueBudget> {
  const limits = options.limits ?? defaultLimits();
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await client.connect();
  return {
    async take(venue, cost) {
      const window = windowOf(limits, venue);
      if (!window) return;
      for (;;) {
        const at = now();
        const index = Math.floor(at / window.windowMs);
        const key = `${options.prefix}:budget:${venue}:${index}`;
        const [[, used]] = ((await client
          .multi()
          .incrby(key, cost)
          .pexpire(key, window.windowMs * 2)
          .exec()) ?? [[null, 0]]) as [[unknown, number]];
        if (used <= window.allowed || used === cost) return;
        // Over: give the weight back and wait for the next window.
        await client.decrby(key, cost);
        await sleep((index + 1) * window.windowMs - at);
      }
    },
    async close() {
      await client.quit().catch(() => undefined);
    },
  };
}
