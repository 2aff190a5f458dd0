import { jobLease, LEASE_RENEW_MS, type Leases } from './leases.js';

// Work one process of the cluster does at a time (the scheduled jobs, the outbox relay): each
// name is a lease, kept by the process whose lane it is (see cluster.ts) and taken over by
// another once that process stops renewing it.

/** The outbox relay's singleton name. */
export const OUTBOX_RELAY_JOB = 'outbox-relay';

export interface Singletons {
  /** Takes the leases this process should hold, then keeps them every LEASE_RENEW_MS. */
  start(): Promise<void>;
  /** Lets them go (a clean shutdown: another process takes them over at its next look). */
  stop(): Promise<void>;
  /** Whether this process runs `name` now. */
  holds(name: string): boolean;
}

export function createSingletons(deps: {
  leases: Leases;
  names: () => readonly string[];
  renewMs?: number;
  log?: { warn(details: object, message: string): void };
}): Singletons {
  const { leases } = deps;
  let timer: NodeJS.Timeout | undefined;
  let upkeep: Promise<void> | null = null;

  async function keep(): Promise<void> {
    await leases.renew();
    const missing = deps
      .names()
      .map(jobLease)
      .filter((lease) => !leases.isHeld(lease));
    await leases.acquire(missing);
  }
  const keepOnce = () => {
    upkeep ??= keep()
      .catch((error: unknown) => deps.log?.warn({ err: error }, 'singleton leases not kept'))
      .finally(() => {
        upkeep = null;
      });
    return upkeep;
  };

  return {
    async start() {
      await keepOnce();
      if (timer) return;
      timer = setInterval(() => void keepOnce(), deps.renewMs ?? LEASE_RENEW_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await upkeep;
      await leases.release(leases.held()).catch(() => undefined);
    },
    holds: (name) => leases.isHeld(jobLease(name)),
  };
}
