// Webhook configurations over HTTP: create (the URL whole once), masked afterwards, regenerate,
// validation with field codes, ownership (another user's configuration is 404 everywhere),
// batch actions, the dry run.
import { createHash } from 'node:crypto';
import { TRADINGVIEW_WEBHOOK_IPS, WEBHOOK_ACTIONS } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { webhookConfigs } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, webhookUser } from './webhook-flows.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });

describe('webhook configurations', () => {
  it('creates with defaults, shows the URL whole once and masked afterwards, stores only the hash', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const created = await createConfig(ctx.app, token, accountId);
    const body = created.body;
    expect(body).toMatchObject({
      name: 'TV BTC',
      exchange_api: accountId,
      symbol: 'BTC/USDT:USDT',
      default_amount: '100',
      max_amount: null,
      leverage: 1,
      allowed_actions: [...WEBHOOK_ACTIONS],
      allow_pyramiding: false,
      max_signal_age: 60,
      ip_allowlist: [],
      enabled: true,
      key_visible: true,
      signal_count: 0,
      positions: [],
    });
    const key = created.path.split('/').at(-2) ?? '';
    expect(created.path).toBe(`/api/webhook-trading/hook/${key}/`);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(body.key_hint).toBe(key.slice(-4));

    const [row] = await ctx.database.db.select().from(webhookConfigs);
    expect(row?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);

    const got = await call<Record<string, unknown>>(
      ctx.app,
      'GET',
      `/api/webhook-trading/configs/${created.id}/`,
      { token },
    );
    expect(got.status).toBe(200);
    expect(got.body.key_visible).toBe(false);
    expect(String(got.body.webhook_url)).not.toContain(key);
    expect(String(got.body.webhook_url)).toContain(key.slice(-4));
    const list = await call<{ results: Record<string, unknown>[]; count: number }>(
      ctx.app,
      'GET',
      '/api/webhook-trading/configs/',
      { token },
    );
    expect(list.body.count).toBe(1);
    expect(JSON.stringify(list.body)).not.toContain(key);

    // Regenerate: a new key in full, the old URL stops working.
    const regenerated = await call<{ webhook_url: string; key_visible: boolean }>(
      ctx.app,
      'POST',
      `/api/webhook-trading/configs/${created.id}/regenerate-key/`,
      { token },
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.key_visible).toBe(true);
    const newPath = new URL(regenerated.body.webhook_url).pathname;
    expect(newPath).not.toBe(created.path);
    expect((await postAlert(ctx.app, created.path, { action: 'close' })).status).toBe(404);
    expect((await postAlert(ctx.app, newPath, { action: 'close' })).status).toBe(202);
  });

  it('refuses bad input with field codes', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const other = await webhookUser(ctx.app);
    const res = await call<{ field_codes: Record<string, string[]> }>(
      ctx.app,
      'POST',
      '/api/webhook-trading/configs/',
      {
        token,
        body: {
          name: '',
          exchange_api: accountId,
          default_amount: 5,
          leverage: 126,
          allowed_actions: [],
          max_signal_age: 0,
        },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.field_codes).toMatchObject({
      name: ['required'],
      default_amount: ['too_small'],
      leverage: ['too_big'],
      allowed_actions: ['too_few'],
      max_signal_age: ['too_small'],
    });
    const rules = await call<{ field_codes: Record<string, string[]> }>(
      ctx.app,
      'POST',
      '/api/webhook-trading/configs/',
      {
        token,
        body: {
          name: 'x',
          exchange_api: other.accountId,
          symbol: 'NOT A SYMBOL',
          default_amount: 100,
          max_amount: 50,
          ip_allowlist: ['1.2.3.4', 'not-an-ip'],
        },
      },
    );
    expect(rules.status).toBe(400);
    expect(rules.body.field_codes).toMatchObject({
      exchange_api: ['unknown_account'],
      symbol: ['invalid_format'],
      max_amount: ['max_below_default'],
      ip_allowlist: ['invalid_ip'],
    });
    const unknownSymbol = await call<{ field_codes: Record<string, string[]> }>(
      ctx.app,
      'POST',
      '/api/webhook-trading/configs/',
      {
        token,
        body: { name: 'x', exchange_api: accountId, symbol: 'NOPECOINUSDT' },
      },
    );
    expect(unknownSymbol.body.field_codes).toMatchObject({ symbol: ['unknown_symbol'] });
    const extra = await call<{ field_codes: Record<string, string[]> }>(
      ctx.app,
      'POST',
      '/api/webhook-trading/configs/',
      {
        token,
        body: { name: 'x', exchange_api: accountId, surprise: 1 },
      },
    );
    expect(extra.body.field_codes).toMatchObject({ surprise: ['unknown_field'] });
  });

  it("answers 404 for another user's configuration everywhere", async () => {
    const owner = await webhookUser(ctx.app);
    const intruder = await webhookUser(ctx.app);
    const { id } = await createConfig(ctx.app, owner.token, owner.accountId);
    const token = intruder.token;
    const base = `/api/webhook-trading/configs/${id}/`;
    expect((await call(ctx.app, 'GET', base, { token })).status).toBe(404);
    expect((await call(ctx.app, 'PATCH', base, { token, body: { name: 'mine' } })).status).toBe(
      404,
    );
    expect((await call(ctx.app, 'DELETE', base, { token })).status).toBe(404);
    expect((await call(ctx.app, 'POST', `${base}regenerate-key/`, { token })).status).toBe(404);
    expect(
      (await call(ctx.app, 'POST', `${base}test/`, { token, body: { body: '{"action":"buy"}' } }))
        .status,
    ).toBe(404);
    const batch = await call(ctx.app, 'POST', '/api/webhook-trading/configs/batch-action/', {
      token,
      body: { ids: [id], action: 'delete' },
    });
    expect(batch.body).toEqual({ action: 'delete', updated: [], not_found: [id] });
    const list = await call<{ count: number }>(ctx.app, 'GET', '/api/webhook-trading/configs/', {
      token,
    });
    expect(list.body.count).toBe(0);
    expect((await call(ctx.app, 'GET', base, { token: owner.token })).status).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/webhook-trading/configs/')).status).toBe(401);
  });

  it('updates, batch-enables, disables and deletes', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const a = await createConfig(ctx.app, token, accountId);
    const b = await createConfig(ctx.app, token, accountId, { name: 'Second', symbol: null });
    const patched = await call<Record<string, unknown>>(
      ctx.app,
      'PATCH',
      `/api/webhook-trading/configs/${a.id}/`,
      {
        token,
        body: { leverage: 10, ip_allowlist: [...TRADINGVIEW_WEBHOOK_IPS], allow_pyramiding: true },
      },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      leverage: 10,
      ip_allowlist: [...TRADINGVIEW_WEBHOOK_IPS],
      allow_pyramiding: true,
    });
    const disabled = await call(ctx.app, 'POST', '/api/webhook-trading/configs/batch-action/', {
      token,
      body: { ids: [a.id, b.id, 999999], action: 'disable' },
    });
    expect(disabled.body).toEqual({
      action: 'disable',
      updated: [a.id, b.id],
      not_found: [999999],
    });
    const list = await call<{ results: { enabled: boolean }[] }>(
      ctx.app,
      'GET',
      '/api/webhook-trading/configs/',
      { token },
    );
    expect(list.body.results.map((c) => c.enabled)).toEqual([false, false]);
    const deleted = await call(ctx.app, 'POST', '/api/webhook-trading/configs/batch-action/', {
      token,
      body: { ids: [a.id], action: 'delete' },
    });
    expect(deleted.body).toMatchObject({ updated: [a.id] });
    expect(
      (await call(ctx.app, 'DELETE', `/api/webhook-trading/configs/${b.id}/`, { token })).status,
    ).toBe(204);
    expect(
      (await call<{ count: number }>(ctx.app, 'GET', '/api/webhook-trading/configs/', { token }))
        .body.count,
    ).toBe(0);
  });

  it('dry-runs an alert: what it would do, nothing ordered or recorded', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id } = await createConfig(ctx.app, token, accountId, { leverage: 3 });
    const ok = await call<Record<string, unknown>>(
      ctx.app,
      'POST',
      `/api/webhook-trading/configs/${id}/test/`,
      {
        token,
        body: {
          body: 'alert fired: {"action": "buy", "symbol": "BINANCE:BTCUSDT.P", "amount": 50}',
        },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      accepted: true,
      outcome: 'validated',
      reason: null,
      leverage: 3,
      amount: '50',
      parsed: { action: 'buy', symbol: 'BTC/USDT:USDT', amount: '50' },
      position: null,
    });
    expect(ok.body.plan).toEqual([
      expect.objectContaining({ action: 'open_long', side: 'buy', reduce_only: false }),
    ]);
    const bad = await call<Record<string, unknown>>(
      ctx.app,
      'POST',
      `/api/webhook-trading/configs/${id}/test/`,
      {
        token,
        body: { body: { action: 'moon' } },
      },
    );
    expect(bad.body).toMatchObject({
      accepted: false,
      outcome: 'refused',
      reason: 'unknown_action',
    });
    const signals = await call<{ count: number }>(ctx.app, 'GET', '/api/webhook-trading/signals/', {
      token,
    });
    expect(signals.body.count).toBe(0);
  });
});
