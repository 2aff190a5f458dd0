// The Redis bus against the machine's Redis (127.0.0.1:6379), on channels of this test's own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { type BusEvent, createRedisEventBus, type RedisEventBus } from '../../src/events/index.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `qs-test:${randomUUID()}`;
let processA: RedisEventBus;
let processB: RedisEventBus;

beforeAll(async () => {
  const clock = new ManualClock();
  processA = await createRedisEventBus({ url: REDIS_URL, clock, prefix });
  processB = await createRedisEventBus({ url: REDIS_URL, clock, prefix });
});
afterAll(async () => {
  await processA.close();
  await processB.close();
});

const payload = (botId: number) => ({ botId, userId: 2, status: 'running' as const, error: null });

describe('the Redis event bus', () => {
  it("delivers an event to the subscribers of every process, the publisher's included", async () => {
    const seenA: BusEvent<'BotStatusChanged'>[] = [];
    const seenB: BusEvent<'BotStatusChanged'>[] = [];
    const otherType: unknown[] = [];
    processA.subscribe('BotStatusChanged', (event) => {
      seenA.push(event);
    });
    processB.subscribe('BotStatusChanged', (event) => {
      seenB.push(event);
    });
    processB.subscribe('BalanceChanged', (event) => {
      otherType.push(event);
    });
    await Promise.all([processA.ready(), processB.ready()]);
    await processA.publish('BotStatusChanged', payload(1), 'evt-1');
    await vi.waitFor(() => expect(seenB).toHaveLength(1), { timeout: 5000 });
    await vi.waitFor(() => expect(seenA).toHaveLength(1), { timeout: 5000 });
    expect(seenB[0]).toEqual({
      id: 'evt-1',
      type: 'BotStatusChanged',
      at: '2026-01-15T08:00:00.000Z',
      payload: payload(1),
    });
    expect(otherType).toEqual([]);
  });

  it('drops a repeat of an event id and stops delivering after unsubscribe', async () => {
    const seen: string[] = [];
    const unsubscribe = processB.subscribe('PositionChanged', (event) => {
      seen.push(event.id);
    });
    await processB.ready();
    const change = {
      accountId: 1,
      userId: 2,
      symbol: 'ETH/USDT:USDT',
      owner: { kind: 'bot' as const, id: 3 },
      size: 0.5,
      entryPrice: 2000,
      changedAtMs: 0,
    };
    await processA.publish('PositionChanged', change, 'pos-1');
    await processA.publish('PositionChanged', change, 'pos-1');
    await processA.publish('PositionChanged', change, 'pos-2');
    await vi.waitFor(() => expect(seen).toEqual(['pos-1', 'pos-2']), { timeout: 5000 });
    unsubscribe();
    await processA.publish('PositionChanged', change, 'pos-3');
    // A later event on another channel shows pos-3 had its chance to arrive.
    const marker: string[] = [];
    processB.subscribe('BalanceChanged', (event) => {
      marker.push(event.id);
    });
    await processB.ready();
    await processA.publish(
      'BalanceChanged',
      { accountId: 1, userId: 2, total: 1, free: 1, used: 0, atMs: 0 },
      'bal-1',
    );
    await vi.waitFor(() => expect(marker).toEqual(['bal-1']), { timeout: 5000 });
    expect(seen).toEqual(['pos-1', 'pos-2']);
  });

  it("does not hear another deployment's channels", async () => {
    const clock = new ManualClock();
    const other = await createRedisEventBus({ url: REDIS_URL, clock, prefix: `${prefix}:other` });
    const seen: unknown[] = [];
    other.subscribe('BotStatusChanged', (event) => {
      seen.push(event);
    });
    await other.ready();
    await processA.publish('BotStatusChanged', payload(9), 'evt-9');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([]);
    await other.close();
  });
});
