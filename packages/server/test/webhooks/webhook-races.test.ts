// Alerts in flight while their configuration, and then its account, are deleted: every alert is
// answered as the receiver promises (202, 400, 404 or 429, never 5xx), the deletions go through,
// and nothing of the deleted configuration stays open or behind.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executionPositions, webhookConfigs } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  createConfig,
  observedPaperClients,
  postAlert,
  settledSignal,
  webhookUser,
} from './webhook-flows.js';

/** While set, the accounts' orders wait for it (the paper exchange answers late). */
let orderGate: Promise<void> | undefined;
let ordersSent = 0;
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: observedPaperClients(async () => {
    ordersSent += 1;
    await orderGate;
  }),
});
const ANSWERS = [202, 400, 404, 429];

/** Holds every order at the exchange from now until `release`. */
function holdOrders() {
  let open: () => void = () => undefined;
  orderGate = new Promise((resolve) => {
    open = resolve;
  });
  const before = ordersSent;
  return {
    /** Orders sent (and held) since the hold began. */
    held: () => ordersSent - before,
    /** Waits until one order is held (the executor reached the exchange). */
    async untilOneHeld() {
      for (let i = 0; i < 200 && ordersSent === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(ordersSent - before).toBe(1);
    },
    release() {
      orderGate = undefined;
      open();
    },
  };
}

describe('alerts racing deletions', () => {
  it('a configuration deleted while its alerts arrive', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whrace');
    const config = await createConfig(ctx.app, token, accountId);
    const alerts = Array.from({ length: 12 }, (_, i) =>
      postAlert(ctx.app, config.path, { action: i % 2 === 0 ? 'buy' : 'sell', id: `r${i}` }),
    );
    const deletion = call(ctx.app, 'DELETE', `/api/webhook-trading/configs/${config.id}/`, {
      token,
    });
    const answers = await Promise.all(alerts);
    const deleted = await deletion;
    expect(
      answers.map((a) => a.status).filter((s) => !ANSWERS.includes(s)),
      JSON.stringify(answers.map((a) => a.raw)),
    ).toEqual([]);
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(500);
    // Retried until it goes (a deletion may wait for a position being opened to be closed).
    for (let i = 0; i < 40 && deleted.status !== 200; i++) {
      const again = await call(ctx.app, 'DELETE', `/api/webhook-trading/configs/${config.id}/`, {
        token,
      });
      expect(again.status, JSON.stringify(again.body)).toBeLessThan(500);
      if (again.status === 200 || again.status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // After the deletion, its URL answers 404 and nothing of it trades.
    const late = await postAlert(ctx.app, config.path, { action: 'buy', id: 'late' });
    expect(late.status).toBe(404);
  });

  it('an account deleted while alerts to its configurations arrive', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whrace2');
    const btc = await createConfig(ctx.app, token, accountId);
    const eth = await createConfig(ctx.app, token, accountId, { name: 'ETH', symbol: 'ETHUSDT' });
    const alerts = Array.from({ length: 12 }, (_, i) =>
      postAlert(ctx.app, (i % 2 === 0 ? btc : eth).path, { action: 'buy', id: `acc${i}` }),
    );
    const deletion = call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    const answers = await Promise.all(alerts);
    let deleted = await deletion;
    expect(
      answers.map((a) => a.status).filter((s) => !ANSWERS.includes(s)),
      JSON.stringify(answers.map((a) => a.raw)),
    ).toEqual([]);
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(500);
    for (let i = 0; i < 40 && deleted.status !== 200 && deleted.status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deleted = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
      expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(500);
    }
    expect([200, 404]).toContain(deleted.status);
    expect(
      await ctx.database.db
        .select()
        .from(webhookConfigs)
        .where(eq(webhookConfigs.exchangeAccountId, accountId)),
    ).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(executionPositions)
        .where(eq(executionPositions.accountId, accountId)),
    ).toEqual([]);
  });

  it('a signal accepted before its configuration was disabled, and not traded yet, trades nothing', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whoff');
    const config = await createConfig(ctx.app, token, accountId, { allow_pyramiding: true });
    const hold = holdOrders();
    try {
      // The first signal's order waits at the exchange; the second waits behind it.
      const first = await postAlert(ctx.app, config.path, { action: 'buy', id: 'off1' });
      const second = await postAlert(ctx.app, config.path, { action: 'buy', id: 'off2' });
      expect([first.status, second.status]).toEqual([202, 202]);
      await hold.untilOneHeld();
      const off = await call(ctx.app, 'PATCH', `/api/webhook-trading/configs/${config.id}/`, {
        token,
        body: { enabled: false },
      });
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      hold.release();
      // The order already sent fills; the signal behind it is ignored as disabled.
      expect((await settledSignal(ctx.app, token, first.body.signal_id)).status).toBe('filled');
      expect(await settledSignal(ctx.app, token, second.body.signal_id)).toMatchObject({
        status: 'ignored',
        reason: 'disabled',
      });
      expect(hold.held()).toBe(1);
    } finally {
      hold.release();
    }
  });

  it("an account is not deleted while a signal's order is in flight on it; the next try closes what it opened", async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whfly');
    const config = await createConfig(ctx.app, token, accountId);
    const hold = holdOrders();
    let signalId: unknown;
    try {
      const alert = await postAlert(ctx.app, config.path, { action: 'buy', id: 'fly1' });
      expect(alert.status).toBe(202);
      signalId = alert.body.signal_id;
      await hold.untilOneHeld();
      const refused = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'position_close_failed',
        open_symbols: ['BTC/USDT:USDT'],
      });
    } finally {
      hold.release();
    }
    // The order lands; the next deletion closes the position it opened, then deletes.
    expect((await settledSignal(ctx.app, token, signalId)).status).toBe('filled');
    const deleted = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.closed_webhook_positions).toEqual([
      { config_id: config.id, symbol: 'BTC/USDT:USDT' },
    ]);
  });
});
