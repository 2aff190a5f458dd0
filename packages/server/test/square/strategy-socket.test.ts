import { STRATEGY_WS_CLOSE_NOT_PUBLIC } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createInProcessEventBus, type EventBus, type EventType } from '../../src/events/index.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  BTC,
  eventually,
  publishedAccount,
  publishFill,
  publishPosition,
  type Trader,
  trader,
} from './square-fixture.js';

// The bus, counting live subscriptions per event type (viewers must share them).
const inner = createInProcessEventBus({ clock: { now: () => new Date() } });
const active = new Map<EventType, number>();
const bus: EventBus = {
  publish: (type, payload, id) => inner.publish(type, payload, id),
  subscribe(type, handler) {
    active.set(type, (active.get(type) ?? 0) + 1);
    const off = inner.subscribe(type, handler);
    let isOff = false;
    return () => {
      if (!isOff) active.set(type, (active.get(type) ?? 1) - 1);
      isOff = true;
      off();
    };
  },
  close: () => inner.close(),
};
const t = useTestApp({ eventBus: bus, env: { MARKET_DATA: 'simulated' } });
let base = '';
let owner: Trader;
let strategyId: number;

beforeAll(async () => {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http', 'ws');
  owner = await trader(t.app, 'Streamer');
  strategyId = await publishedAccount(t.app, owner);
});
afterAll(async () => {
  await bus.close();
});

interface Viewer {
  socket: WebSocket;
  frames: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
}

function connect(id: number): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base}/ws/strategies/${id}`);
    const frames: Record<string, unknown>[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
    socket.on('open', () => resolve({ socket, frames, closed }));
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.on('error', reject);
  });
}

const ofType = (viewer: Viewer, type: string) => viewer.frames.filter((f) => f.type === type);
const owned = () => ({ accountId: strategyId, userId: owner.userId });
const settings = (id: number, body: Record<string, unknown>) =>
  call(t.app, 'PUT', `/api/strategy-square/accounts/${id}/share-settings/`, {
    token: owner.token,
    body,
  });

describe('/ws/strategies/{id}', () => {
  it('refuses the connection to a private or unknown strategy', async () => {
    const privateId = await createPaperAccount(t.app, owner.token);
    await expect(connect(privateId)).rejects.toThrow('refused 404');
    await expect(connect(9_999_999)).rejects.toThrow('refused 404');
  });

  it('answers ping with pong and the same timestamp', async () => {
    const viewer = await connect(strategyId);
    viewer.socket.send(JSON.stringify({ type: 'ping', timestamp: 1_700_000_000_123 }));
    viewer.socket.send('not json');
    await eventually(async () => {
      expect(ofType(viewer, 'pong')).toEqual([{ type: 'pong', timestamp: 1_700_000_000_123 }]);
    });
    viewer.socket.close();
  });

  it('sends trade_update, position_update and statistics_update to every viewer', async () => {
    // The hub listens to fills once, whatever the number of viewers (the process's other
    // listeners, such as the read model and notifications, are counted too).
    const first = await connect(strategyId);
    const withOne = active.get('OrderFilled') ?? 0;
    const viewers = [first, ...(await Promise.all([connect(strategyId), connect(strategyId)]))];
    expect(active.get('OrderFilled')).toBe(withOne);
    const now = t.clock.now().getTime();
    const fillId = await publishFill(bus, {
      ...owned(),
      amount: 0.02,
      price: 60_000,
      filledAtMs: now,
    });
    await publishPosition(bus, { ...owned(), size: 0.02, entryPrice: 60_000, changedAtMs: now });
    for (const viewer of viewers) {
      await eventually(async () => {
        expect(ofType(viewer, 'trade_update')).toEqual([
          {
            type: 'trade_update',
            data: {
              id: fillId,
              order_id: expect.any(String),
              timestamp: new Date(now).toISOString(),
              symbol: BTC,
              side: 'buy',
              effect: 'open',
              amount: '0.02',
              price: '60000',
              value: '1200',
            },
          },
        ]);
        const positions = ofType(viewer, 'position_update');
        expect(positions).toHaveLength(1);
        expect(positions[0]!.data).toEqual([
          expect.objectContaining({
            symbol: BTC,
            side: 'long',
            contracts: 0.02,
            entry_price: '60000',
          }),
        ]);
        // The fill's metrics recomputation follows (debounced) as statistics_update.
        const stats = ofType(viewer, 'statistics_update');
        expect(stats.length).toBeGreaterThanOrEqual(1);
        expect(stats[0]!.data).toEqual({
          total_pnl_percent: expect.any(Number),
          daily_pnl_percent: expect.any(Number),
          max_drawdown: expect.any(Number),
          balance: expect.any(String),
          days_of_history: expect.any(Number),
          is_new: true,
        });
      }, 10_000);
    }
    // The three viewers share one subscription, dropped when the last one leaves.
    expect(active.get('OrderFilled')).toBe(withOne);
    for (const viewer of viewers) viewer.socket.close();
    await eventually(async () => expect(active.get('OrderFilled')).toBe(withOne - 1));
  });

  it('never sends hidden trades or positions, and resumes when they are shown again', async () => {
    const viewer = await connect(strategyId);
    await settings(strategyId, { show_trades: false, show_positions: false });
    const now = t.clock.now().getTime();
    await publishFill(bus, { ...owned(), filledAtMs: now });
    await publishPosition(bus, { ...owned(), size: 0.03, changedAtMs: now + 1 });
    // Let the hub handle them while hidden (it checks the settings when it frames an event).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settings(strategyId, { show_trades: true });
    const shownId = await publishFill(bus, { ...owned(), filledAtMs: now + 2 });
    await eventually(async () => expect(ofType(viewer, 'trade_update')).toHaveLength(1));
    expect((ofType(viewer, 'trade_update')[0]!.data as { id: string }).id).toBe(shownId);
    expect(ofType(viewer, 'position_update')).toHaveLength(0);
    await settings(strategyId, { show_positions: true });
    viewer.socket.close();
  });

  it('closes the viewers of a strategy that goes private, and refuses them after', async () => {
    const id = await publishedAccount(t.app, owner);
    const viewer = await connect(id);
    await settings(id, { is_public: false });
    const closed = await viewer.closed;
    expect(closed.code).toBe(STRATEGY_WS_CLOSE_NOT_PUBLIC);
    await publishFill(bus, { accountId: id, userId: owner.userId, filledAtMs: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ofType(viewer, 'trade_update')).toHaveLength(0);
    await expect(connect(id)).rejects.toThrow('refused 404');
  });

  it('a viewer that reconnects gets the frames after its return', async () => {
    const first = await connect(strategyId);
    first.socket.terminate();
    await first.closed;
    const again = await connect(strategyId);
    const fillId = await publishFill(bus, { ...owned(), filledAtMs: t.clock.now().getTime() + 10 });
    await eventually(async () => {
      expect(ofType(again, 'trade_update').map((f) => (f.data as { id: string }).id)).toEqual([
        fillId,
      ]);
    });
    expect(ofType(first, 'trade_update')).toHaveLength(0);
    again.socket.close();
  });
});
