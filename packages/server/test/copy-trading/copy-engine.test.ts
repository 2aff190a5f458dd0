// The copy engine on the execution core (issue 12): leader changes copied by position
// reconciliation to paper followers — normal, reverse, Binance → OKX contracts, below the
// minimum, max loss, repeated and re-ordered events, a failing follower beside healthy ones,
// pause and resume.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { executionOrders, operationLogs } from '../../src/db/schema/index.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';
import { BTC, copyFlows, eventually, useCopyEngineApp } from './copy-engine-fixture.js';
import { COPY, createCopy, leader } from './copy-fixture.js';

const t = useCopyEngineApp();

beforeAll(() => {
  t.services.copyTrading.engine.start();
});

const { leaderTo, follow, copiedSize } = copyFlows(t);
let outsideCounter = 0;
const ordersOf = (relationId: number) =>
  t.database.db
    .select()
    .from(executionOrders)
    .where(and(eq(executionOrders.ownerKind, 'copy'), eq(executionOrders.ownerId, relationId)));

const relationDetail = (relationId: number, token: string) =>
  call<{
    relation: Record<string, unknown>;
    receipts: Record<string, unknown>[];
    positions: Record<string, unknown>[];
    pnl_series: { timestamp: number; pnl: number }[];
  }>(t.app, 'GET', `${COPY}/${relationId}/`, { token });

