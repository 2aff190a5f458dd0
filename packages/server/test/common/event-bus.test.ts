import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { type BusEvent, createInProcessEventBus } from '../../src/events/index.js';

describe('the in-process event bus', () => {
  it('delivers each event to every subscriber of its type, after the publisher returns', async () => {
    const bus = createInProcessEventBus({ clock: new ManualClock() });
    const seen: BusEvent<'BotStatusChanged'>[] = [];
    const other: unknown[] = [];
    bus.subscribe('BotStatusChanged', (event) => {
      seen.push(event);
    });
    bus.subscribe('CoinBalanceChanged', (event) => {
      other.push(event);
    });
    await bus.publish(
      'BotStatusChanged',
      { botId: 1, userId: 2, status: 'running', error: null },
      'e1',
    );
    expect(seen).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([
      {
        id: 'e1',
        type: 'BotStatusChanged',
        at: '2026-01-15T08:00:00.000Z',
        payload: { botId: 1, userId: 2, status: 'running', error: null },
      },
    ]);
    expect(other).toHaveLength(0);
  });

  it('keeps delivering when one handler fails, and stops after unsubscribe', async () => {
    const errors: unknown[] = [];
    const bus = createInProcessEventBus({
      clock: new ManualClock(),
      log: { error: (details) => errors.push(details) },
    });
    let count = 0;
    bus.subscribe('AnnouncementPublished', () => {
      throw new Error('boom');
    });
    const unsubscribe = bus.subscribe('AnnouncementPublished', () => {
      count += 1;
    });
    await bus.publish('AnnouncementPublished', { announcementId: 1, title: 't', type: 'normal' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(count).toBe(1);
    expect(errors).toHaveLength(1);
    unsubscribe();
    await bus.publish('AnnouncementPublished', { announcementId: 2, title: 't', type: 'normal' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(count).toBe(1);
  });
});

describe('repeated events', () => {
  it('drops an event whose id was delivered already', async () => {
    const bus = createInProcessEventBus({ clock: new ManualClock() });
    const seen: string[] = [];
    bus.subscribe('BotStatusChanged', (event) => {
      seen.push(event.id);
    });
    const payload = { botId: 1, userId: 2, status: 'stopped' as const, error: null };
    await bus.publish('BotStatusChanged', payload, 'same');
    await bus.publish('BotStatusChanged', payload, 'same');
    await bus.publish('BotStatusChanged', payload);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe('same');
  });
});
