import { SQUARE_MESSAGES } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';
import {
  BTC,
  ETH,
  eventually,
  publishedAccount,
  publishFill,
  publishPosition,
  seedEquity,
  type Trader,
  trader,
  useSquareApp,
} from './square-fixture.js';

const t = useSquareApp();
const HOUR_MS = 3_600_000;
const detailUrl = (id: number, query = '') => `/api/strategy-square/strategies/${id}/${query}`;
const settingsUrl = (id: number) => `/api/strategy-square/accounts/${id}/share-settings/`;

let owner: Trader;
let viewer: Trader;
let open: number;
let secretive: number;
let privateId: number;

beforeAll(async () => {
  owner = await trader(t.app, 'Detail Owner');
  viewer = await trader(t.app, 'Detail Viewer');
  open = await createPaperAccount(t.app, owner.token, { name: 'Open book' });
  // 10 days of equity: 10,000 rising 1 USDT an hour.
  await seedEquity(
    t.database,
    t.clock,
    open,
    Array.from({ length: 240 }, (_, i) => 10_000 + i),
  );
  await call(t.app, 'PUT', settingsUrl(open), {
    token: owner.token,
    body: { is_public: true, description: '<p>My <strong>plan</strong></p>' },
  });
  secretive = await publishedAccount(t.app, owner, { show_trades: false, show_positions: false });
  privateId = await createPaperAccount(t.app, owner.token);
  const now = t.clock.now().getTime();
  for (const accountId of [open, secretive, privateId]) {
    const who = { accountId, userId: owner.userId };
    await publishFill(t.bus, {
      ...who,
      side: 'buy',
      amount: 0.02,
      price: 50_000,
      filledAtMs: now - 3 * HOUR_MS,
    });
    await publishPosition(t.bus, {
      ...who,
      size: 0.02,
      entryPrice: 50_000,
      changedAtMs: now - 3 * HOUR_MS,
    });
    await publishFill(t.bus, {
      ...who,
      symbol: ETH,
      owner: { kind: 'copy', id: 7 },
      side: 'sell',
      amount: 1,
      price: 3_000,
      filledAtMs: now - 2 * HOUR_MS,
    });
    await publishPosition(t.bus, {
      ...who,
      symbol: ETH,
      owner: { kind: 'copy', id: 7 },
      size: -1,
      entryPrice: 3_000,
      changedAtMs: now - 2 * HOUR_MS,
    });
  }
  await eventually(async () => {
    const res = await call<{ count: number }>(t.app, 'GET', detailUrl(open, 'trades/'));
    expect(res.body.count).toBe(2);
  });
});

describe('GET /strategy-square/strategies/{id}/', () => {
  it('answers every field of document 2, for visitors too', async () => {
    const res = await call(t.app, 'GET', detailUrl(open));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: open,
      account: open,
      name: 'Open book',
      exchange: 'binance',
      account_type: 'classic',
      user_id: owner.userId,
      user_profile: { user_id: owner.userId, nickname: 'Detail Owner', is_following: false },
      share_settings: {
        is_public: true,
        accept_copy: true,
        show_trades: true,
        show_positions: true,
        allow_comments: true,
        copiers_count: 0,
        description: '<p>My <strong>plan</strong></p>',
      },
      is_copying: false,
      is_owner: false,
      is_new: false,
    });
    expect(res.body.balance).toBe('10239');
    expect(res.body.total_pnl_percent as number).toBeCloseTo(2.39, 2);
    expect(res.body.daily_pnl_percent as number).toBeCloseTo((24 / 10_215) * 100, 3);
    expect(res.body.max_drawdown).toBe(0);
    expect(Object.keys(res.body.metrics as object).sort()).toEqual([
      'daily',
      'monthly',
      'total',
      'weekly',
    ]);
  });

  it('answers the equity curve of the period in seconds and the B/S markers', async () => {
    const monthly = await call<{
      equity_curve: { time: number; value: number }[];
      trades: unknown[];
    }>(t.app, 'GET', detailUrl(open));
    expect(monthly.body.equity_curve).toHaveLength(240);
    const first = monthly.body.equity_curve[0]!;
    expect(first.time).toBeLessThan(1e10);
    expect(first.value).toBe(10_000);
    expect(monthly.body.trades).toEqual([
      { timestamp: expect.any(String), type: 'buy', effect: 'open' },
      { timestamp: expect.any(String), type: 'sell', effect: 'open' },
    ]);
    const daily = await call<{ equity_curve: unknown[] }>(
      t.app,
      'GET',
      detailUrl(open, '?period=daily'),
    );
    expect(daily.body.equity_curve).toHaveLength(24);
    const total = await call<{ equity_curve: unknown[] }>(
      t.app,
      'GET',
      detailUrl(open, '?period=total'),
    );
    expect(total.body.equity_curve.length).toBeGreaterThanOrEqual(10);
    expect(total.body.equity_curve.length).toBeLessThanOrEqual(12);
  });

  it('tells the owner and a follower who they are', async () => {
    const mine = await call(t.app, 'GET', detailUrl(open), { token: owner.token });
    expect(mine.body).toMatchObject({ is_owner: true, user_profile: { is_following: false } });
    await call(t.app, 'POST', `/api/strategy-square/users/${owner.userId}/follow/`, {
      token: viewer.token,
    });
    const theirs = await call(t.app, 'GET', detailUrl(open), { token: viewer.token });
    expect(theirs.body).toMatchObject({
      is_owner: false,
      user_profile: { is_following: true, followers_count: 1 },
    });
  });

  it('hides the markers of a strategy that hides its trades', async () => {
    const res = await call(t.app, 'GET', detailUrl(secretive));
    expect(res.status).toBe(200);
    expect(res.body.trades).toEqual([]);
  });
});

