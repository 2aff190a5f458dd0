import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DatabaseKind } from '../db/database.js';
import { workerLeases } from '../db/schema/index.js';
import type { LanePreference } from './cluster.js';

// Row leases in the database: a resource (a bot, later a copy relation) is driven by the one
// worker process holding its lease. A holder renews its leases well within their time to live;
// a holder that dies stops renewing, its leases expire, and another worker takes them over.
// Expiry is judged by the database's clock, never a worker's. A worker also stops acting on a
// lease it could not renew in time (a frozen process must not trade on a lease now someone
// else's): `isHeld` answers by its own last renewal.
//
// In a cluster (a `preference`, see cluster.ts) a worker takes only the free leases of the lanes
// it prefers, and gives back, at renewal, those it no longer prefers (a driver joined): work is
// shared out evenly, and all the resources of one lane (an exchange account) go to one process.
// A lease taken for a command (`force`: a user's stop or close) is kept until released.

/** A lease lives this long after its last renewal. */
export const LEASE_TTL_MS = 20_000;
/** Holders renew (and workers look for free leases) this often: a dead holder's resources move within TTL + this. */
export const LEASE_RENEW_MS = 5_000;

export interface Leases {
  readonly holderId: string;
  /**
   * Takes the free or expired leases among `resources` whose lane this worker prefers (all of
   * them with `force`, kept until released); answers those this worker now holds.
   */
  acquire(resources: readonly string[], options?: { force?: boolean }): Promise<string[]>;
  /**
   * Extends every lease this worker holds; answers the ones it lost meanwhile, and those it gave
   * back because another live worker now prefers their lane (the caller stops driving both).
   */
  renew(): Promise<string[]>;

  /** Gives leases up (a clean shutdown: others take over at once). */
  release(resources: readonly string[]): Promise<void>;
  /** Whether this worker holds `resource` and renewed it recently enough to act on it. */
  isHeld(resource: string): boolean;
  /**
   * The fencing token of a lease this worker holds (resource, holder, epoch), for the orders it
   * submits: the execution core claims them only while exactly this lease is current.
   */
  fenceOf(resource: string): LeaseFence | undefined;
  /** The resources this worker holds. */
  held(): string[];
}

/** A lease as a driver held it when it decided: its resource, holder and epoch. */
export interface LeaseFence {
  readonly resource: string;
  readonly holder: string;
  readonly epoch: number;
}

