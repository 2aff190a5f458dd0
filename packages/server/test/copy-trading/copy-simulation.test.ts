// The copy simulator (GET /strategy-square/strategies/{id}/copy-simulation/): the leader's recorded
// fills replayed through the live copy engine's decision, over HTTP as the copy modal asks.
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { executionOrders } from '../../src/db/schema/index.js';
import { call } from '../helpers/test-app.js';
import { BTC, copyFlows, eventually, useCopyEngineApp } from './copy-engine-fixture.js';
import { leader } from './copy-fixture.js';

const t = useCopyEngineApp();

beforeAll(() => {
  t.services.copyTrading.engine.start();
});

const { leaderTo, follow, copiedSize } = copyFlows(t);

/** Money, prices and sizes arrive as decimal strings; percentages and the curve as numbers. */
interface Simulation {
  copy_amount: string;
  return_pct: number;
  final_equity: string;
  max_drawdown_pct: number;
  trades: number;
  skipped_orders: number;
  fees: string;
  slippage_cost: string;
  equity_curve: { t: number; equity: number }[];
  trade_list: {
    side: string;
    amount: string;
    price: string;
    leader_price: string;
    fee: string;
    size_after: string;
  }[];
  assumptions: string[];
  computed_at: string;
  leader_equity: string;
}

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

const simulate = (strategyId: number, query: string, language = 'zh-CN') =>
  call<Simulation & { code?: string; fields?: Record<string, string[]> }>(
    t.app,
    'GET',
    `/api/strategy-square/strategies/${strategyId}/copy-simulation/?${query}`,
    { headers: { 'accept-language': language } },
  );

/** A leader who goes long 0.2 BTC at 50,000 and closes at 53,000. */
async function winningLeader() {
  const lead = await leader(t);
  t.prices.set(BTC, 50_000);
  await leaderTo(lead, 0.2);
  t.prices.set(BTC, 53_000);
  await leaderTo(lead, 0);
  return lead;
}

