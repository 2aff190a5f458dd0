// A frozen lease holder (SIGSTOP, as a stalled VM or a long pause would) must not trade on its
// relations once their leases are another's (common/leases.ts: "a frozen process must not trade
// on a lease now someone else's"). Worker A holds every relation and is frozen in the middle of
// copying the leader's change: one follower's intent is written, its leverage call not yet
// answered (the fake answers it late), its order not sent. Worker B takes the relations over once
// A's leases expire, settles what A left (the unsent intent is failed: not at the exchange) and
// copies the change to every follower. Then A wakes up. Every follower must still hold one order
// for the one change, at the venue as in the book.
//
// Guards a defect the core had: A, woken up, went on with the intent it had in hand and sent it
// (try 1) while B had sent the same change under try 2 — two orders at the venue, one in the book.
// The core now claims an intent (pending → on its way, conditionally) as the last step before it
// sends, so an intent B failed meanwhile is never sent. A freeze that lands after the claim is
// met by the send deadline, checked by the core and again by the exchange client right before the
// request is written (after ccxt's rate-limiter wait): an order whose claim is older than
// SEND_DEADLINE_MS is not sent, and a takeover takes longer than that (LEASE_TTL_MS). The core
// fans an intent out to the followers' accounts in parallel, so while one waits for its leverage
// answer another may be past its claim when A freezes; once failed, a run with that freeze sent
// A's order on waking (execution-core.test.ts and the client tests drive those paths directly).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionOrders } from '../../src/db/schema/index.js';
import { isFollowed } from '../../src/execution/order-states.js';
import { followerApiKey } from './copy-fault-plan.js';
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
  waitFor,
} from './copy-lease-workers.js';

const FOLLOWERS = 6;
const LEADER_SIZE = 0.2;
const WAIT_MS = 45_000;
/**
 * How late the fake answers A's first follower leverage call: A is frozen before it does. Long
 * enough that a loaded machine's late SIGSTOP still lands while A waits for it.
 */
const LEVERAGE_DELAY_MS = 10_000;

let rig: LeaseRig;
beforeAll(async () => {
  rig = await startLeaseRig({
    followers: FOLLOWERS,
    holderOf: () => 'a',
    // The only leverage calls at the fake are the followers' (the first one answers late).
    leaderLeverageSet: true,
  });
});
afterAll(async () => {
  await rig?.close();
});

describe('a frozen copy worker', () => {
  it('does not send, once woken, an order for a relation another worker took over', async () => {
    const { fake, relationOf, allRelations } = rig;
    // A copies one relation at a time and waits for the exchange longer than it is frozen. Its
    // timer stays quiet, so A is frozen in the event's work and not in a timer pass's.
    const a = rig.startWorker(rig.holders.a, {
      CONCURRENCY: '1',
      EXCHANGE_TIMEOUT_MS: '60000',
      RECONCILE_MS: '600000',
    });
    const b = rig.startWorker(rig.holders.b);
    const why = () => `${a.why()}\n${b.why()}`;
    await waitFor(
      () =>
        sorted(a.report.held ?? []).join() === allRelations.join() && b.report.ready !== undefined,
      WAIT_MS,
      why,
    );
    expect(b.report.held ?? [], why()).toEqual([]);

    fake.failNext('POST', '/fapi/v1/leverage', { kind: 'delay', ms: LEVERAGE_DELAY_MS });
    await lead(rig, b, [a], LEADER_SIZE, 'lead1', WAIT_MS);
    // A's first follower: intent written, leverage asked. Freeze A before the answer comes.
    await waitFor(() => fake.callsTo('/fapi/v1/leverage', 'POST').length > 0, WAIT_MS, why);
    a.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    const followerOrders = () => fake.state.orders.filter((o) => o.apiKey !== 'copy-leader');
    expect(followerOrders(), 'orders A sent before it froze').toEqual([]);

    // B takes every relation over and copies the change to every follower.
    await waitFor(
      () =>
        sorted(b.report.held ?? []).join() === allRelations.join() &&
        atTargets(rig, b, LEADER_SIZE),
      LEASE_TTL_MS + LEASE_RENEW_MS + WAIT_MS,
      why,
    );
    const takeoverMs = Date.now() - frozenAt;
    expect(followerOrders()).toHaveLength(FOLLOWERS);

    // A wakes up: whatever it had in hand, the relations are B's now.
    a.child.kill('SIGCONT');
    await sleep(LEVERAGE_DELAY_MS + 3000);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    console.info(`frozen copy worker: B took over and copied ${takeoverMs} ms after A froze`);

    const posted = fake.callsTo('/fapi/v1/order', 'POST').map((c) => c.params.newClientOrderId);
    expect(
      posted.filter((id, i) => posted.indexOf(id) !== i),
      'posted twice',
    ).toEqual([]);
    const intents = await rig.read((db) => db.select().from(executionOrders));
    const byClientId = new Map(intents.map((i) => [i.clientOrderId, i]));
    for (const [index, id] of relationOf) {
      const label = `follower ${index} (relation ${id})`;
      const target = targetOf(LEADER_SIZE, index);
      const orders = fake.state.orders.filter((o) => o.apiKey === followerApiKey(index));
      expect(
        orders.map((o) => [o.side, o.status, o.filled, byClientId.get(o.clientOrderId)?.status]),
        `${label}: its orders at the venue (and their intents' status); its intents: ${JSON.stringify(
          intents
            .filter((i) => i.ownerKind === 'copy' && i.ownerId === id)
            .map((i) => [i.clientOrderId, i.status, i.error, i.createdAt, i.updatedAt]),
        )}; A: ${a.why()}; B: ${b.why()}`,
      ).toEqual([['buy', 'filled', target.toNumber(), 'filled']]);
    }
    expect(intents.filter((i) => i.status === 'created' || isFollowed(i))).toEqual([]);
  }, 120_000);
});
