// The risk gate over HTTP: an account's limits read and saved (validation answered with field
// codes), only by its owner; the user's kill switch and resume, each written to the operation log
// and the event outbox; and the gate in the execution core, seen through webhook signals on a
// paper account: a halted account refuses an opening and still lets a close through.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { eventOutbox, operationLogs } from '../../src/db/schema/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, webhookUser } from '../webhooks/webhook-flows.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });

interface Risk {
  account_id: number;
  max_order_notional: string | null;
  max_open_notional: string | null;
  daily_loss_limit_pct: number | null;
  trailing_drawdown_pct: number | null;
  on_breach: string;
  state: string;
  state_reason: string | null;
  peak_equity: string | null;
  since: string | null;
}

interface Signal {
  id: number;
  status: string;
  reason: string | null;
  error_kind: string | null;
  executions: { status: string; action: string; error_kind: string | null }[];
}

const FINAL = new Set(['filled', 'failed', 'ignored', 'refused']);

async function settled(token: string, id: number): Promise<Signal> {
  for (let i = 0; i < 400; i++) {
    const res = await call<Signal>(ctx.app, 'GET', `/api/webhook-trading/signals/${id}/`, {
      token,
    });
    if (res.status === 200 && FINAL.has(res.body.status)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`signal ${id} did not settle`);
}

const riskUrl = (accountId: number, tail = '') => `/api/trading/accounts/${accountId}/risk/${tail}`;

const limits = (overrides: Record<string, unknown> = {}) => ({
  max_order_notional: null,
  max_open_notional: null,
  daily_loss_limit_pct: null,
  trailing_drawdown_pct: null,
  on_breach: 'halt',
  ...overrides,
});

describe('risk settings', () => {
  it('answers an account without settings as active, without limits', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'rk');
    const res = await call<Risk>(ctx.app, 'GET', riskUrl(accountId), { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: accountId,
      max_order_notional: null,
      max_open_notional: null,
      daily_loss_limit_pct: null,
      trailing_drawdown_pct: null,
      on_breach: 'halt',
      state: 'active',
      state_reason: null,
      peak_equity: null,
      since: null,
    });
  });

  it('saves limits and reads them back, and logs the change', async () => {
    const { token, accountId, userId } = await webhookUser(ctx.app, 'rk');
    const body = limits({
      max_order_notional: 500,
      max_open_notional: 2000.5,
      daily_loss_limit_pct: 2.5,
      trailing_drawdown_pct: 10,
      on_breach: 'close_all',
    });
    const put = await call<Risk>(ctx.app, 'PUT', riskUrl(accountId), { token, body });
    expect(put.status).toBe(200);
    const got = await call<Risk>(ctx.app, 'GET', riskUrl(accountId), { token });
    expect(got.body).toMatchObject({
      max_order_notional: '500',
      max_open_notional: '2000.5',
      daily_loss_limit_pct: 2.5,
      trailing_drawdown_pct: 10,
      on_breach: 'close_all',
      state: 'active',
    });
    const logs = await ctx.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, userId), eq(operationLogs.event, 'risk_updated')));
    expect(logs).toHaveLength(1);
  });

  it('refuses limits out of range with a code per field', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'rk');
    const res = await call<{ code: string; field_codes: Record<string, string[]> }>(
      ctx.app,
      'PUT',
      riskUrl(accountId),
      {
        token,
        body: limits({
          max_order_notional: -1,
          daily_loss_limit_pct: 0.4,
          trailing_drawdown_pct: 91,
          on_breach: 'panic',
        }),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.field_codes).toMatchObject({
      max_order_notional: ['too_small'],
      daily_loss_limit_pct: ['too_small'],
      trailing_drawdown_pct: ['too_big'],
      on_breach: ['invalid_choice'],
    });
  });

  it("answers 404 for another user's account, and changes nothing there", async () => {
    const owner = await webhookUser(ctx.app, 'rk');
    const other = await registerEmail(ctx.app, uniqueEmail('rk-other'));
    for (const [method, tail, body] of [
      ['GET', '', undefined],
      ['PUT', '', limits({ max_order_notional: 1 })],
      ['POST', 'halt/', undefined],
      ['POST', 'resume/', undefined],
    ] as const) {
      const res = await call(ctx.app, method, riskUrl(owner.accountId, tail), {
        token: other.access,
        ...(body ? { body } : {}),
      });
      expect(res.status, `${method} ${tail}`).toBe(404);
    }
    const mine = await call<Risk>(ctx.app, 'GET', riskUrl(owner.accountId), {
      token: owner.token,
    });
    expect(mine.body).toMatchObject({ state: 'active', max_order_notional: null });
  });

  it('halts and resumes, each with a log entry and a RiskStateChanged event', async () => {
    const { token, accountId, userId } = await webhookUser(ctx.app, 'rk');
    const halted = await call<Risk>(ctx.app, 'POST', riskUrl(accountId, 'halt/'), { token });
    expect(halted.status).toBe(200);
    expect(halted.body).toMatchObject({ state: 'halted', state_reason: 'user' });
    expect(halted.body.since).not.toBeNull();
    ctx.clock.advanceSeconds(1);
    const resumed = await call<Risk>(ctx.app, 'POST', riskUrl(accountId, 'resume/'), { token });
    expect(resumed.body).toMatchObject({ state: 'active', state_reason: null });

    const logs = await ctx.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, userId), eq(operationLogs.event, 'risk_state_changed')));
    expect(logs.map((l) => l.details)).toEqual([
      expect.objectContaining({ account_id: accountId, state: 'halted', reason: 'user' }),
      expect.objectContaining({ account_id: accountId, state: 'active', reason: null }),
    ]);
    const events = (
      await ctx.database.db
        .select()
        .from(eventOutbox)
        .where(eq(eventOutbox.type, 'RiskStateChanged'))
    ).filter((e) => e.payload.accountId === accountId);
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ userId, state: 'halted', previousState: 'active', reason: 'user' }),
      expect.objectContaining({ userId, state: 'active', previousState: 'halted', reason: null }),
    ]);
  });
});

