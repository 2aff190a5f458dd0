// Two copy-engine processes on one PostgreSQL (copy-child.ts, each a lease holder of its own, short
// leases), one leader and FOLLOWERS live followers on the ccxt fake, the events on Redis (every
// process hears the leader's fill, as in production; without Redis each process is told of the
// change by hand). Every relation is driven by exactly one process: the leader's change is copied
// once per follower, by the process holding the relation's lease. SIGKILL one process: a change
// right after the kill is copied by the survivor for its own relations at once and for the dead
// one's once their leases expire and the survivor takes them (its timer heals them); a change after
// the takeover is copied to every follower by the survivor. Never an order twice, nothing left
// pending or unknown.

import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyReceipts,
  copyRelations,
  executionOrders,
  operationLogs,
  workerLeases,
} from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { followerApiKey, LEADER_API_KEY } from './copy-fault-plan.js';
import {
  atTargets,
  LEASE_RENEW_MS,
  LEASE_TTL_MS,
  type LeaseRig,
  lead,
  sleep,
  sorted,
  startLeaseRig,
  targetOf,
  type Worker,
  waitFor,
} from './copy-lease-workers.js';

const FOLLOWERS = 20;
/** The leader's three changes: open, add, reduce. */
const LEADS = [0.2, 0.4, 0.1] as const;
/** Each wait's deadline: generous, for a loaded 2-core machine. */
const WAIT_MS = 45_000;
/** The takeover's deadline after the kill (TTL + renew + slack). */
const TAKEOVER_MS = LEASE_TTL_MS + LEASE_RENEW_MS + 25_000;

let rig: LeaseRig;
beforeAll(async () => {
  // Left alone, the first process to start takes every free lease and the other drives
  // nothing. As after a rolling restart, each worker holds a third already; a third is free.
  rig = await startLeaseRig({
    followers: FOLLOWERS,
    holderOf: (index) => (['a', 'b', null] as const)[index % 3] ?? null,
  });
});
afterAll(async () => {
  await rig?.close();
});

const submittedIds = (worker: Worker) => (worker.report.submitted ?? []).map(([id]) => id);

