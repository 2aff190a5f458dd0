// A viewer that reconnects names the last trade it saw; the hub replays the strategy's fills
// since then from the event outbox (they were written with the orders that made them), so a
// viewer that was away during a restart or a network break misses nothing. A trade the outbox
// no longer keeps answers `resync`: reload instead.
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, settledSignal, webhookUser } from '../webhooks/webhook-flows.js';
import { eventually } from './square-fixture.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });
let base = '';

beforeAll(async () => {
  base = (await ctx.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});

interface Viewer {
  socket: WebSocket;
  frames: { type: string; data?: { id: string; effect: string; side: string } }[];
}

function connect(path: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base}${path}`);
    const frames: Viewer['frames'] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
    socket.on('open', () => resolve({ socket, frames }));
    socket.on('error', reject);
  });
}

const trades = (viewer: Viewer) => viewer.frames.filter((f) => f.type === 'trade_update');

async function filled(token: string, id: unknown): Promise<void> {
  expect((await settledSignal(ctx.app, token, id)).status).toBe('filled');
}

describe('a strategy viewer that reconnects', () => {
  it('gets the trades it missed, after the last one it saw, and only those', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'replay');
    const shared = await call(
      ctx.app,
      'PUT',
      `/api/strategy-square/accounts/${accountId}/share-settings/`,
      { token, body: { is_public: true, show_trades: true } },
    );
    expect(shared.status).toBe(200);
    const { path } = await createConfig(ctx.app, token, accountId, { leverage: 5 });

    // Watching live: the opening fill arrives as a frame.
    const first = await connect(`/ws/strategies/${accountId}`);
    ctx.clock.advanceSeconds(90);
    const buy = await postAlert(ctx.app, path, {
      action: 'buy',
      amount: 1_000,
      id: 'replay-1',
      timestamp: ctx.clock.now().toISOString(),
    });
    await filled(token, buy.body.signal_id);
    await eventually(async () => expect(trades(first)).toHaveLength(1));
    const seen = trades(first)[0]!.data!;
    expect(seen.effect).toBe('open');
    first.socket.close();

    // Away: the close fills meanwhile.
    ctx.clock.advanceSeconds(90);
    const close = await postAlert(ctx.app, path, {
      action: 'close',
      id: 'replay-2',
      timestamp: ctx.clock.now().toISOString(),
    });
    await filled(token, close.body.signal_id);

    // Back with the last trade seen: the close is replayed, the open is not sent again.
    const back = await connect(`/ws/strategies/${accountId}?after=${encodeURIComponent(seen.id)}`);
    await eventually(async () => expect(trades(back).length).toBeGreaterThanOrEqual(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const replayed = trades(back).map((f) => f.data!);
    expect(replayed.map((t) => t.id)).not.toContain(seen.id);
    expect(replayed.every((t) => t.effect === 'close' && t.side === 'sell')).toBe(true);
    expect(new Set(replayed.map((t) => t.id)).size).toBe(replayed.length);
    back.socket.close();

    // A viewer without a last trade gets nothing replayed; an unknown one is told to reload.
    const fresh = await connect(`/ws/strategies/${accountId}`);
    const lost = await connect(`/ws/strategies/${accountId}?after=no-such-event`);
    await eventually(async () => expect(lost.frames).toEqual([{ type: 'resync' }]));
    expect(trades(fresh)).toEqual([]);
    fresh.socket.close();
    lost.socket.close();
  }, 60_000);
});