describe('the gate on webhook signals', () => {
  it('refuses an opening on an account halted by its user and still lets a close through', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'rk');
    const { path } = await createConfig(ctx.app, token, accountId);
    const opened = await postAlert(ctx.app, path, { action: 'buy', amount: 100, id: 'o1' });
    expect((await settled(token, Number(opened.body.signal_id))).status).toBe('filled');

    await call(ctx.app, 'POST', riskUrl(accountId, 'halt/'), { token });
    const more = await postAlert(ctx.app, path, { action: 'sell', amount: 100, id: 'o2' });
    const refused = await settled(token, Number(more.body.signal_id));
    expect(refused).toMatchObject({
      status: 'refused',
      reason: 'risk_halted',
      error_kind: 'risk_halted',
    });
    expect(refused.executions).toEqual([
      expect.objectContaining({ status: 'failed', error_kind: 'risk_halted' }),
    ]);

    const close = await postAlert(ctx.app, path, { action: 'close', id: 'c1' });
    const closed = await settled(token, Number(close.body.signal_id));
    expect(closed.status).toBe('filled');
    expect(closed.executions[0]?.action).toBe('close_long');

    await call(ctx.app, 'POST', riskUrl(accountId, 'resume/'), { token });
    const again = await postAlert(ctx.app, path, { action: 'buy', amount: 100, id: 'o3' });
    expect((await settled(token, Number(again.body.signal_id))).status).toBe('filled');
  });

  it('refuses an opening above the order notional limit, with risk_limit', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'rk');
    const { path } = await createConfig(ctx.app, token, accountId, { leverage: 1 });
    await call(ctx.app, 'PUT', riskUrl(accountId), {
      token,
      body: limits({ max_order_notional: 150 }),
    });
    const big = await postAlert(ctx.app, path, { action: 'buy', amount: 200, id: 'b1' });
    expect(await settled(token, Number(big.body.signal_id))).toMatchObject({
      status: 'refused',
      reason: 'risk_limit',
    });
    const small = await postAlert(ctx.app, path, { action: 'buy', amount: 100, id: 'b2' });
    expect((await settled(token, Number(small.body.signal_id))).status).toBe('filled');
  });
});
