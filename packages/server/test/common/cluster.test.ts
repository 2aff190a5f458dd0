import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/common/clock.js';
import {
  type ClusterMembership,
  createClusterMembership,
  type ProcessRole,
  preferredDriver,
  readCluster,
} from '../../src/common/cluster.js';
import { accountLane, createLeases, jobLease, type Leases } from '../../src/common/leases.js';
import { createScheduler, nextFullHour, type ScheduledJob } from '../../src/common/scheduler.js';
import { createSingletons } from '../../src/common/singletons.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createTestDatabase } from '../helpers/test-database.js';

// The cluster's share-out on a real database: processes beat in cluster_members, and each takes
// only the free leases of the lanes it prefers, gives back those another live process now
// prefers, and takes over a dead one's once its beat is stale and its leases expired.

const TTL_MS = 900;
const BEAT_TTL_MS = 600;

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** 200 bots on 100 accounts (two per account), as lease names with their lanes. */
const resources = Array.from({ length: 200 }, (_, i) => `bot:${i + 1}`);
const laneOf = (resource: string) => accountLane(Math.ceil(Number(resource.slice(4)) / 2));
const lanes = async () => resources.map((r) => [r, laneOf(r)] as const);

interface Member {
  membership: ClusterMembership;
  leases: Leases;
}

function member(id: string, role: ProcessRole = 'worker'): Member {
  const membership = createClusterMembership({
    db: database.db,
    clock: systemClock,
    id,
    role,
    ttlMs: BEAT_TTL_MS,
    lanes: [lanes],
  });
  const leases = createLeases({
    db: database.db,
    holderId: id,
    ttlMs: TTL_MS,
    preference: membership,
  });
  return { membership, leases };
}

