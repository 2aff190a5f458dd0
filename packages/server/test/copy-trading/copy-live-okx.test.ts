// Copy trading to LIVE OKX followers on a venue that answers as OKX does (the fake's
// venueFaithful behaviours: an ack with ids only, the order invisible to lookups for a second,
// filled later in three trades at three prices, an IOC filled in part, fees in OKB, request
// expiry enforced), through the real ccxt client. One leader change is one order per follower
// however many heal and reconcile passes follow; the leader's close is one closing order and
// the follower is flat at the venue; the receipt and the relation's figures say what the venue
// filled at its trades' weighted price — also when the order is not final within the submit.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionOrders } from '../../src/db/schema/index.js';
import { type FakeOrder, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { call } from '../helpers/test-app.js';
import { BTC, copyFlows, useCopyEngineApp } from './copy-engine-fixture.js';
import { COPY, leader } from './copy-fixture.js';

const faithful = {
  exchange: 'okx',
  tracksPositions: true,
  venueFaithful: true,
  rateLimitEveryNthOrder: 0,
} as const;
const okx = await startFakeExchange(faithful);
// Orders fill 9 s after their ack: not final within the core's submit (about 8 s).
const slow = await startFakeExchange({ ...faithful, fillDelayMs: 9_000 });
afterAll(async () => {
  await okx.close();
  await slow.close();
});
const t = useCopyEngineApp({
  liveVenueUrl: (apiKey) => (apiKey.startsWith('slow') ? slow.url : okx.url),
});
beforeAll(() => {
  t.services.copyTrading.engine.start();
});

const engine = () => t.services.copyTrading.engine;
const { leaderTo, follow, copiedSize } = copyFlows(t);
let keys = 0;

/** A live OKX account's fields for the follower (its API key picks the fake). */
const liveOkx = (prefix: 'okx' | 'slow') => {
  const apiKey = `${prefix}-copy-${++keys}-0123456789`;
  return {
    apiKey,
    account: {
      name: 'OKX live',
      exchange: 'okx',
      is_paper: false,
      api_key: apiKey,
      api_secret: 'okx-secret-0123456789',
      api_password: 'okx-passphrase',
    },
  };
};

const venueOrders = (venue: typeof okx, apiKey: string) =>
  venue.state.orders.filter((o) => o.apiKey === apiKey);
/** The follower's BTC position at the venue, in BTC (one OKX contract is 0.01 BTC). */
const heldAtVenue = (venue: typeof okx, apiKey: string) =>
  (venue.state.accountPositions.get(apiKey) ?? [])
    .filter((p) => p.base === 'BTC')
    .reduce((sum, p) => sum + (p.side === 'long' ? 1 : -1) * p.size * 0.01, 0);
/** What an order filled, in BTC, and the weighted average price of its trades. */
const filledOf = (order: FakeOrder) => {
  const size = order.fills.reduce((sum, f) => sum + f.size, 0);
  const cost = order.fills.reduce((sum, f) => sum + f.size * f.price, 0);
  return { base: size * 0.01, price: cost / size };
};
const intentsOf = (relationId: number) =>
  t.database.db
    .select()
    .from(executionOrders)
    .where(and(eq(executionOrders.ownerKind, 'copy'), eq(executionOrders.ownerId, relationId)));
const detail = (relationId: number, token: string) =>
  call<{
    relation: Record<string, unknown>;
    receipts: Record<string, unknown>[];
    positions: Record<string, unknown>[];
  }>(t.app, 'GET', `${COPY}/${relationId}/`, { token });

/** Timer passes (each a heal with reconcile of unsettled orders), the clock moved past backoffs. */
async function passes(count: number): Promise<void> {
  for (let pass = 0; pass < count; pass++) {
    t.clock.advanceSeconds(60);
    await engine().tick();
    await engine().idle();
  }
}

describe('copying to a live OKX follower on a venue-faithful OKX', () => {
  it('one order per leader change through heal passes; the close flattens the venue', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const live = liveOkx('okx');
    // 2,000 / 10,000 of the leader: 0.3 BTC → 0.06 BTC, six contracts.
    const follower = await follow(lead, { copy_amount: 2000 }, live.account);
    await leaderTo(lead, 0.3);
    await engine().idle();

    const [opened, ...more] = venueOrders(okx, live.apiKey);
    expect(more).toHaveLength(0);
    expect(opened).toMatchObject({ side: 'buy', timeInForce: 'IOC' });
    // The venue filled half of the IOC (three contracts) in three trades at three prices.
    expect(opened!.fills).toHaveLength(3);
    expect(new Set(opened!.fills.map((f) => f.price)).size).toBe(3);
    const open = filledOf(opened!);
    expect(open.base).toBeCloseTo(0.03, 10);
    expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(open.base, 10);

    // Heal and reconcile passes find the decision made: nothing more is sent.
    await passes(4);
    expect(venueOrders(okx, live.apiKey)).toHaveLength(1);
    expect(await intentsOf(follower.relationId)).toHaveLength(1);

    const seen = await detail(follower.relationId, follower.access);
    expect(seen.body.receipts).toHaveLength(1);
    expect(seen.body.receipts[0]).toMatchObject({ status: 'copied', follower_size_delta: '0.03' });
    expect(Number(seen.body.receipts[0]?.follower_price)).toBeCloseTo(open.price, 6);
    expect(seen.body.relation).toMatchObject({ total_copied_trades: 1, last_error: null });
    expect(seen.body.positions).toMatchObject([{ symbol: BTC, side: 'long', size: '0.03' }]);
    expect(Number(seen.body.positions[0]?.entry_price)).toBeCloseTo(open.price, 6);

    // The leader closes: one closing order, and the follower is flat at the venue.
    await leaderTo(lead, 0);
    await engine().idle();
    await passes(3);
    const orders = venueOrders(okx, live.apiKey);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toMatchObject({ side: 'sell', status: 'filled' });
    expect(filledOf(orders[1]!).base).toBeCloseTo(0.03, 10);
    expect(heldAtVenue(okx, live.apiKey)).toBe(0);
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    const closed = await detail(follower.relationId, follower.access);
    expect(closed.body.receipts.map((r) => [r.status, r.follower_size_delta])).toEqual([
      ['copied', '-0.03'],
      ['copied', '0.03'],
    ]);
    expect(Number(closed.body.receipts[0]?.follower_price)).toBeCloseTo(
      filledOf(orders[1]!).price,
      6,
    );
    expect(closed.body.relation).toMatchObject({ total_copied_trades: 2 });
    expect(closed.body.positions).toEqual([]);
  }, 60_000);

  it('an order not final within the submit: still one order, the receipt once it settled', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const live = liveOkx('slow');
    const follower = await follow(lead, { copy_amount: 2000 }, live.account);
    await leaderTo(lead, 0.3);
    // The submit answers in_flight after following the order for about 8 s: no receipt yet.
    await engine().idle();
    expect(venueOrders(slow, live.apiKey)).toHaveLength(1);
    const ref = { accountId: follower.accountId, symbol: BTC };
    const owner = { kind: 'copy' as const, id: follower.relationId };
    expect(await t.services.execution.liveIntentsOn({ ...ref, owner })).toHaveLength(1);
    expect((await detail(follower.relationId, follower.access)).body.receipts).toEqual([]);
    // Passes while it is on its way decide nothing.
    await passes(2);
    expect(venueOrders(slow, live.apiKey)).toHaveLength(1);

    // The core's follower settles it once the venue fills it.
    await expect
      .poll(async () => (await t.services.execution.liveIntentsOn({ ...ref, owner })).length, {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(0);
    const [order] = venueOrders(slow, live.apiKey);
    const filled = filledOf(order!);
    expect(filled.base).toBeCloseTo(0.03, 10);
    // The next pass writes the change's receipt from the settled order, once.
    await passes(3);
    expect(venueOrders(slow, live.apiKey)).toHaveLength(1);
    expect(await intentsOf(follower.relationId)).toHaveLength(1);
    const seen = await detail(follower.relationId, follower.access);
    expect(seen.body.receipts).toHaveLength(1);
    expect(seen.body.receipts[0]).toMatchObject({ status: 'copied', follower_size_delta: '0.03' });
    expect(Number(seen.body.receipts[0]?.follower_price)).toBeCloseTo(filled.price, 6);
    expect(seen.body.relation).toMatchObject({ total_copied_trades: 1 });
    expect(Number(seen.body.positions[0]?.entry_price)).toBeCloseTo(filled.price, 6);
    expect(heldAtVenue(slow, live.apiKey)).toBeCloseTo(0.03, 10);
  }, 90_000);
});
