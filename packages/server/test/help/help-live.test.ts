import { beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { ManualClock } from '../../src/common/clock.js';
import { type BusEvent, createInProcessEventBus } from '../../src/events/index.js';
import type { Session } from '../helpers/auth-flows.js';
import { useTestApp } from '../helpers/test-app.js';
import { publish, staffSession } from './help-flows.js';

const eventBus = createInProcessEventBus({ clock: new ManualClock() });
const t = useTestApp({ eventBus });
let staff: Session;

beforeAll(async () => {
  staff = await staffSession(t);
});

/** The next text frame the socket receives. */
function nextFrame(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no frame within 5 s')), 5000);
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve(JSON.parse(data.toString()));
    });
  });
}

describe('a new announcement reaches open pages', () => {
  it('is published on the event bus', async () => {
    const events: BusEvent<'AnnouncementPublished'>[] = [];
    const unsubscribe = eventBus.subscribe('AnnouncementPublished', (event) => {
      events.push(event);
    });
    const created = await publish(t.app, staff.access, { title: 'Bus news', type: 'important' });
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]?.payload).toEqual({
      announcementId: created.id,
      title: 'Bus news',
      type: 'important',
    });
    unsubscribe();
  });

  it('is pushed to every open announcements socket', async () => {
    const first = await t.app.injectWS('/ws/announcements');
    const second = await t.app.injectWS('/ws/announcements');
    try {
      const frames = Promise.all([nextFrame(first), nextFrame(second)]);
      const created = await publish(t.app, staff.access, { title: 'Live news', type: 'normal' });
      expect(await frames).toEqual([
        {
          type: 'announcement_published',
          data: { id: created.id, title: 'Live news', type: 'normal' },
        },
        {
          type: 'announcement_published',
          data: { id: created.id, title: 'Live news', type: 'normal' },
        },
      ]);
    } finally {
      first.terminate();
      second.terminate();
    }
  });

  it('answers a ping with a pong and ignores other messages', async () => {
    const socket = await t.app.injectWS('/ws/announcements');
    try {
      const frame = nextFrame(socket);
      socket.send('not json');
      socket.send(JSON.stringify({ type: 'subscribe', channel: 'secrets' }));
      socket.send(JSON.stringify({ type: 'ping', timestamp: 1 }));
      expect(await frame).toEqual({ type: 'pong' });
    } finally {
      socket.terminate();
    }
  });

  it('does not push edits as new announcements', async () => {
    const socket = await t.app.injectWS('/ws/announcements');
    try {
      const received: unknown[] = [];
      socket.on('message', (data) => received.push(JSON.parse(data.toString())));
      const created = await publish(t.app, staff.access);
      await expect.poll(() => received.length).toBe(1);
      await t.app.inject({
        method: 'PUT',
        url: `/api/help/announcements/${created.id}/`,
        headers: { authorization: `Bearer ${staff.access}` },
        payload: { title: 'Edited', summary: 's', type: 'normal', content: '<p>c</p>' },
      });
      const next = await publish(t.app, staff.access, { title: 'After the edit' });
      await expect.poll(() => received.length).toBe(2);
      expect(received.map((frame) => (frame as { data: { id: number } }).data.id)).toEqual([
        created.id,
        next.id,
      ]);
    } finally {
      socket.terminate();
    }
  });
});