/** Every member beats, renews and takes the free leases it prefers (one upkeep round). */
async function round(members: readonly Member[]): Promise<string[][]> {
  for (const m of members) await m.membership.beat();
  const lost: string[][] = [];
  for (const m of members) {
    lost.push(await m.leases.renew());
    await m.leases.acquire(resources.filter((r) => !m.leases.isHeld(r)));
  }
  return lost;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the cluster share-out', () => {
  it('picks one preferred driver per lane, the same from every member, spread evenly', () => {
    const drivers = ['w-a', 'w-b', 'w-c'];
    const counts = new Map<string, number>();
    for (let account = 1; account <= 3000; account++) {
      const chosen = preferredDriver(drivers, accountLane(account));
      expect(chosen).toBe(preferredDriver([...drivers].reverse(), accountLane(account)));
      counts.set(chosen ?? '', (counts.get(chosen ?? '') ?? 0) + 1);
    }
    for (const driver of drivers) expect(counts.get(driver)).toBeGreaterThan(800);
    expect(preferredDriver([], 'account:1')).toBeUndefined();
  });

  it('splits the leases between two workers by account, takes a joiner in, and a dead share over', async () => {
    const a = member('worker-a');
    const b = member('worker-b');
    const api = member('api-1', 'api');
    await api.membership.beat();
    await round([a, b]);
    await round([a, b]);

    // An api member drives nothing and is not counted.
    expect(a.membership.drivers()).toEqual(['worker-a', 'worker-b']);
    expect(await api.leases.acquire(resources)).toEqual([]);
    const heldA = a.leases.held();
    const heldB = b.leases.held();
    expect(heldA.length + heldB.length).toBe(200);
    expect(Math.max(heldA.length, heldB.length)).toBeLessThanOrEqual(130);
    // Both bots of an account are driven by the same process.
    for (const resource of heldA) {
      const sibling = resources.find((r) => r !== resource && laneOf(r) === laneOf(resource));
      expect(sibling && a.leases.isHeld(sibling)).toBe(true);
    }

    // A third worker joins: the others give back what it now prefers; it takes it at its next look.
    const c = member('worker-c');
    await c.membership.beat();
    const lost = await round([a, b, c]);
    const handedOver = [...(lost[0] ?? []), ...(lost[1] ?? [])];
    expect(handedOver.length).toBeGreaterThan(30);
    await round([a, b, c]);
    const shares = [a, b, c].map((m) => m.leases.held().length);
    expect(shares.reduce((x, y) => x + y, 0)).toBe(200);
    for (const share of shares) expect(share).toBeGreaterThan(40);
    // Each lease has exactly one holder in the database too.
    const view = await readCluster(database.db, BEAT_TTL_MS);
    const botsByMember = new Map(view.map((m) => [m.id, m.leases.bot ?? 0]));
    expect(botsByMember.get('worker-a')).toBe(shares[0]);
    expect(botsByMember.get('worker-c')).toBe(shares[2]);
    expect(view.find((m) => m.id === 'api-1')?.role).toBe('api');

    // worker-b dies (stops beating and renewing): once its beat is stale and its leases have
    // expired, a and c share its lanes out between them.
    await sleep(TTL_MS + 50);
    await round([a, c]);
    await round([a, c]);
    expect(a.membership.drivers()).toEqual(['worker-a', 'worker-c']);
    expect(a.leases.held().length + c.leases.held().length).toBe(200);

    // A clean stop leaves the list at once.
    await c.membership.stop();
    await a.membership.beat();
    expect(a.membership.drivers()).toEqual(['worker-a']);
    expect((await readCluster(database.db, BEAT_TTL_MS)).map((m) => m.id)).not.toContain(
      'worker-c',
    );
  });

  it('keeps a lease taken for a command until it is released, whatever the preference', async () => {
    const a = member('cmd-a');
    const b = member('cmd-b');
    await a.membership.beat();
    await b.membership.beat();
    await a.membership.beat();
    // A resource b prefers, taken by a for a command.
    const resource = resources.find((r) => !a.membership.prefers(r) && b.membership.prefers(r));
    if (!resource) throw new Error('no resource preferred by b');
    await database.db.execute(`delete from worker_leases where resource = '${resource}'`);
    expect(await a.leases.acquire([resource])).toEqual([]);
    expect(await a.leases.acquire([resource], { force: true })).toEqual([resource]);
    expect(await a.leases.renew()).toEqual([]);
    expect(a.leases.isHeld(resource)).toBe(true);
    await a.leases.release([resource]);
    expect(await b.leases.acquire([resource])).toEqual([resource]);
    await a.membership.stop();
    await b.membership.stop();
  });

  it('runs each scheduled job and singleton in one process only, and moves it when that one dies', async () => {
    // The members of the tests before are stale by now.
    await sleep(BEAT_TTL_MS + 50);
    const clock = new ManualClock(new Date('2026-11-28T15:59:59Z'));
    const jobs = ['snapshots', 'metrics', 'risk', 'live-checks', 'outbox-relay'];
    const runs = new Map<string, string[]>();
    const make = (id: string) => {
      const m = member(`jobs-${id}`);
      const singletons = createSingletons({ leases: m.leases, names: () => jobs, renewMs: 60_000 });
      const scheduler = createScheduler({
        clock,
        log: { error: () => undefined },
        runsJob: (name) => singletons.holds(name),
      });
      for (const name of jobs.slice(0, 4)) {
        const job: ScheduledJob = {
          name,
          nextSlotAfter: nextFullHour,
          run: async () => {
            runs.set(name, [...(runs.get(name) ?? []), id]);
          },
        };
        scheduler.add(job);
      }
      return { ...m, singletons, scheduler };
    };
    const x = make('x');
    const y = make('y');
    await x.membership.beat();
    await y.membership.beat();
    await x.membership.beat();
    await x.singletons.start();
    await y.singletons.start();
    for (const name of jobs) {
      expect(Number(x.singletons.holds(name)) + Number(y.singletons.holds(name))).toBe(1);
    }
    clock.advanceSeconds(2);
    await x.scheduler.tick();
    await y.scheduler.tick();
    for (const name of jobs.slice(0, 4)) expect(runs.get(name)).toHaveLength(1);

    // x stops cleanly (its leases go at once): y takes every job at its next look.
    await x.singletons.stop();
    await x.membership.stop();
    await y.membership.beat();
    await y.singletons.stop();
    await y.singletons.start();
    for (const name of jobs) expect(y.singletons.holds(name)).toBe(true);
    expect(y.leases.held().sort()).toEqual(jobs.map(jobLease).sort());
    await y.singletons.stop();
    await y.membership.stop();
  });
});
