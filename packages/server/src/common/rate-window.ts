// Rate windows: how much may be spent now under limits of `limit` per `windowMs`, kept exact as a
// sliding log of what was spent and when (no boundary where two windows' worth can pass at
// once, as with fixed windows). The one rate window of the server: an account's order limits
// (execution/account-lanes.ts), a venue's per-address budget in one process
// (exchange/venue-budget.ts; on Redis it counts fixed windows, the form a shared counter takes),
// and the webhook receiver's per-key limits.

export interface RateLimit {
  /** The most that may be spent in any `windowMs`. */
  readonly limit: number;
  readonly windowMs: number;
}

interface Spend {
  readonly at: number;
  readonly cost: number;
}

/** One sliding log under one or more limits (an account's, a key's). */
export class SlidingWindow {
  private readonly spent: Spend[] = [];
  private readonly longestMs: number;

  constructor(private readonly limits: readonly RateLimit[]) {
    this.longestMs = Math.max(0, ...limits.map((rule) => rule.windowMs));
  }

  /**
   * Milliseconds to wait before `cost` more may be spent at `nowMs` (0: now). A cost above a
   * limit goes alone: once nothing else is in that window.
   */
  waitMs(nowMs: number, cost = 1): number {
    this.forget(nowMs);
    let wait = 0;
    for (const rule of this.limits) {
      const from = nowMs - rule.windowMs;
      let used = 0;
      for (const spend of this.spent) if (spend.at > from) used += spend.cost;
      if (used === 0 || used + cost <= rule.limit) continue;
      // The oldest spends in the window leave it one by one until the cost fits.
      let freed = 0;
      for (const spend of this.spent) {
        if (spend.at <= from) continue;
        freed += spend.cost;
        if (used - freed === 0 || used - freed + cost <= rule.limit) {
          wait = Math.max(wait, spend.at + rule.windowMs - nowMs + 1);
          break;
        }
      }
    }
    return wait;
  }

  /** Counts `cost` spent at `nowMs`. */
  record(nowMs: number, cost = 1): void {
    this.spent.push({ at: nowMs, cost });
  }

  /** Whether nothing is left in any window at `nowMs` (the log may be dropped). */
  isIdle(nowMs: number): boolean {
    this.forget(nowMs);
    return this.spent.length === 0;
  }

  private forget(nowMs: number): void {
    while (this.spent.length > 0 && (this.spent[0]?.at ?? 0) <= nowMs - this.longestMs) {
      this.spent.shift();
    }
  }
}

/** Sliding windows by key, at most `maxKeys` kept (idle ones are dropped first). */
export function createKeyedWindows<K>(limits: readonly RateLimit[], maxKeys = 100_000) {
  const windows = new Map<K, SlidingWindow>();
  return {
    /** The key's window, made on first use. */
    of(key: K, nowMs: number): SlidingWindow {
      let window = windows.get(key);
      if (!window) {
        if (windows.size >= maxKeys) {
          for (const [k, w] of windows) if (w.isIdle(nowMs)) windows.delete(k);
          if (windows.size >= maxKeys) windows.clear();
        }
        window = new SlidingWindow(limits);
        windows.set(key, window);
      }
      return window;
    },
  };
}
