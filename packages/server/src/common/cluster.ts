import { hostname } from 'node:os';
import { and, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { clusterMembers, workerLeases } from '../db/schema/index.js';
import type { Clock } from './clock.js';

// The processes of one deployment. Each beats its heart in `cluster_members`; the members that
// drive work (role `all` or `worker`) and beat recently are the live drivers. Work is shared out
// among them by rendezvous hashing of its lane (an exchange account, or the resource itself):
// every driver computes the same preferred driver for a lane from the same member list, so each
// takes the free leases it prefers and gives back those it no longer prefers when a driver joins.
// A driver that dies stops beating; once its beat is stale it drops out of every list, and its
// leases, once expired, go to the lanes' new preferred drivers.

/** What a process does: everything (one process), the HTTP side only, or the workers only. */
export type ProcessRole = 'all' | 'api' | 'worker';
export const PROCESS_ROLES: readonly ProcessRole[] = ['all', 'api', 'worker'];

/** How often a member beats. */
export const HEARTBEAT_MS = 5_000;
/** A member whose last beat is older than this is not live. */
export const HEARTBEAT_TTL_MS = 15_000;
/** Members that have not beaten for this long are forgotten (the staff list shows the rest). */
export const MEMBER_FORGET_MS = 60 * 60_000;

/** Whether this process is the one to drive a resource's lane (single processes: always). */
export interface LanePreference {
  prefers(resource: string): boolean;
}

/** Resources and their lanes (`bot:7` → `account:3`), read from the modules that own them. */
export type LaneSource = () => Promise<Iterable<readonly [resource: string, lane: string]>>;

export interface ClusterMembership extends LanePreference {
  readonly id: string;
  readonly role: ProcessRole;
  /** Beats once (joining the cluster), then every HEARTBEAT_MS. */
  start(): Promise<void>;
  /** Stops beating and leaves the list (a clean shutdown: the others take over at once). */
  stop(): Promise<void>;
  /** One beat: writes this member's row and reads the live drivers. */
  beat(): Promise<void>;
  /** The live drivers as of the last beat (sorted ids). */
  drivers(): readonly string[];
}

/** Whether a role drives work (bots, copy relations, webhook signals, scheduled jobs). */
export const drivesWork = (role: ProcessRole) => role !== 'api';

/** A 32-bit hash of a string (FNV-1a with murmur's finaliser: even spread for short keys). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The driver among `drivers` that a lane belongs to (highest random weight); undefined if none. */
export function preferredDriver(drivers: readonly string[], lane: string): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const driver of drivers) {
    const score = hash32(`${driver}\u0000${lane}`);
    if (score > bestScore || (score === bestScore && best !== undefined && driver < best)) {
      best = driver;
      bestScore = score;
    }
  }
  return best;
}

export function createClusterMembership(deps: {
  db: Database;
  clock: Clock;
  id: string;
  role: ProcessRole;
  heartbeatMs?: number;
  ttlMs?: number;
  /** Where resources' lanes are read from at each beat; a resource not named is its own lane. */
  lanes?: readonly LaneSource[];
  log?: { warn(details: object, message: string): void };
}): ClusterMembership {
  const ttlMs = deps.ttlMs ?? HEARTBEAT_TTL_MS;
  const drives = drivesWork(deps.role);
  const startedAt = deps.clock.now();
  /** Until the first beat, this process counts itself alone (it takes only free leases anyway). */
  let live: readonly string[] = drives ? [deps.id] : [];
  let laneOf = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | null = null;

  async function beat(): Promise<void> {
    await deps.db
      .insert(clusterMembers)
      .values({
        id: deps.id,
        role: deps.role,
        host: hostname(),
        pid: process.pid,
        startedAt,
        lastHeartbeat: sql`now()`,
      })
      .onConflictDoUpdate({ target: clusterMembers.id, set: { lastHeartbeat: sql`now()` } });
    const rows = await deps.db
      .select({ id: clusterMembers.id })
      .from(clusterMembers)
      .where(
        and(
          inArray(clusterMembers.role, ['all', 'worker']),
          sql`${clusterMembers.lastHeartbeat} > now() - ${ttlMs} * interval '1 millisecond'`,
        ),
      );
    const ids = new Set(rows.map((row) => row.id));
    // This process drives as long as it runs, whatever a slow beat let the others think.
    if (drives) ids.add(deps.id);
    live = [...ids].sort();
    if (deps.lanes && deps.lanes.length > 0) {
      const next = new Map<string, string>();
      for (const source of deps.lanes)
        for (const [resource, lane] of await source()) next.set(resource, lane);
      laneOf = next;
    }
    await deps.db
      .delete(clusterMembers)
      .where(
        lt(
          clusterMembers.lastHeartbeat,
          sql`now() - ${MEMBER_FORGET_MS} * interval '1 millisecond'`,
        ),
      );
  }

  const beatOnce = () => {
    beating ??= beat()
      .catch((error: unknown) => deps.log?.warn({ err: error }, 'cluster heartbeat failed'))
      .finally(() => {
        beating = null;
      });
    return beating;
  };

  return {
    id: deps.id,
    role: deps.role,
    async start() {
      await beat();
      if (timer) return;
      timer = setInterval(() => void beatOnce(), deps.heartbeatMs ?? HEARTBEAT_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await beating;
      await deps.db
        .delete(clusterMembers)
        .where(inArray(clusterMembers.id, [deps.id]))
        .catch(() => undefined);
    },
    beat: async () => {
      await beat();
    },
    drivers: () => live,
    prefers(resource) {
      if (!drives) return false;
      if (live.length === 1) return true;
      return preferredDriver(live, laneOf.get(resource) ?? resource) === deps.id;
    },
  };
}

/** A member as staff see it, with the leases it holds by kind (`bot`, `copy`, `webhook`, `job`). */
export interface ClusterMemberView {
  readonly id: string;
  readonly role: ProcessRole;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: Date;
  readonly lastHeartbeat: Date;
  readonly isLive: boolean;
  readonly leases: Record<string, number>;
}

/** Every remembered member, live first, with the leases each holds now (unexpired). */
export async function readCluster(
  db: Database,
  ttlMs: number = HEARTBEAT_TTL_MS,
): Promise<ClusterMemberView[]> {
  const members = await db
    .select({
      id: clusterMembers.id,
      role: clusterMembers.role,
      host: clusterMembers.host,
      pid: clusterMembers.pid,
      startedAt: clusterMembers.startedAt,
      lastHeartbeat: clusterMembers.lastHeartbeat,
      isLive: sql<boolean>`${clusterMembers.lastHeartbeat} > now() - ${ttlMs} * interval '1 millisecond'`,
    })
    .from(clusterMembers)
    .orderBy(clusterMembers.startedAt);
  const held = await db
    .select({
      holder: workerLeases.holder,
      kind: sql<string>`split_part(${workerLeases.resource}, ':', 1)`,
      count: sql<number>`count(*)::int`,
    })
    .from(workerLeases)
    .where(sql`${workerLeases.expiresAt} > now()`)
    .groupBy(workerLeases.holder, sql`split_part(${workerLeases.resource}, ':', 1)`);
  const byHolder = new Map<string, Record<string, number>>();
  for (const row of held) {
    const kinds = byHolder.get(row.holder) ?? {};
    kinds[row.kind] = Number(row.count);
    byHolder.set(row.holder, kinds);
  }
  return members
    .map((member) => ({ ...member, leases: byHolder.get(member.id) ?? {} }))
    .sort((a, b) => Number(b.isLive) - Number(a.isLive));
}