describe('copy simulation', () => {
  it('simulates about the opposite return in reverse, before fees', async () => {
    const lead = await winningLeader();
    const normal = await simulate(
      lead.accountId,
      'copy_amount=1000&copy_mode=normal&days=7&exchange=paper',
    );
    const reverse = await simulate(
      lead.accountId,
      'copy_amount=1000&copy_mode=reverse&days=7&exchange=paper',
    );
    expect(normal.status, JSON.stringify(normal.body)).toBe(200);
    expect(reverse.status).toBe(200);
    // 1,000 / 10,000 of 0.2 BTC: 0.02 BTC, +3,000 a BTC, about +6%.
    expect(normal.body.trade_list.map((trade) => [trade.side, trade.amount])).toEqual([
      ['buy', '0.02'],
      ['sell', '0.02'],
    ]);
    expect(reverse.body.trade_list.map((trade) => [trade.side, trade.amount])).toEqual([
      ['sell', '0.02'],
      ['buy', '0.02'],
    ]);
    const { body } = normal;
    for (const money of [body.copy_amount, body.final_equity, body.fees, body.slippage_cost]) {
      expect(money).toMatch(PLAIN_DECIMAL);
    }
    expect(body.leader_equity).toMatch(PLAIN_DECIMAL);
    expect(body.copy_amount).toBe('1000');
    for (const trade of body.trade_list) {
      for (const money of [
        trade.amount,
        trade.price,
        trade.leader_price,
        trade.fee,
        trade.size_after,
      ]) {
        expect(money).toMatch(PLAIN_DECIMAL);
      }
    }
    expect(body.trade_list.map((trade) => trade.size_after)).toEqual(['0.02', '0']);
    expect(normal.body.return_pct).toBeGreaterThan(5);
    expect(reverse.body.return_pct).toBeLessThan(-5);
    // Before fees and slippage the two are exact opposites.
    const beforeCosts = (s: Simulation) =>
      ((Number(s.final_equity) - 1000 + Number(s.fees) + Number(s.slippage_cost)) / 1000) * 100;
    expect(beforeCosts(reverse.body)).toBeCloseTo(-beforeCosts(normal.body), 6);
    expect(Number(normal.body.fees)).toBeGreaterThan(0);
    expect(Number(normal.body.slippage_cost)).toBeGreaterThan(0);
    expect(normal.body.trades).toBe(2);
    expect(normal.body.max_drawdown_pct).toBeGreaterThanOrEqual(0);
    expect(normal.body.equity_curve.length).toBeGreaterThanOrEqual(3);
    expect(Number(normal.body.leader_equity)).toBeCloseTo(10_000, 6);
  });

  it('equals what the live copy engine did over the period for a paper follower', async () => {
    const lead = await leader(t);
    t.prices.set(BTC, 50_000);
    const normal = await follow(lead, { copy_amount: 150 });
    const reverse = await follow(lead, { copy_amount: 230, copy_mode: 'reverse' });
    const steps: [number, number][] = [
      [50_000, 0.2],
      [51_000, 0.35],
      [49_500, 0.1],
      [48_000, -0.25],
      [50_500, 0],
    ];
    for (const [price, size] of steps) {
      t.prices.set(BTC, price);
      await leaderTo(lead, size);
      await t.services.copyTrading.engine.idle();
    }
    await eventually(async () => {
      expect(await copiedSize(normal.accountId, normal.relationId)).toBe(0);
      expect(await copiedSize(reverse.accountId, reverse.relationId)).toBe(0);
    });
    await t.services.copyTrading.engine.idle();
    for (const [follower, mode, amount] of [
      [normal, 'normal', 150],
      [reverse, 'reverse', 230],
    ] as const) {
      const orders = await t.database.db
        .select()
        .from(executionOrders)
        .where(
          and(
            eq(executionOrders.ownerKind, 'copy'),
            eq(executionOrders.ownerId, follower.relationId),
          ),
        )
        .orderBy(asc(executionOrders.id));
      const live = orders
        .filter((o) => Number(o.filledAmount ?? 0) > 0)
        .map((o) => [o.side, Number(o.filledAmount)]);
      expect(live.length).toBeGreaterThanOrEqual(5);
      const simulated = await simulate(
        lead.accountId,
        `copy_amount=${amount}&copy_mode=${mode}&days=7&exchange=paper`,
      );
      expect(simulated.status).toBe(200);
      expect(simulated.body.trade_list.map((trade) => [trade.side, Number(trade.amount)])).toEqual(
        live,
      );
    }
  });

  it('counts the changes under the venue minimum as skipped orders', async () => {
    const lead = await winningLeader();
    // 20 / 10,000 of 0.2 BTC = 0.0004 BTC: under Binance's 0.001 and OKX's one 0.01 contract.
    for (const venue of ['binance', 'okx']) {
      const res = await simulate(lead.accountId, `copy_amount=20&days=7&exchange=${venue}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ trades: 0, skipped_orders: 1, fees: '0', return_pct: 0 });
    }
    const paper = await simulate(lead.accountId, 'copy_amount=20&days=7&exchange=paper');
    expect(paper.body).toMatchObject({ trades: 2, skipped_orders: 0 });
  });

  it("keeps an answer until the leader's next fill", async () => {
    const lead = await winningLeader();
    const query = 'copy_amount=500&days=30&exchange=binance';
    const first = await simulate(lead.accountId, query);
    t.clock.advanceSeconds(30);
    const again = await simulate(lead.accountId, query);
    expect(again.body.computed_at).toBe(first.body.computed_at);
    t.prices.set(BTC, 52_000);
    await leaderTo(lead, 0.1);
    await eventually(async () => {
      const after = await simulate(lead.accountId, query);
      expect(after.body.computed_at).not.toBe(first.body.computed_at);
      expect(after.body.trades).toBe(3);
    });
  });

  it("writes the assumptions in the reader's language", async () => {
    const lead = await winningLeader();
    const zh = await simulate(lead.accountId, 'copy_amount=100&days=7', 'zh-CN');
    const en = await simulate(lead.accountId, 'copy_amount=100&days=7', 'en-US,en;q=0.9');
    expect(zh.body.assumptions.join('')).toMatch(/跟单/);
    expect(en.body.assumptions.join(' ')).toMatch(/leader/);
    expect(en.body.return_pct).toBe(zh.body.return_pct);
  });

  it('answers a clear 400 for each bad parameter and 404 for a strategy not public', async () => {
    const lead = await winningLeader();
    const cases: [string, string][] = [
      ['copy_amount=5&days=7', 'copy_amount'],
      ['copy_amount=abc', 'copy_amount'],
      ['days=7', 'copy_amount'],
      ['copy_amount=100&days=14', 'days'],
      ['copy_amount=100&copy_mode=sideways', 'copy_mode'],
      ['copy_amount=100&exchange=kraken', 'exchange'],
      ['copy_amount=100&period=7', 'period'],
    ];
    for (const [query, field] of cases) {
      const res = await simulate(lead.accountId, query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(Object.keys(res.body.fields ?? {})).toContain(field);
    }
    const hidden = await leader(t, { is_public: false });
    expect((await simulate(hidden.accountId, 'copy_amount=100')).status).toBe(404);
    expect((await simulate(2_000_000, 'copy_amount=100')).status).toBe(404);
  });
});