export function createLeases(deps: {
  db: Database;
  holderId?: string;
  ttlMs?: number;
  /** A monotonic clock in ms (the default is the process's). */
  monotonicNow?: () => number;
  /** Which lanes this worker drives in a cluster; without it, every lane. */
  preference?: LanePreference | undefined;
}): Leases {
  const holderId = deps.holderId ?? randomUUID();
  const ttlMs = deps.ttlMs ?? LEASE_TTL_MS;
  const now = deps.monotonicNow ?? (() => performance.now());
  /** Resource → local time until which this worker may act on it (a margin under the TTL). */
  const validUntil = new Map<string, number>();
  /** Resource → the epoch this worker took it at. */
  const epochs = new Map<string, number>();
  const expiresAt = sql`now() + ${ttlMs} * interval '1 millisecond'`;
  const margin = ttlMs / 4;
  /** Leases taken for a command: kept whatever the preference, until released. */
  const pinned = new Set<string>();
  const prefers = (resource: string) =>
    deps.preference === undefined || deps.preference.prefers(resource);

  const forget = (resource: string) => {
    validUntil.delete(resource);
    epochs.delete(resource);
    pinned.delete(resource);
  };
  const mark = (resources: readonly string[], startedAt: number) => {
    for (const resource of resources) validUntil.set(resource, startedAt + ttlMs - margin);
  };

  return {
    holderId,
    async acquire(all, options) {
      const force = options?.force === true;
      const resources = force ? all : all.filter(prefers);
      if (resources.length === 0) return [];
      const startedAt = now();
      const rows = await deps.db
        .insert(workerLeases)
        .values(resources.map((resource) => ({ resource, holder: holderId, expiresAt })))
        .onConflictDoUpdate({
          target: workerLeases.resource,
          // A new holder raises the epoch; the holder renewing its own keeps it.
          set: {
            holder: holderId,
            expiresAt,
            epoch: sql`case when ${workerLeases.holder} = ${holderId} then ${workerLeases.epoch} else ${workerLeases.epoch} + 1 end`,
          },
          setWhere: sql`${workerLeases.expiresAt} < now() or ${workerLeases.holder} = ${holderId}`,
        })
        .returning({ resource: workerLeases.resource, epoch: workerLeases.epoch });
      for (const row of rows) epochs.set(row.resource, row.epoch);
      const acquired = rows.map((row) => row.resource);
      if (force) for (const resource of acquired) pinned.add(resource);
      mark(acquired, startedAt);
      return acquired;
    },
    async renew() {
      const mine = [...validUntil.keys()];
      if (mine.length === 0) return [];
      const startedAt = now();
      const rows = await deps.db
        .update(workerLeases)
        .set({ expiresAt })
        .where(and(eq(workerLeases.holder, holderId), inArray(workerLeases.resource, mine)))
        .returning({ resource: workerLeases.resource });
      const kept = new Set(rows.map((row) => row.resource));
      const lost = mine.filter((resource) => !kept.has(resource));
      for (const resource of lost) forget(resource);
      mark([...kept], startedAt);
      // Lanes another live worker now prefers: given back expired (not deleted, so the next
      // holder's epoch is higher than ours), for that worker's next look.
      const handedOver = [...kept].filter(
        (resource) => !pinned.has(resource) && !prefers(resource),
      );
      if (handedOver.length > 0) {
        for (const resource of handedOver) forget(resource);
        await deps.db
          .update(workerLeases)
          .set({ expiresAt: sql`now() - interval '1 millisecond'` })
          .where(
            and(eq(workerLeases.holder, holderId), inArray(workerLeases.resource, handedOver)),
          );
      }
      return [...lost, ...handedOver];
    },
    async release(resources) {
      if (resources.length === 0) return;
      for (const resource of resources) forget(resource);
      await deps.db
        .delete(workerLeases)
        .where(
          and(eq(workerLeases.holder, holderId), inArray(workerLeases.resource, [...resources])),
        );
    },
    isHeld(resource) {
      const until = validUntil.get(resource);
      return until !== undefined && now() < until;
    },
    held() {
      return [...validUntil.keys()];
    },
    fenceOf(resource) {
      const epoch = epochs.get(resource);
      return epoch === undefined || !validUntil.has(resource)
        ? undefined
        : { resource, holder: holderId, epoch };
    },
  };
}

/**
 * This worker's lease holder id. The embedded database is opened by one process at a time (the
 * data-dir lock), so its holder is always the same: a restart takes its leases back at once. On
 * PostgreSQL every process is a worker of its own.
 */
export function workerHolderId(databaseKind: DatabaseKind): string {
  return databaseKind === 'pglite' ? 'embedded' : `${hostname()}:${process.pid}:${randomUUID()}`;
}

/** The lease name of a bot. */
export const botLease = (botId: number) => `bot:${botId}`;

/** The lease name of a copy relation. */
export const copyLease = (relationId: number) => `copy:${relationId}`;
export const isCopyLease = (resource: string) => resource.startsWith('copy:');

/** The lease name of a webhook configuration (its signals run in the process holding it). */
export const webhookLease = (configId: number) => `webhook:${configId}`;

/** The lane of an exchange account: its bots, copy relations and webhook configurations. */
export const accountLane = (accountId: number) => `account:${accountId}`;

/** The lease name of a scheduled job or singleton loop (run by one process of the cluster). */
export const jobLease = (name: string) => `job:${name}`;
