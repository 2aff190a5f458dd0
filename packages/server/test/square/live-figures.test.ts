// A new strategy's figures and curve follow its fills from the first trade, between the hourly
// snapshots: a published paper account trades through a webhook, and the strategy page (over
// HTTP) shows its new balance, return and a curve point after each fill, before any snapshot.
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, settledSignal, webhookUser } from '../webhooks/webhook-flows.js';
import { eventually } from './square-fixture.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });

interface Detail {
  balance: string;
  total_pnl_percent: number;
  daily_pnl_percent: number;
  equity_curve: { time: number; value: number }[];
  trades: { timestamp: string; type: string; effect: string }[];
}

async function filled(token: string, id: unknown): Promise<void> {
  expect((await settledSignal(ctx.app, token, id)).status).toBe('filled');
}

describe("a new strategy's page follows its fills", () => {
  it('shows the balance, return and curve after the first trades, before an hourly snapshot', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'live-figures');
    const published = await call(
      ctx.app,
      'PUT',
      `/api/strategy-square/accounts/${accountId}/share-settings/`,
      { token, body: { is_public: true } },
    );
    expect(published.status).toBe(200);
    const detail = async () =>
      (await call<Detail>(ctx.app, 'GET', `/api/strategy-square/strategies/${accountId}/`, {}))
        .body;
    const before = await detail();
    expect(before.balance).toBe('10000');

    const { path } = await createConfig(ctx.app, token, accountId, { leverage: 5 });
    ctx.clock.advanceSeconds(90);
    const buy = await postAlert(ctx.app, path, {
      action: 'buy',
      amount: 2_000,
      id: 'live-1',
      timestamp: ctx.clock.now().toISOString(),
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(202);
    await filled(token, buy.body.signal_id);
    // The opening fee shows before the next trade.
    await eventually(
      async () => expect(Number((await detail()).balance)).toBeLessThan(10_000),
      15_000,
    );
    ctx.clock.advanceSeconds(90);
    const close = await postAlert(ctx.app, path, {
      action: 'close',
      id: 'live-2',
      timestamp: ctx.clock.now().toISOString(),
    });
    await filled(token, close.body.signal_id);
    ctx.clock.advanceSeconds(60);

    // The fills' refresh marked the wallet: fees (and any P&L) show at once.
    await eventually(async () => {
      const now = await detail();
      const lastFill = Math.max(...now.trades.map((t) => Date.parse(t.timestamp) / 1000));
      expect(now.trades).toHaveLength(2);
      expect(now.equity_curve.at(-1)?.time).toBeGreaterThanOrEqual(lastFill);
      const balance = Number(now.balance);
      expect(balance).not.toBe(10_000);
      expect(now.equity_curve.at(-1)?.value).toBeCloseTo(balance, 6);
      expect(now.total_pnl_percent).toBeCloseTo(((balance - 10_000) / 10_000) * 100, 2);
      expect(now.daily_pnl_percent).toBeCloseTo(now.total_pnl_percent, 6);
    }, 15_000);
    const after = await detail();
    // The curve has its start and a point after each fill; the markers sit on distinct points.
    expect(after.equity_curve.length).toBeGreaterThanOrEqual(2);
    const fillTimes = after.trades.map((t) => Date.parse(t.timestamp) / 1000);
    expect(fillTimes).toHaveLength(2);
    for (const t of fillTimes) {
      expect(after.equity_curve.some((p) => p.time >= t)).toBe(true);
    }
    const firstAfter = fillTimes.map((t) => after.equity_curve.find((p) => p.time >= t)?.time);
    expect(new Set(firstAfter).size).toBe(2);
  }, 60_000);
});
