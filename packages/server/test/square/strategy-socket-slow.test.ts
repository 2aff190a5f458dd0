// A viewer that stops reading (a paused tab, a slow network) must not hold the others up: once
// its unsent frames pass the hub's bound it is taken out of live delivery and told to resync (a
// `resync` frame, then the close WS_CLOSE_RESYNC), while the other viewers get every frame. The
// hub and its route are the app's; the strategy is public, and fills come from the bus.
import websocket from '@fastify/websocket';
import { WS_CLOSE_RESYNC } from '@quantsquare/contracts';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createStrategyHub } from '../../src/realtime/strategy-hub.js';
import { strategySocketRoutes } from '../../src/realtime/strategy-socket.routes.js';
import { eventually, publishFill } from './square-fixture.js';

const STRATEGY_ID = 7;
const OWNER_ID = 3;
/** A small bound, so that a few megabytes of frames pass it and the loopback's buffers. */
const MAX_BUFFERED_BYTES = 64 * 1024;

const bus = createInProcessEventBus({ clock: { now: () => new Date() } });
const hub = createStrategyHub({
  events: bus,
  access: {
    visibility: async () => ({ isPublic: true, showTrades: true, showPositions: true }),
    positions: async () => [],
  },
  log: { warn() {} },
  maxBufferedBytes: MAX_BUFFERED_BYTES,
});
const app = Fastify();
let base = '';

beforeAll(async () => {
  await app.register(websocket);
  await app.register(strategySocketRoutes({ hub, isPublic: async () => true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
});
afterAll(async () => {
  hub.close();
  await app.close();
  await bus.close();
});

interface Viewer {
  socket: WebSocket;
  frames: { type: string; data?: { id?: string } }[];
  closed: Promise<{ code: number }>;
  /** Resolves once the viewer holds `count` frames. */
  holds(count: number): Promise<void>;
}

function connect(): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base}/ws/strategies/${STRATEGY_ID}`);
    const frames: Viewer['frames'] = [];
    const closed = new Promise<{ code: number }>((done) =>
      socket.on('close', (code) => done({ code })),
    );
    const waiters: { count: number; done: () => void }[] = [];
    socket.on('message', (data) => {
      frames.push(JSON.parse(data.toString()));
      for (const waiter of waiters.filter((w) => frames.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    });
    const holds = (count: number) =>
      frames.length >= count
        ? Promise.resolve()
        : new Promise<void>((done) => waiters.push({ count, done }));
    socket.on('open', () => resolve({ socket, frames, closed, holds }));
    socket.on('error', reject);
  });
}

const fill = (symbol?: string) =>
  publishFill(bus, {
    accountId: STRATEGY_ID,
    userId: OWNER_ID,
    filledAtMs: Date.now(),
    ...(symbol ? { symbol } : {}),
  });

describe('a slow viewer of /ws/strategies/{id}', () => {
  it('is dropped and told to resync while the other viewers get every frame', async () => {
    const fast = await connect();
    const slow = await connect();
    slow.socket.pause();
    // Fills with a long symbol make 16 KB frames: 16 MB in all, more than the bound and the
    // loopback's socket buffers (about 4 MB) hold for the paused viewer.
    const events = 1024;
    const ids: string[] = [];
    // The viewer that reads gets every trade, in order, while the other one reads nothing.
    for (let i = 0; i < events; i++) {
      ids.push(await fill(`S${i}`.padEnd(16 * 1024, 'X')));
      await fast.holds(i + 1);
    }
    expect(fast.frames.map((f) => f.data?.id)).toEqual(ids);
    expect(slow.frames).toEqual([]);
    expect(hub.viewerCount(STRATEGY_ID)).toBe(1);

    // The paused one, reading again, finds what was sent before it was dropped, then the resync.
    slow.socket.resume();
    expect((await slow.closed).code).toBe(WS_CLOSE_RESYNC);
    const trades = slow.frames.filter((f) => f.type === 'trade_update');
    expect(trades.length).toBeLessThan(events);
    expect(trades.map((f) => f.data?.id)).toEqual(ids.slice(0, trades.length));
    expect(slow.frames.at(-1)).toEqual({ type: 'resync' });

    // The fast viewer is still live.
    const after = await fill();
    await eventually(async () => {
      expect(fast.frames.at(-1)?.data?.id).toBe(after);
    });
    fast.socket.close();
  });
});