describe('copying a leader', () => {
  it('follows what the leader trades at the exchange outside the platform (the poller)', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const follower = await follow(lead, { copy_amount: 100 });
    const engine = t.services.copyTrading.engine;
    // Orders sent to the leader's exchange account directly: the book never hears of them.
    const venue = t.services.execution.clientOf(await t.services.execution.account(lead.accountId));
    const outsideOrder = (side: 'buy' | 'sell', amount: number, id: string) =>
      venue.createOrder({ symbol: BTC, side, type: 'market', amount, clientOrderId: id });
    await outsideOrder('buy', 0.3, `outside${++outsideCounter}`);
    t.clock.advanceSeconds(5);
    await engine.tick();
    await engine.idle();
    expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.003, 8);
    // Looked at again, unchanged: nothing more is sent.
    t.clock.advanceSeconds(15);
    await engine.tick();
    await engine.idle();
    expect(await ordersOf(follower.relationId)).toHaveLength(1);

    await outsideOrder('sell', 0.3, `outside${++outsideCounter}`);
    t.clock.advanceSeconds(5);
    await engine.tick();
    await engine.idle();
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    const detail = await relationDetail(follower.relationId, follower.access);
    expect(detail.body.receipts.map((r) => [r.status, r.follower_size_delta])).toEqual([
      ['copied', '-0.003'],
      ['copied', '0.003'],
    ]);
  });

  it('follows the leader in the same direction, scaled by copy amount / leader equity', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    // Paper equity 10,000 USDT: 100 USDT copies 1% of every position.
    const follower = await follow(lead, { copy_amount: 100 });
    await leaderTo(lead, 0.2);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.002, 8),
    );
    await t.services.copyTrading.engine.idle();
    const opened = await relationDetail(follower.relationId, follower.access);
    expect(opened.body.receipts[0]).toMatchObject({
      symbol: BTC,
      status: 'copied',
      leader_size_delta: '0.2',
      target_size: '0.002',
      follower_size_delta: '0.002',
      miss_reason: null,
    });
    expect(typeof opened.body.receipts[0]?.slippage_bps).toBe('number');
    expect(opened.body.positions).toMatchObject([{ symbol: BTC, side: 'long', size: '0.002' }]);
    expect(opened.body.relation).toMatchObject({ total_copied_trades: 1, last_error: null });
    // The P&L chart: 0 at the start, the P&L after the copied fill, and the P&L now.
    const series = opened.body.pnl_series;
    expect(series).toHaveLength(3);
    expect(series[0]?.pnl).toBe(0);
    expect(series.at(-1)?.pnl).toBe(Number(opened.body.relation.total_profit_loss));
    const times = series.map((p) => p.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The reconcile timer finds the target held: the receipt keeps its fill and the count its trade.
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    const healed = await relationDetail(follower.relationId, follower.access);
    expect(healed.body.receipts).toHaveLength(1);
    expect(healed.body.receipts[0]).toMatchObject({ follower_size_delta: '0.002' });
    expect(healed.body.relation).toMatchObject({ total_copied_trades: 1 });
    expect(await ordersOf(follower.relationId)).toHaveLength(1);

    await leaderTo(lead, 0);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0),
    );
    await t.services.copyTrading.engine.idle();
    const closed = await relationDetail(follower.relationId, follower.access);
    expect(closed.body.relation.total_copied_trades).toBe(2);
    expect(closed.body.positions).toEqual([]);
    expect(await ordersOf(follower.relationId)).toHaveLength(2);
  });

  it('holds the opposite side in reverse mode', async () => {
    const lead = await leader(t);
    const follower = await follow(lead, { copy_mode: 'reverse', copy_amount: 200 });
    await leaderTo(lead, 0.1);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(-0.002, 8),
    );
    await leaderTo(lead, -0.1);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.002, 8),
    );
    await leaderTo(lead, 0);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0),
    );
  });

  it('converts a Binance leader to whole OKX contracts, and misses what is below the minimum', async () => {
    const lead = await leader(t);
    // 1,000 / 10,000 of 0.25 BTC = 0.025 BTC = 2.5 contracts of 0.01: two contracts.
    const big = await follow(lead, { copy_amount: 1000 }, { exchange: 'okx', name: 'OKX' });
    // 100 / 10,000 of 0.25 BTC = 0.0025 BTC: under one contract.
    const small = await follow(lead, { copy_amount: 100 }, { exchange: 'okx', name: 'OKX' });
    const listed = await call<{ results: Record<string, unknown>[] }>(
      t.app,
      'GET',
      `${COPY}/following/`,
      { token: big.access },
    );
    expect(listed.body.results[0]).toMatchObject({
      is_cross_exchange: true,
      leader_exchange: 'binance',
      follower_exchange: 'okx',
    });
    await leaderTo(lead, 0.25);
    await eventually(async () =>
      expect(await copiedSize(big.accountId, big.relationId)).toBeCloseTo(0.02, 8),
    );
    await eventually(async () => {
      const seen = await relationDetail(small.relationId, small.access);
      expect(seen.body.receipts[0]).toMatchObject({
        status: 'missed',
        miss_reason: 'below_minimum',
      });
      expect(String(seen.body.relation.last_error)).toMatch(/below the market's minimum 0\.01/);
    });
    expect(await ordersOf(small.relationId)).toHaveLength(0);
    expect(await copiedSize(small.accountId, small.relationId)).toBe(0);
    await leaderTo(lead, 0);
    await eventually(async () => expect(await copiedSize(big.accountId, big.relationId)).toBe(0));
  });

  it('places exactly one order per follower when an event comes three times and out of order', async () => {
    const lead = await leader(t);
    const followers = await Promise.all([follow(lead), follow(lead), follow(lead)]);
    await leaderTo(lead, 0.3);
    const payload = {
      accountId: lead.accountId,
      userId: lead.id,
      symbol: BTC,
      owner: { kind: 'manual' as const, id: lead.id },
      size: 0.3,
      entryPrice: 50_000,
      changedAtMs: t.clock.now().getTime(),
    };
    // The same change again (three deliveries in all), and an older one after it.
    await t.bus.publish('PositionChanged', payload);
    await t.bus.publish('PositionChanged', payload, 'a-repeated-id');
    await t.bus.publish('PositionChanged', payload, 'a-repeated-id');
    await t.bus.publish('PositionChanged', { ...payload, size: 0.1, changedAtMs: 1 });
    await t.services.copyTrading.engine.tick();
    for (const f of followers) {
      await eventually(async () =>
        expect(await copiedSize(f.accountId, f.relationId)).toBeCloseTo(0.003, 8),
      );
    }
    await t.services.copyTrading.engine.idle();
    await t.services.copyTrading.engine.tick();
    for (const f of followers) expect(await ordersOf(f.relationId)).toHaveLength(1);
  });

  it('copies to healthy followers while one whose key is refused is still waiting', async () => {
    const lead = await leader(t);
    const stuck = await follow(lead, {}, { name: 'Hang follower' });
    const healthy = await Promise.all([follow(lead), follow(lead)]);
    await leaderTo(lead, 0.2);
    for (const f of healthy) {
      await eventually(async () =>
        expect(await copiedSize(f.accountId, f.relationId)).toBeCloseTo(0.002, 8),
      );
    }
    // The refused follower has not answered yet; the others are done.
    expect(await ordersOf(stuck.relationId)).toHaveLength(0);
    t.hang.open();
    await eventually(async () => {
      const seen = await relationDetail(stuck.relationId, stuck.access);
      expect(seen.body.receipts[0]).toMatchObject({
        status: 'missed',
        miss_reason: 'invalid_key',
        error_kind: 'invalid_key',
      });
      expect(String(seen.body.relation.last_error)).toMatch(/Invalid API-key/);
    });
    const logged = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, stuck.id), eq(operationLogs.type, 'error')));
    expect(logged[0]?.message).toMatch(/Copy of BTC\/USDT:USDT failed/);
    expect(logged[0]).toMatchObject({ event: 'copy_failed', details: { reason: 'invalid_key' } });
  });
});

