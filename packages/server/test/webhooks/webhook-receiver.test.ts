// The receiver over HTTP, as TradingView posts: accepted alerts trade once through the execution
// core on a paper account; repeats never trade twice; refusals are answered and recorded; no body
// gets anything but 202, 400, 404 or 429; the trail, executions, logs and stats read it back.
import { webhookLogListResponse } from '@quantsquare/contracts';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executionOrders, webhookLogs, webhookSignals } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, TV_IP, webhookUser } from './webhook-flows.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });

interface Signal {
  id: number;
  status: string;
  reason: string | null;
  error_kind: string | null;
  steps: { step: string; latency_ms: number }[];
  executions: { status: string; action: string; leverage: number; intent_key: string }[];
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

const ordersOf = (configId: number) =>
  ctx.database.db
    .select()
    .from(executionOrders)
    .where(and(eq(executionOrders.ownerKind, 'webhook'), eq(executionOrders.ownerId, configId)));

describe('the receiver', () => {
  it('trades buy, sell (reversing), a repeated buy (ignored), close; each signal with its trail', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id, path } = await createConfig(ctx.app, token, accountId, { leverage: 3 });
    const now = () => ctx.clock.now().toISOString();

    const buy = await postAlert(ctx.app, path, {
      action: 'buy',
      amount: 100,
      id: 'a1',
      timestamp: now(),
    });
    expect(buy.status).toBe(202);
    expect(buy.body).toMatchObject({ status: 'validated', duplicate: false });
    const first = await settled(token, Number(buy.body.signal_id));
    expect(first.status).toBe('filled');
    expect(first.steps.map((s) => s.step)).toEqual([
      'received',
      'validated',
      'intent',
      'placed',
      'filled',
    ]);
    expect(first.executions).toEqual([
      expect.objectContaining({
        status: 'filled',
        action: 'open_long',
        leverage: 3,
        intent_key: `signal:${first.id}`,
      }),
    ]);
    const config = await call<{ positions: { side: string; size: string }[] }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/configs/${id}/`,
      { token },
    );
    expect(config.body.positions).toEqual([
      expect.objectContaining({ side: 'long', symbol: 'BTC/USDT:USDT' }),
    ]);

    const again = await postAlert(ctx.app, path, { action: 'buy', id: 'a2' });
    const ignored = await settled(token, Number(again.body.signal_id));
    expect(ignored).toMatchObject({ status: 'ignored', reason: 'already_long' });

    // The body in text around the JSON, as a TradingView message may be.
    const sell = await postAlert(
      ctx.app,
      path,
      `Strategy fired: {"action": "sell", "symbol": "BTCUSDT", "id": "a3", "timestamp": ${Math.floor(ctx.clock.now().getTime() / 1000)}}`,
    );
    expect(sell.status).toBe(202);
    const reversed = await settled(token, Number(sell.body.signal_id));
    expect(reversed.status).toBe('filled');
    expect(reversed.executions[0]?.action).toBe('reverse_to_short');
    const short = await call<{ positions: { side: string }[] }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/configs/${id}/`,
      { token },
    );
    expect(short.body.positions.map((p) => p.side)).toEqual(['short']);

    const closeLong = await postAlert(ctx.app, path, { action: 'close_long', id: 'a4' });
    expect((await settled(token, Number(closeLong.body.signal_id))).reason).toBe('no_position');
    const close = await postAlert(ctx.app, path, {
      action: 'close',
      id: 'a5',
      timestamp: ctx.clock.now().getTime(),
    });
    const closed = await settled(token, Number(close.body.signal_id));
    expect(closed.status).toBe('filled');
    expect(closed.executions[0]?.action).toBe('close_short');
    const flat = await call<{ positions: unknown[] }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/configs/${id}/`,
      { token },
    );
    expect(flat.body.positions).toEqual([]);
    // Open, reverse (two legs), close.
    expect((await ordersOf(id)).filter((o) => o.status === 'filled')).toHaveLength(4);
  });

  it('executes 100 concurrent identical alerts exactly once (with an id, and without one)', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id, path } = await createConfig(ctx.app, token, accountId);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        postAlert(ctx.app, path, { action: 'buy', amount: 20, id: 'same-one' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(202));
    const ids = new Set(answers.map((a) => a.body.signal_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    const signal = await settled(token, Number([...ids][0]));
    expect(signal.status).toBe('filled');
    expect(await ordersOf(id)).toHaveLength(1);

    const body = JSON.stringify({ action: 'close' });
    const noId = await Promise.all(
      Array.from({ length: 100 }, () => postAlert(ctx.app, path, body)),
    );
    expect(noId.map((a) => a.status)).toEqual(Array(100).fill(202));
    const noIdSignals = new Set(noId.map((a) => a.body.signal_id));
    expect(noIdSignals.size).toBe(1);
    expect((await settled(token, Number([...noIdSignals][0]))).status).toBe('filled');
    expect(await ordersOf(id)).toHaveLength(2);
    const rows = await ctx.database.db
      .select()
      .from(webhookSignals)
      .where(eq(webhookSignals.configId, id));
    expect(rows).toHaveLength(2);
    // The same body after the window is a new signal.
    ctx.clock.advanceSeconds(11);
    const later = await postAlert(ctx.app, path, body);
    expect(later.body.duplicate).toBe(false);
    expect((await settled(token, Number(later.body.signal_id))).reason).toBe('no_position');
  });

  it('refuses and records a wrong key, a stale alert, a disallowed address and a disabled configuration', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id, path } = await createConfig(ctx.app, token, accountId, {
      ip_allowlist: [TV_IP],
      max_signal_age: 30,
    });

    const wrong = await postAlert(
      ctx.app,
      `/api/webhook-trading/hook/${'0'.repeat(64)}/`,
      { action: 'buy' },
      { ip: '203.0.113.9' },
    );
    expect(wrong.status).toBe(404);
    expect(wrong.body.code).toBe('unknown_webhook_key');
    const logged = await ctx.database.db
      .select()
      .from(webhookLogs)
      .where(eq(webhookLogs.sourceIp, '203.0.113.9'));
    expect(logged.map((l) => l.event)).toEqual(['unknown_key']);

    const stale = await postAlert(ctx.app, path, {
      action: 'buy',
      timestamp: new Date(ctx.clock.now().getTime() - 31_000).toISOString(),
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ code: 'signal_refused', reason: 'stale' });

    const address = await postAlert(ctx.app, path, { action: 'buy' }, { ip: '198.51.100.7' });
    expect(address.status).toBe(400);
    expect(address.body.reason).toBe('ip_not_allowed');

    await call(ctx.app, 'PATCH', `/api/webhook-trading/configs/${id}/`, {
      token,
      body: { enabled: false },
    });
    const disabled = await postAlert(ctx.app, path, { action: 'buy' });
    expect(disabled.status).toBe(400);
    expect(disabled.body.reason).toBe('disabled');

    const refused = await call<{
      results: { id: number; status: string; reason: string; source_ip: string }[];
    }>(ctx.app, 'GET', `/api/webhook-trading/signals/?config=${id}&status=refused`, { token });
    expect(refused.body.results.map((s) => s.reason)).toEqual([
      'disabled',
      'ip_not_allowed',
      'stale',
    ]);
    expect(refused.body.results[1]?.source_ip).toBe('198.51.100.7');
    expect(refused.body.results.map((s) => s.id)).toEqual([
      disabled.body.signal_id,
      address.body.signal_id,
      stale.body.signal_id,
    ]);
    expect(await ordersOf(id)).toHaveLength(0);
    const logs = await call<{ results: { event: string }[] }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/logs/?config=${id}&event=signal_refused`,
      { token },
    );
    expect(logs.body.results).toHaveLength(3);
  });

  it('rate limits unknown keys per source address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await postAlert(
        ctx.app,
        `/api/webhook-trading/hook/${i.toString(16).padStart(64, 'a')}/`,
        '{}',
        { ip: '192.0.2.77' },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    // Another address is not affected.
    expect(
      (
        await postAlert(ctx.app, `/api/webhook-trading/hook/${'b'.repeat(64)}/`, '{}', {
          ip: '192.0.2.78',
        })
      ).status,
    ).toBe(404);
  });

  it("never holds back a valid key when another user's wrong keys from the same address hit the limit", async () => {
    // TradingView posts every user's alerts from a few shared addresses.
    const shared = '52.32.178.7';
    const { token, accountId } = await webhookUser(ctx.app);
    const { path } = await createConfig(ctx.app, token, accountId);
    const wrong: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await postAlert(
        ctx.app,
        `/api/webhook-trading/hook/${i.toString(16).padStart(64, 'c')}/`,
        '{}',
        { ip: shared },
      );
      wrong.push(res.status);
    }
    expect(wrong.slice(20)).toEqual([429, 429]);

    const valid = await postAlert(ctx.app, path, { action: 'buy', amount: 50 }, { ip: shared });
    expect(valid.status).toBe(202);
    expect(valid.body).toMatchObject({ status: 'validated', duplicate: false });
    // The unknown keys stay limited after the valid one passed.
    const again = await postAlert(ctx.app, `/api/webhook-trading/hook/${'d'.repeat(64)}/`, '{}', {
      ip: shared,
    });
    expect(again.status).toBe(429);
  });

  it('answers any body with 202, 400, 404 or 429 only, recording the refused ones', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id, path } = await createConfig(ctx.app, token, accountId, {
      symbol: null,
      allowed_actions: ['close', 'close_long'],
    });
    const corpus: { body: string | Buffer; type?: string }[] = [
      { body: '' },
      { body: 'null' },
      { body: '[]' },
      { body: '[{"action":"buy"}]' },
      { body: '"buy"' },
      { body: '42' },
      { body: 'true' },
      { body: '{' },
      { body: '}{' },
      { body: '{"action":' },
      { body: '{"action":"buy"}' },
      { body: '{"action":"close","symbol":"BTCUSDT"}' },
      { body: '{"action":"CLOSE_LONG","symbol":"ETHUSDT.P"}' },
      { body: '{"action":"sell","symbol":"BTCUSDT"}' },
      { body: '{"action":"close","symbol":"BTC/USDT:USDT","amount":-5}' },
      { body: '{"action":"close","symbol":"BTC/USDT:USDT","amount":"1e400"}' },
      { body: '{"action":"close","symbol":"BTC/USDT:USDT","amount":5}' },
      { body: '{"action":"close","symbol":"BTC/USDT:USDT","amount":99999999999}' },
      { body: '{"action":"close","symbol":"???"}' },
      { body: '{"action":"close","symbol":123}' },
      { body: '{"action":"close","symbol":"BTCUSDT","timestamp":"yesterday"}' },
      { body: '{"action":"close","symbol":"BTCUSDT","timestamp":-1}' },
      { body: '{"action":"close","symbol":"BTCUSDT","timestamp":99999999999999999}' },
      { body: '{"action":"close","symbol":"BTCUSDT","id":{"a":1}}' },
      { body: `{"action":"close","symbol":"BTCUSDT","id":"${'x'.repeat(500)}"}` },
      { body: '{"action":"close","symbol":"BTCUSDT","price":"abc"}' },
      { body: '{"action":["close"]}' },
      { body: '{"action":null}' },
      { body: '{"__proto__":{"action":"close"},"constructor":{"prototype":{"x":1}}}' },
      { body: '{"action":"close\\u0000","symbol":"BTCUSDT"}' },
      { body: '{"action":"close","symbol":"BTC\\u0000USDT"}' },
      { body: '{"action":"close","symbol":"BTCUSDT","id":"\\ud800"}' },
      { body: '{"action":"close","symbol":"BTCUSDT","id":"\u0000nul"}' },
      { body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]) },
      { body: `{"action":"close","symbol":"BTCUSDT","pad":"${'p'.repeat(11 * 1024)}"}` },
      { body: 'x'.repeat(2 * 1024 * 1024) },
      { body: '{"action":"close","symbol":"BTCUSDT"}', type: 'application/json' },
      { body: '{"action":"close","symbol":"BTCUSDT"', type: 'application/json' },
      { body: 'action=close&symbol=BTCUSDT', type: 'application/x-www-form-urlencoded' },
      { body: '<xml/>', type: 'application/xml' },
      { body: '{"action":"close","symbol":"BTCUSDT"}', type: 'multipart/form-data; boundary=x' },
      { body: '{"action":"close","symbol":"BTCUSDT"}', type: 'application/octet-stream' },
      { body: '{"action":"close","symbol":"BTCUSDT"}', type: 'text/plain; charset=latin1' },
      { body: '{"action":"close","symbol":"BTCUSDT"}', type: '' },
      { body: '{'.repeat(5000) + '}'.repeat(5000) },
      {
        body: JSON.stringify({
          action: 'close',
          symbol: 'BTCUSDT',
          nested: JSON.parse('['.repeat(2000) + ']'.repeat(2000)),
        }),
      },
    ];
    const allowed = new Set([202, 400, 404, 429]);
    let refusedCount = 0;
    for (const [index, item] of corpus.entries()) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: TV_IP,
        headers:
          item.type === undefined
            ? { 'content-type': 'text/plain' }
            : item.type === ''
              ? {}
              : { 'content-type': item.type },
        payload: item.body,
      });
      expect(
        allowed.has(res.statusCode),
        `#${index} ${res.statusCode} ${res.body.slice(0, 200)}`,
      ).toBe(true);
      if (res.statusCode === 400) refusedCount += 1;
      // Every refusal is a recorded signal.
      if (res.statusCode === 400)
        expect(JSON.parse(res.body).signal_id, `#${index}`).toEqual(expect.any(Number));
    }
    // Odd paths of the receiver too.
    for (const url of [
      '/api/webhook-trading/hook/',
      '/api/webhook-trading/hook/x/',
      `/api/webhook-trading/hook/${'A'.repeat(64)}/`,
      '/api/webhook-trading/hook/%00/',
      `${path}?a=%00`,
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url,
        remoteAddress: '192.0.2.200',
        payload: '{}',
      });
      expect(allowed.has(res.statusCode), `${url} ${res.statusCode}`).toBe(true);
    }
    const recorded = await ctx.database.db
      .select()
      .from(webhookSignals)
      .where(and(eq(webhookSignals.configId, id), eq(webhookSignals.status, 'refused')));
    expect(recorded.length).toBe(refusedCount);
    const reasons = new Set(recorded.map((r) => r.reason));
    for (const reason of [
      'invalid_json',
      'payload_too_large',
      'missing_action',
      'unknown_action',
      'action_not_allowed',
      'symbol_required',
      'invalid_symbol',
      'invalid_amount',
      'amount_too_small',
      'amount_too_large',
      'invalid_timestamp',
      'invalid_id',
      'invalid_price',
    ]) {
      expect(reasons.has(reason), reason).toBe(true);
    }
  });

  it('reads the trail back: executions, logs and stats with filters and paging', async () => {
    const { token, accountId } = await webhookUser(ctx.app);
    const { id, path } = await createConfig(ctx.app, token, accountId);
    const other = await createConfig(ctx.app, token, accountId, {
      name: 'Other',
      symbol: 'ETHUSDT',
    });
    const ok = await postAlert(ctx.app, path, { action: 'buy', id: 's1' });
    await settled(token, Number(ok.body.signal_id));
    await postAlert(ctx.app, path, { action: 'moon' });
    const eth = await postAlert(ctx.app, other.path, { action: 'sell', id: 'e1' });
    await settled(token, Number(eth.body.signal_id));

    const executions = await call<{
      results: { config_id: number; status: string }[];
      count: number;
    }>(ctx.app, 'GET', `/api/webhook-trading/executions/?config=${id}`, { token });
    expect(executions.body.count).toBe(1);
    expect(executions.body.results[0]).toMatchObject({ config_id: id, status: 'filled' });
    const paged = await call<{ results: unknown[]; count: number; page: number }>(
      ctx.app,
      'GET',
      '/api/webhook-trading/signals/?page=2&page_size=2',
      { token },
    );
    expect(paged.body).toMatchObject({ count: 3, page: 2 });
    expect(paged.body.results).toHaveLength(1);
    const future = new Date(ctx.clock.now().getTime() + 60_000).toISOString();
    const none = await call<{ count: number }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/signals/?since=${encodeURIComponent(future)}`,
      { token },
    );
    expect(none.body.count).toBe(0);
    const bad = await call<{ field_codes: Record<string, string[]> }>(
      ctx.app,
      'GET',
      '/api/webhook-trading/signals/?status=nope&page=0',
      { token },
    );
    expect(bad.status).toBe(400);
    const logs = await call<{ results: { event: string }[] }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/logs/?config=${id}`,
      { token },
    );
    expect(logs.body.results.map((l) => l.event)).toEqual(
      expect.arrayContaining([
        'config_created',
        'signal_received',
        'order_filled',
        'signal_refused',
      ]),
    );
    // A fill's line carries its signal and order as data, for the web to word it.
    const parsedLogs = webhookLogListResponse.parse(logs.body);
    const filledLine = parsedLogs.results.find((l) => l.event === 'order_filled');
    expect(filledLine?.signal).toMatchObject({
      status: 'filled',
      order: { action: expect.any(String), filled_quantity: expect.any(String) },
    });
    expect(Number(filledLine?.signal?.order?.price)).toBeGreaterThan(0);
    const configLine = parsedLogs.results.find((l) => l.event === 'config_created');
    expect(configLine?.signal).toBeNull();
    const stats = await call<{
      total: Record<string, unknown>;
      last_24h: Record<string, unknown>;
      configs: unknown;
    }>(ctx.app, 'GET', '/api/webhook-trading/stats/', { token });
    expect(stats.body.total).toMatchObject({
      total: 3,
      by_status: expect.objectContaining({ filled: 2, refused: 1, failed: 0 }),
      success_rate: 100,
    });
    expect(typeof stats.body.total.median_latency_ms).toBe('number');
    expect(typeof stats.body.total.p99_latency_ms).toBe('number');
    expect(stats.body.last_24h).toMatchObject({ total: 3 });
    expect(stats.body.configs).toEqual({ total: 2, enabled: 2 });
    const one = await call<{ total: { total: number } }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/stats/?config=${other.id}`,
      { token },
    );
    expect(one.body.total.total).toBe(1);
    // Another user sees none of it.
    const stranger = await webhookUser(ctx.app);
    const theirs = await call<{ count: number }>(ctx.app, 'GET', '/api/webhook-trading/signals/', {
      token: stranger.token,
    });
    expect(theirs.body.count).toBe(0);
    expect(
      (
        await call(ctx.app, 'GET', `/api/webhook-trading/signals/${ok.body.signal_id}/`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404);
  });
});
