import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DatabaseKind } from '../db/database.js';
import { workerLeases } from '../db/schema/index.js';

// Row leases in the database: a resource (a bot, later a copy relation) is driven by the one
// worker process holding its lease. A holder renews its leases well within their time to live;
// a holder that dies stops renewing, its leases expire, and another worker takes them over.
// Expiry is judged by the database's clock, never a worker's. A worker also stops acting on a
// lease it could not renew in time (a frozen process must not trade on a lease now someone
// else's): `isHeld` answers by its own last renewal.

/** A lease lives this long after its last renewal. */
export const LEASE_TTL_MS = 20_000;
/** Holders renew (and workers look for free leases) this often: a dead holder's resources move within TTL + this. */
export const LEASE_RENEW_MS = 5_000;

export interface Leases {
  readonly holderId: string;
  /** Takes every free or expired lease among `resources`; answers those this worker now holds. */
  acquire(resources: readonly string[]): Promise<string[]>;
  /** Extends every lease this worker holds; answers the ones it lost meanwhile. */
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

  const mark = (resources: readonly string[], startedAt: number) => {
    for (const resource of resources) validUntil.set(resource, startedAt + ttlMs - margin);
  };

  return {
    holderId,
    async acquire(resources) {
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
      for (const resource of lost) {
        validUntil.delete(resource);
        epochs.delete(resource);
      }
      mark([...kept], startedAt);
      return lost;
    },
    async release(resources) {
      if (resources.length === 0) return;
      for (const resource of resources) {
        validUntil.delete(resource);
        epochs.delete(resource);
      }
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