describe('limits and states', () => {
  it('stops at the max loss, closing the copied position', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const follower = await follow(lead, { copy_amount: 1000, max_loss: 5 });
    await leaderTo(lead, 0.2); // follower: 0.02 BTC long
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.02, 8),
    );
    await t.services.copyTrading.engine.idle();
    t.prices.set(BTC, 49_500); // −10 USDT on 0.02 BTC
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    const seen = await relationDetail(follower.relationId, follower.access);
    expect(seen.body.relation).toMatchObject({ status: 'stopped', stop_reason: 'max_loss' });
    expect(Number(seen.body.relation.total_profit_loss)).toBeLessThanOrEqual(-5);
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    const logged = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, follower.id), eq(operationLogs.type, 'system')));
    expect(logged[0]?.message).toMatch(/loss reached the limit of 5 USDT/);
    expect(logged[0]).toMatchObject({
      event: 'copy_stopped',
      details: { reason: 'max_loss', limit: 5 },
    });
    t.prices.set(BTC, 50_000);
    await leaderTo(lead, 0);
  });

  it("stops when the leader's drawdown since the start passes the breaker's limit", async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const follower = await follow(lead, { leader_drawdown_limit_percent: 5 });
    await leaderTo(lead, 0.2);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.002, 8),
    );
    await t.services.copyTrading.engine.idle();
    t.prices.set(BTC, 47_000); // the leader loses 600 of 10,000 USDT: 6%
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    const seen = await relationDetail(follower.relationId, follower.access);
    expect(seen.body.relation).toMatchObject({ status: 'stopped', stop_reason: 'leader_drawdown' });
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    t.prices.set(BTC, 50_000);
    await leaderTo(lead, 0);
  });

  it("stops a reverse copy on the leader's rise from its low, not on its drawdown", async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const follower = await follow(lead, { copy_mode: 'reverse', leader_drawdown_limit_percent: 5 });
    await leaderTo(lead, 0.2);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(-0.002, 8),
    );
    await t.services.copyTrading.engine.idle();
    // The leader loses 6%: the reverse copier gains on it, and copies on.
    t.prices.set(BTC, 47_000);
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    expect(
      (await relationDetail(follower.relationId, follower.access)).body.relation,
    ).toMatchObject({ status: 'active', stop_reason: null });
    expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(-0.002, 8);
    // From that low (about 9,395 USDT) the leader rises to about 9,895: 5.3%, against the copy.
    t.prices.set(BTC, 49_500);
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    const seen = await relationDetail(follower.relationId, follower.access);
    expect(seen.body.relation).toMatchObject({ status: 'stopped', stop_reason: 'leader_drawdown' });
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    const logged = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, follower.id), eq(operationLogs.type, 'system')));
    expect(logged[0]?.message).toMatch(/rise from its low passed 5%/);
    expect(logged[0]).toMatchObject({
      event: 'copy_stopped',
      details: { reason: 'leader_drawdown', copy_mode: 'reverse', limit: 5 },
    });
    t.prices.set(BTC, 50_000);
    await leaderTo(lead, 0);
  });

  it('misses changes while paused and reconciles to the target on resume; stop closes', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    const follower = await follow(lead);
    const act = (action: string) =>
      call(t.app, 'PUT', `${COPY}/${follower.relationId}/${action}/`, { token: follower.access });
    expect((await act('pause')).status).toBe(200);
    await leaderTo(lead, 0.2);
    await eventually(async () => {
      const seen = await relationDetail(follower.relationId, follower.access);
      expect(seen.body.receipts[0]).toMatchObject({ status: 'missed', miss_reason: 'paused' });
    });
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    expect((await act('resume')).status).toBe(200);
    await eventually(async () =>
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.002, 8),
    );
    await t.services.copyTrading.engine.idle();
    expect((await act('stop')).status).toBe(200);
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    // Stopped is final: the leader's next change is not copied.
    await leaderTo(lead, 0.4);
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    expect(await copiedSize(follower.accountId, follower.relationId)).toBe(0);
    await leaderTo(lead, 0);
  });

  it('late join opens the leader’s current position only within the entry distance', async () => {
    t.prices.set(BTC, 50_000);
    const lead = await leader(t);
    await leaderTo(lead, 0.2);
    await t.services.copyTrading.engine.idle();
    const plain = await follow(lead);
    const joining = await follow(lead, { open_current_positions: true });
    await eventually(async () =>
      expect(await copiedSize(joining.accountId, joining.relationId)).toBeCloseTo(0.002, 8),
    );
    await t.services.copyTrading.engine.tick();
    await t.services.copyTrading.engine.idle();
    expect(await copiedSize(plain.accountId, plain.relationId)).toBe(0);
    t.prices.set(BTC, 52_000); // 4% from the leader's entry
    const late = await follow(lead, { open_current_positions: true, entry_distance_percent: 1 });
    await eventually(async () => {
      const seen = await relationDetail(late.relationId, late.access);
      expect(seen.body.receipts[0]).toMatchObject({
        status: 'missed',
        miss_reason: 'too_far_from_entry',
      });
    });
    expect(await copiedSize(late.accountId, late.relationId)).toBe(0);
    t.prices.set(BTC, 50_000);
    await leaderTo(lead, 0);
  });

  it("builds a follower's client and loads its markets before the leader's first change", async () => {
    const lead = await leader(t);
    // A new relation: prepared at once, with no leader change to copy yet.
    const first = await follow(lead);
    await eventually(async () => expect(t.marketLoads).toContain(first.accountId));
    // Relations found at start (a restart, or taken over from another process): prepared by the
    // engine's first pass, not by the first fan-out that needs them.
    const engine = t.services.copyTrading.engine;
    await engine.stop();
    const second = await follow(lead);
    await engine.idle();
    expect(t.marketLoads).not.toContain(second.accountId);
    engine.start();
    await eventually(async () => expect(t.marketLoads).toContain(second.accountId));
    expect(await ordersOf(second.relationId)).toEqual([]);
  });

  it('a second paper account of the follower keeps its own relation apart', async () => {
    const lead = await leader(t);
    const follower = await follow(lead);
    const second = await createPaperAccount(t.app, follower.access, { name: 'Second' });
    const other = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: second,
      copy_amount: 300,
    });
    expect(other.status).toBe(201);
    await leaderTo(lead, 0.1);
    await eventually(async () => {
      expect(await copiedSize(follower.accountId, follower.relationId)).toBeCloseTo(0.001, 8);
      expect(await copiedSize(second, other.body.id as number)).toBeCloseTo(0.003, 8);
    });
    await leaderTo(lead, 0);
  });
});