describe('two copy-engine processes on one PostgreSQL', () => {
  it('copies every change once per follower, by the lease holder; a killed process’s relations move to the survivor', async () => {
    const { fake, relationOf, allRelations, redis } = rig;
    const a = rig.startWorker(rig.holders.a);
    const b = rig.startWorker(rig.holders.b);
    const why = () => `${a.why()}\n${b.why()}`;
    await waitFor(() => a.report.ready !== undefined && b.report.ready !== undefined, WAIT_MS, why);

    // Every relation held by exactly one process, both driving some.
    const heldBy = () => [...(a.report.held ?? []), ...(b.report.held ?? [])];
    await waitFor(() => sorted(heldBy()).join() === allRelations.join(), WAIT_MS, why);
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      const both = (a.report.held ?? []).filter((id) => b.report.held?.includes(id));
      expect(both, why()).toEqual([]);
      await sleep(100);
    }
    const heldA = sorted(a.report.held ?? []);
    const heldB = sorted(b.report.held ?? []);
    expect(heldA.length, why()).toBeGreaterThan(0);
    expect(heldB.length, why()).toBeGreaterThan(0);

    // 1. The leader opens (in A): each follower's order is submitted once, by its lease holder.
    await lead(rig, a, [b], LEADS[0], 'lead1', WAIT_MS);
    await waitFor(() => atTargets(rig, a, LEADS[0]) && atTargets(rig, b, LEADS[0]), WAIT_MS, why);
    await sleep(1500); // a process driving what it must not would submit by now
    const firstA = submittedIds(a);
    const firstB = submittedIds(b);
    expect(
      firstA.filter((id) => firstB.includes(id)),
      'relations driven by both processes',
    ).toEqual([]);
    expect(sorted(firstA)).toEqual(heldA);
    expect(sorted(firstB)).toEqual(heldB);

    // 2. SIGKILL A; at once the leader adds (in B): B copies its own relations, and A's once
    // their leases expire and B takes them (its timer heals the change it could not copy).
    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    await lead(rig, b, [], LEADS[1], 'lead2', WAIT_MS);
    const takenAtLead2 = heldA.filter((id) => b.report.held?.includes(id)).length;
    // Until B holds one of A's relations it leaves it alone (never at the new target before);
    // B takes every one of them within the lease bound and brings it to the new target.
    const stolen = new Set<number>();
    let takeoverMs: number | undefined;
    await waitFor(
      () => {
        const { sizes, held } = b.report;
        for (const [index, id] of relationOf) {
          const moved = targetOf(LEADS[1], index).eq(sizes?.[id] ?? '0');
          if (heldA.includes(id) && moved && !held?.includes(id)) stolen.add(id);
        }
        if (takeoverMs === undefined && sorted(held ?? []).join() === allRelations.join()) {
          takeoverMs = Date.now() - killedAt;
        }
        return takeoverMs !== undefined && atTargets(rig, b, LEADS[1]);
      },
      TAKEOVER_MS + WAIT_MS,
      why,
    );
    expect(sorted(stolen), "A's relations B copied before it held them").toEqual([]);

    // 3. After the takeover the leader reduces: B copies it to every follower.
    await lead(rig, b, [], LEADS[2], 'lead3', WAIT_MS);
    await waitFor(() => atTargets(rig, b, LEADS[2]), WAIT_MS, why);
    await sleep(1500);
    const submittedB = b.report.submitted ?? [];
    b.child.kill('SIGTERM');
    await b.exited;
    console.info(
      `copy leases: A held ${heldA.length}, B ${heldB.length}; B took A's over ${takeoverMs} ms after the kill (${takenAtLead2} of them when the second change came; redis: ${redis})`,
    );
    expect(takeoverMs).toBeLessThan(TAKEOVER_MS);

    // Every relation: one submit per change across both processes, never the same key twice.
    const submits = [...(a.report.submitted ?? []), ...submittedB];
    for (const id of allRelations) {
      const keys = submits.filter(([relationId]) => relationId === id).map(([, key]) => key);
      expect(keys, `relation ${id}'s submits`).toHaveLength(LEADS.length);
      expect(new Set(keys).size, `relation ${id}'s submits`).toBe(LEADS.length);
    }
    expect(submittedIds(a)).toEqual(firstA); // A did nothing more before it died

    // The venue: no client order id posted twice, each follower one order per change.
    const posted = fake.callsTo('/fapi/v1/order', 'POST').map((c) => c.params.newClientOrderId);
    expect(
      posted.filter((id, i) => posted.indexOf(id) !== i),
      'posted twice',
    ).toEqual([]);
    for (const [index, id] of relationOf) {
      const label = `follower ${index} (relation ${id}, ${heldA.includes(id) ? 'A' : 'B'})`;
      const t1 = targetOf(LEADS[0], index);
      const t2 = targetOf(LEADS[1], index);
      const t3 = targetOf(LEADS[2], index);
      const orders = fake.state.orders.filter((o) => o.apiKey === followerApiKey(index));
      expect(
        orders.map((o) => [o.side, o.status, o.filled]),
        label,
      ).toEqual([
        ['buy', 'filled', t1.toNumber()],
        ['buy', 'filled', t2.minus(t1).toNumber()],
        ['sell', 'filled', t2.minus(t3).toNumber()],
      ]);
      // The fake sums its fills in floats.
      const atVenue = fake.state.accountPositions.get(followerApiKey(index)) ?? [];
      expect(
        atVenue.map((p) => [p.base, p.side, Number(p.size.toFixed(9))]),
        label,
      ).toEqual([['BTC', 'long', t3.toNumber()]]);
    }
    expect(fake.state.orders.filter((o) => o.apiKey === LEADER_API_KEY)).toHaveLength(3);

    await rig.read(async (db) => {
      const intents = await db.select().from(executionOrders);
      const byClientId = new Map(intents.map((i) => [i.clientOrderId, i]));
      for (const order of fake.state.orders) {
        expect(byClientId.get(order.clientOrderId)?.status, order.clientOrderId).toBe('filled');
      }
      expect(intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
      const receipts = await db.select().from(copyReceipts).orderBy(copyReceipts.id);
      for (const relation of await db.select().from(copyRelations)) {
        const index = [...relationOf].find(([, id]) => id === relation.id)?.[0] ?? -1;
        const label = `follower ${index} (relation ${relation.id})`;
        expect(relation.status, label).toBe('active');
        expect(relation.lastError, label).toBeNull();
        expect(relation.totalCopiedTrades, label).toBe(LEADS.length);
        expect(
          intents.filter((i) => i.ownerKind === 'copy' && i.ownerId === relation.id),
          label,
        ).toHaveLength(LEADS.length);
        expect(
          receipts
            .filter((r) => r.relationId === relation.id)
            .map((r) => [r.status, new Decimal(r.targetSize).toString()]),
          label,
        ).toEqual(LEADS.map((size) => ['copied', targetOf(size, index).toString()]));
      }
      const errors = await db.select().from(operationLogs);
      expect(errors.filter((l) => l.type === 'error').map((l) => l.message)).toEqual([]);
      // B's clean stop let go of every lease, A's taken over included.
      expect(await db.select().from(workerLeases)).toEqual([]);
    });
  }, 120_000);
});