describe('trades and positions', () => {
  it('answers recent trades newest first, with value = amount × price', async () => {
    const res = await call<{ results: Record<string, unknown>[]; count: number }>(
      t.app,
      'GET',
      detailUrl(open, 'trades/'),
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        id: expect.any(String),
        order_id: expect.any(String),
        timestamp: expect.any(String),
        symbol: ETH,
        side: 'sell',
        effect: 'open',
        amount: '1',
        price: '3000',
        value: '3000',
      },
      expect.objectContaining({
        symbol: BTC,
        side: 'buy',
        amount: '0.02',
        price: '50000',
        value: '1000',
      }),
    ]);
    const one = await call<{ results: unknown[] }>(
      t.app,
      'GET',
      detailUrl(open, 'trades/?limit=1'),
    );
    expect(one.body.results).toHaveLength(1);
  });

  it('answers current positions per symbol and side with leverage and P&L', async () => {
    const res = await call<{ results: Record<string, unknown>[] }>(
      t.app,
      'GET',
      detailUrl(open, 'positions/'),
    );
    expect(res.status).toBe(200);
    const bySymbol = Object.fromEntries(res.body.results.map((p) => [p.symbol, p]));
    expect(bySymbol[BTC]).toMatchObject({
      side: 'long',
      contracts: 0.02,
      entry_price: '50000',
      leverage: 5,
    });
    expect(bySymbol[ETH]).toMatchObject({ side: 'short', contracts: 1, entry_price: '3000' });
    const btc = bySymbol[BTC]!;
    // Marked at the (simulated) market price: P&L and margin percentage agree with it.
    expect(btc.mark_price).toMatch(/^\d+(\.\d+)?$/);
    const pnl = (Number(btc.mark_price) - 50_000) * 0.02;
    expect(Number(btc.unrealized_pnl)).toBeCloseTo(pnl, 6);
    expect(btc.percentage as number).toBeCloseTo((pnl / (1_000 / 5)) * 100, 2);
  });

  it('closing a position removes it', async () => {
    const who = { accountId: open, userId: owner.userId };
    await publishPosition(t.bus, {
      ...who,
      symbol: ETH,
      owner: { kind: 'copy', id: 7 },
      size: 0,
      entryPrice: null,
      changedAtMs: t.clock.now().getTime() - HOUR_MS,
    });
    await eventually(async () => {
      const res = await call<{ results: { symbol: string }[] }>(
        t.app,
        'GET',
        detailUrl(open, 'positions/'),
      );
      expect(res.body.results.map((p) => p.symbol)).toEqual([BTC]);
    });
    // An older change arriving late does not bring it back.
    await publishPosition(t.bus, {
      ...who,
      symbol: ETH,
      owner: { kind: 'copy', id: 7 },
      size: -1,
      entryPrice: 3_000,
      changedAtMs: t.clock.now().getTime() - 2 * HOUR_MS,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await call<{ results: { symbol: string }[] }>(
      t.app,
      'GET',
      detailUrl(open, 'positions/'),
    );
    expect(res.body.results.map((p) => p.symbol)).toEqual([BTC]);
  });

  it('answers 403 when the strategy hides them', async () => {
    const trades = await call(t.app, 'GET', detailUrl(secretive, 'trades/'));
    expect(trades.status).toBe(403);
    expect(trades.body.error).toBe(SQUARE_MESSAGES.tradesHidden);
    const positions = await call(t.app, 'GET', detailUrl(secretive, 'positions/'));
    expect(positions.status).toBe(403);
    expect(positions.body.error).toBe(SQUARE_MESSAGES.positionsHidden);
  });

  it('ignores a repeated event (same id)', async () => {
    const who = { accountId: open, userId: owner.userId };
    const id = `repeat-${Date.now()}`;
    const payload = {
      ...who,
      symbol: BTC,
      owner: { kind: 'bot' as const, id: 1 },
      clientOrderId: 'r1',
      exchangeOrderId: 'r1',
      side: 'buy' as const,
      amount: 0.01,
      price: 51_000,
      fee: 0.1,
      reduceOnly: false,
      filledAtMs: t.clock.now().getTime() - HOUR_MS / 2,
    };
    await t.bus.publish('OrderFilled', payload, id);
    await t.bus.publish('OrderFilled', payload, id);
    await eventually(async () => {
      const res = await call<{ count: number }>(t.app, 'GET', detailUrl(open, 'trades/'));
      expect(res.body.count).toBe(3);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await call<{ count: number }>(t.app, 'GET', detailUrl(open, 'trades/'));
    expect(res.body.count).toBe(3);
  });
});

describe('privacy: a private strategy is never read', () => {
  it('answers 404 "strategy not found or not public" on every read, for everyone', async () => {
    for (const path of ['', 'trades/', 'positions/', 'comments/']) {
      for (const token of [undefined, viewer.token, owner.token]) {
        const res = await call(t.app, 'GET', detailUrl(privateId, path), { token });
        expect(res.status, `${path} ${token ? 'user' : 'visitor'}`).toBe(404);
        expect(res.body.error).toBe(SQUARE_MESSAGES.strategyNotFound);
      }
    }
    expect((await call(t.app, 'GET', detailUrl(987_654))).status).toBe(404);
    expect((await call(t.app, 'GET', detailUrl(0))).status).toBe(400);
  });

  it('unpublishing makes a readable strategy unreadable at once', async () => {
    const id = await publishedAccount(t.app, owner);
    expect((await call(t.app, 'GET', detailUrl(id))).status).toBe(200);
    await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body: { is_public: false } });
    expect((await call(t.app, 'GET', detailUrl(id))).status).toBe(404);
    expect((await call(t.app, 'GET', detailUrl(id, 'trades/'))).status).toBe(404);
  });
});
