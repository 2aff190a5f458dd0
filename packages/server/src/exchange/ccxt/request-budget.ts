// ccxt's request pacing without its polling loop. A ccxt instance paces its requests with a
// leaky bucket: tokens refill at `refillRate` per ms up to `capacity`, a request may go once the
// tokens are at or above 0 and then takes its cost. ccxt runs that as a loop that sleeps 1 ms and
// looks again, so every request that has to wait costs tens of timers, and every request a
// promise queue. Here the same bucket is computed when a request asks: one that may go goes at
// once, one that must wait reserves its place and sleeps once, exactly as long as the bucket
// needs. The pacing (what the venue sees) is the same; the CPU per request is a few arithmetic
// steps. The core's lanes pace orders on top of this (the venue's order-count limits).

type Sleep = (ms: number) => Promise<void>;

interface LeakyBucket {
  readonly refillRate: number;
  readonly capacity: number;
  readonly cost?: number;
  readonly tokens?: number;
  readonly algorithm?: string;
}

const GO = Promise.resolve();
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replaces the instance's `throttle` with the computed bucket. Answers false (and changes
 * nothing) when the instance paces otherwise (a rolling window) or has no bucket.
 */
export function installRequestBudget(
  instance: object,
  clock: { now?: () => number; sleep?: Sleep } = {},
): boolean {
  const target = instance as { tokenBucket?: LeakyBucket; throttle: (cost?: number) => unknown };
  const bucket = target.tokenBucket;
  if (!bucket || bucket.algorithm === 'rollingWindow' || !(bucket.refillRate > 0)) return false;
  const now = clock.now ?? (() => performance.now());
  const sleep = clock.sleep ?? realSleep;
  const refillPerMs = bucket.refillRate;
  const capacity = bucket.capacity;
  let tokens = bucket.tokens ?? 0;
  let lastMs = now();
  target.throttle = (cost?: number) => {
    const spend = cost ?? bucket.cost ?? 1;
    const at = now();
    tokens = Math.min(capacity, tokens + (at - lastMs) * refillPerMs);
    lastMs = at;
    const waitMs = tokens >= 0 ? 0 : -tokens / refillPerMs;
    // Taken now: a later request waits behind this one's reservation.
    tokens -= spend;
    return waitMs === 0 ? GO : sleep(waitMs);
  };
  return true;
}

/**
 * Adds the venue's budget per address to every request of the instance, and takes the lane-paced
 * requests (the paths given: creating, cancelling and fetching one order, which the core's account
 * lanes pace) out of the instance's own bucket so they are not paced twice. Every other request
 * still waits for the instance's bucket first. ccxt's fetch2 calls throttle before its first
 * await, so the flag set around that call is exact.
 */
export function installVenuePacing(
  instance: object,
  lanePacedPaths: ReadonlySet<string>,
  takeFromVenue: (cost: number) => Promise<void>,
): void {
  const target = instance as {
    throttle: (cost?: number) => unknown;
    fetch2: (path: string, ...rest: unknown[]) => Promise<unknown>;
  };
  const own = target.throttle.bind(instance);
  const fetch2 = target.fetch2.bind(instance);
  let lanePaced = false;
  target.fetch2 = (path: string, ...rest: unknown[]) => {
    lanePaced = lanePacedPaths.has(path);
    try {
      return fetch2(path, ...rest);
    } finally {
      lanePaced = false;
    }
  };
  target.throttle = async (cost?: number) => {
    if (!lanePaced) await own(cost);
    await takeFromVenue(cost ?? 1);
  };
}
