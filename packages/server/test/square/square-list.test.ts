import { NEW_STRATEGY_HISTORY_DAYS, SQUARE_PAGE_SIZE } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSharingRepository } from '../../src/modules/square/sharing.repository.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';
import {
  eventually,
  publishRoundTrip,
  seedEquity,
  squareList,
  type Trader,
  trader,
  useSquareApp,
} from './square-fixture.js';

const t = useSquareApp();
const HOUR_MS = 3_600_000;
const hours = (days: number) => days * 24;

/** Equity compounding `rate` per hour, with `wiggle` alternating around it. */
const curve = (n: number, rate: number, wiggle = 0) =>
  Array.from(
    { length: n },
    (_, i) =>
      Math.round(10_000 * (1 + rate) ** i * (1 + (i % 2 === 0 ? wiggle : -wiggle)) * 100) / 100,
  );

interface Fixture {
  alice: Trader;
  bob: Trader;
  alpha: number;
  beta: number;
  gamma: number;
  delta: number;
  hidden: number;
}
let f: Fixture;

/** Creates an account, seeds its equity, then publishes it (metrics are computed on publish). */
async function strategy(owner: Trader, name: string, equity: number[], exchange = 'binance') {
  const id = await createPaperAccount(t.app, owner.token, { exchange, name });
  await seedEquity(t.database, t.clock, id, equity);
  const res = await call(t.app, 'PUT', `/api/strategy-square/accounts/${id}/share-settings/`, {
    token: owner.token,
    body: { is_public: true, name },
  });
  expect(res.status).toBe(200);
  return id;
}

beforeAll(async () => {
  const alice = await trader(t.app, 'Alice Quant');
  const bob = await trader(t.app, 'Bob Swing');
  const alpha = await strategy(alice, 'Alpha steady', curve(hours(20), 0.0004, 0.0001));
  const beta = await strategy(bob, 'Beta jumpy', curve(hours(20), 0.0002, 0.01), 'okx');
  const gamma = await strategy(alice, 'Gamma 100%_loser', curve(hours(20), -0.0003, 0.0005));
  const delta = await strategy(bob, 'Delta newbie', curve(hours(2), 0.01, 0.001));
  const hidden = await createPaperAccount(t.app, alice.token, { name: 'Alpha hidden' });
  await seedEquity(t.database, t.clock, hidden, curve(hours(20), 0.001));
  await call(t.app, 'PUT', `/api/strategy-square/accounts/${hidden}/share-settings/`, {
    token: alice.token,
    body: { name: 'Alpha hidden' },
  });
  // Copy trading's counters (issue 12 calls the same repository through the sharing service).
  const sharing = createSharingRepository(t.database.db);
  await sharing.adjustCopyFigures(beta, { copiersDelta: 3, earnings: '300' }, t.clock.now());
  await sharing.adjustCopyFigures(gamma, { copiersDelta: 1, earnings: '100' }, t.clock.now());
  // Closed trades: alpha wins 3 of 4, beta 1 of 2, delta 2 of 2 (too new to rank), gamma none.
  const now = t.clock.now().getTime();
  const trades: [number, Trader, number, number][] = [
    [alpha, alice, 100, 110],
    [alpha, alice, 100, 105],
    [alpha, alice, 100, 101],
    [alpha, alice, 100, 90],
    [beta, bob, 100, 120],
    [beta, bob, 100, 80],
    [delta, bob, 100, 130],
    [delta, bob, 100, 140],
  ];
  let k = 0;
  for (const [accountId, owner, entry, exit] of trades) {
    k++;
    await publishRoundTrip(
      t.bus,
      { accountId, userId: owner.userId },
      now - k * HOUR_MS,
      entry,
      exit,
    );
  }
  await eventually(async () => {
    const res = await squareList(t.app, 'sort=latest&period=total&page_size=50');
    const count = (id: number) =>
      (res.body.results.find((r) => r.id === id)?.metrics as { trades_count: number } | undefined)
        ?.trades_count;
    expect([count(alpha), count(beta), count(delta)]).toEqual([8, 4, 4]);
  }, 15_000);
  f = { alice, bob, alpha, beta, gamma, delta, hidden };
});

const ids = (body: { results: Record<string, unknown>[] }) => body.results.map((r) => r.id);

describe('GET /strategy-square/strategies/', () => {
  it('lists only public strategies, by copiers by default, without login', async () => {
    const res = await squareList(t.app, 'is_public=true');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([f.beta, f.gamma, f.delta, f.alpha]);
    expect(res.body.count).toBe(4);
    expect(ids(res.body)).not.toContain(f.hidden);
  });

  it('answers every card field of document 2', async () => {
    const res = await squareList(t.app, 'sort=copiers');
    const card = res.body.results.find((r) => r.id === f.beta)!;
    expect(card).toMatchObject({
      id: f.beta,
      name: 'Beta jumpy',
      exchange: 'okx',
      account_type: 'classic',
      is_paper: true,
      period: 'monthly',
      is_new: false,
      user_id: f.bob.userId,
      user_profile: {
        user_id: f.bob.userId,
        nickname: 'Bob Swing',
        avatar_url: null,
        followers_count: 0,
      },
      share_settings: { accept_copy: true, copiers_count: 3 },
    });
    expect(card.balance).toMatch(/^-?\d+(\.\d+)?$/);
    expect(typeof card.total_pnl_percent).toBe('number');
    expect(typeof card.total_profit_rate).toBe('number');
    expect(card.max_drawdown as number).toBeGreaterThan(0);
    const snapshots = card.snapshots as { timestamp: string; balance: number }[];
    expect(snapshots.length).toBeGreaterThanOrEqual(20);
    expect(snapshots.length).toBeLessThanOrEqual(31);
    expect(new Date(snapshots[0]!.timestamp).getTime()).toBeLessThan(
      new Date(snapshots.at(-1)!.timestamp).getTime(),
    );
    expect(card.metrics).toMatchObject({ trades_count: 4, win_rate: 50, copiers_count: 3 });
  });

  it('sorts by period return (pnl), newest (latest) and copiers', async () => {
    const pnl = await squareList(t.app, 'sort=pnl&period=monthly');
    expect(ids(pnl.body)).toEqual([f.delta, f.alpha, f.beta, f.gamma]);
    const rates = pnl.body.results.map((r) => r.total_profit_rate as number);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    const latest = await squareList(t.app, 'sort=latest');
    expect(ids(latest.body)).toEqual([f.delta, f.gamma, f.beta, f.alpha]);
  });

  it(`does not rank strategies with under ${NEW_STRATEGY_HISTORY_DAYS} days by sharpe_ratio or win_rate`, async () => {
    const sharpe = await squareList(t.app, 'sort=sharpe_ratio');
    expect(ids(sharpe.body)).toEqual([f.alpha, f.beta, f.gamma, f.delta]);
    const delta = sharpe.body.results.find((r) => r.id === f.delta)!;
    expect(delta.is_new).toBe(true);
    // Its figures are shown, just not ranked: the best win rate and Sharpe of all.
    expect((delta.metrics as { win_rate: number }).win_rate).toBe(100);
    const winRate = await squareList(t.app, 'sort=win_rate&period=total');
    // alpha 75%, beta 50%; gamma has no closed trade; delta is too new.
    expect(ids(winRate.body).slice(0, 2)).toEqual([f.alpha, f.beta]);
    expect(ids(winRate.body).at(-1)).not.toBe(f.alpha);
    expect(ids(winRate.body)).toContain(f.delta);
  });

  it('filters by exchange', async () => {
    const res = await squareList(t.app, 'exchange=okx');
    expect(ids(res.body)).toEqual([f.beta]);
    expect(res.body.count).toBe(1);
    expect(res.body.stats.total).toBe(1);
  });

  it('searches strategy names or nicknames, case-insensitively, with literal % and _', async () => {
    expect(ids((await squareList(t.app, 'search=ALPHA')).body)).toEqual([f.alpha]);
    expect(ids((await squareList(t.app, 'search=100%25_')).body)).toEqual([f.gamma]);
    expect(ids((await squareList(t.app, 'search=%25')).body)).toEqual([f.gamma]);
    expect((await squareList(t.app, 'search=_')).body.count).toBe(1);
    const byUser = await squareList(t.app, 'user_search=bob&sort=latest');
    expect(ids(byUser.body)).toEqual([f.delta, f.beta]);
    expect(byUser.body.count).toBe(2);
    const none = await squareList(t.app, 'search=nothing-like-this');
    expect(none.body).toMatchObject({ results: [], count: 0 });
  });

  it('pages with page and page_size', async () => {
    const first = await squareList(t.app, 'sort=latest&page_size=3&page=1');
    const second = await squareList(t.app, 'sort=latest&page_size=3&page=2');
    expect(ids(first.body)).toEqual([f.delta, f.gamma, f.beta]);
    expect(ids(second.body)).toEqual([f.alpha]);
    expect(first.body.count).toBe(4);
    const beyond = await squareList(t.app, 'page=9');
    expect(beyond.body).toMatchObject({ results: [], count: 4 });
    expect((await squareList(t.app)).body).toMatchObject({ page: 1, page_size: SQUARE_PAGE_SIZE });
  });

  it('answers the stats of the period', async () => {
    const res = await squareList(t.app, 'period=total');
    expect(res.body.stats).toMatchObject({ total: 4, active: 3, copiers: 4 });
    const mean = res.body.results.reduce((sum, r) => sum + (r.total_profit_rate as number), 0) / 4;
    expect(res.body.stats.avg_return).toBeCloseTo(mean, 2);
  });

  it('gives different figures per period', async () => {
    const daily = await squareList(t.app, 'period=daily&sort=latest');
    const total = await squareList(t.app, 'period=total&sort=latest');
    const alphaDaily = daily.body.results.find((r) => r.id === f.alpha)!;
    const alphaTotal = total.body.results.find((r) => r.id === f.alpha)!;
    expect(alphaDaily.period).toBe('daily');
    expect(alphaDaily.total_profit_rate as number).toBeLessThan(
      alphaTotal.total_profit_rate as number,
    );
    expect(alphaDaily.total_pnl_percent).toBe(alphaTotal.total_pnl_percent);
  });

  it('refuses bad query values with 400', async () => {
    for (const q of [
      'sort=best',
      'period=yearly',
      'exchange=kraken',
      'page=0',
      'page_size=500',
      'is_public=false',
      'x=1',
    ]) {
      const res = await squareList(t.app, q);
      expect(res.status, q).toBe(400);
    }
  });
});
