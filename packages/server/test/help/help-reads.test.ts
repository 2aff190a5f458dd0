import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { type AnnouncementBody, publish, staffSession, userSession } from './help-flows.js';

const t = useTestApp();
let staff: Session;

beforeAll(async () => {
  staff = await staffSession(t);
});

interface Page {
  results: AnnouncementBody[];
  count: number;
  page: number;
  page_size: number;
}

const unread = async (token: string) =>
  (await call<{ count: number }>(t.app, 'GET', '/api/help/announcements/unread-count/', { token }))
    .body.count;
const list = async (query: string, token?: string) =>
  call<Page>(t.app, 'GET', `/api/help/announcements/${query}`, { token });
const markRead = (id: number, token: string) =>
  call<{ id: number; is_new: boolean; unread_count: number }>(
    t.app,
    'POST',
    `/api/help/announcements/${id}/mark-read/`,
    { token },
  );

describe('unread announcements', () => {
  it('counts per user and clears one at a time as each user reads', async () => {
    const alice = await userSession(t, 'alice');
    const bob = await userSession(t, 'bob');
    t.clock.advanceSeconds(60);
    const first = await publish(t.app, staff.access, { title: 'One' });
    const second = await publish(t.app, staff.access, { title: 'Two' });
    const third = await publish(t.app, staff.access, { title: 'Three' });
    expect(await unread(alice.access)).toBe(3);
    expect(await unread(bob.access)).toBe(3);

    const marked = await markRead(second.id, alice.access);
    expect(marked).toMatchObject({
      status: 200,
      body: { id: second.id, is_new: false, unread_count: 2 },
    });
    expect(await unread(alice.access)).toBe(2);
    expect(await unread(bob.access)).toBe(3);

    const flags = Object.fromEntries(
      (await list('?page_size=50', alice.access)).body.results.map((a) => [a.id, a.is_new]),
    );
    expect(flags).toMatchObject({ [first.id]: true, [second.id]: false, [third.id]: true });
    const bobFlags = (await list('?page_size=50', bob.access)).body.results;
    expect(
      bobFlags.filter((a) => [first.id, second.id, third.id].includes(a.id)).every((a) => a.is_new),
    ).toBe(true);
  });

  it('marks read idempotently', async () => {
    const reader = await userSession(t);
    const created = await publish(t.app, staff.access);
    const before = await unread(reader.access);
    const once = await markRead(created.id, reader.access);
    const twice = await markRead(created.id, reader.access);
    expect(once.status).toBe(200);
    expect(twice.status).toBe(200);
    expect(twice.body.unread_count).toBe(once.body.unread_count);
    expect(await unread(reader.access)).toBe(before - 1);
  });

  it('survives concurrent marks of one announcement by one reader', async () => {
    const reader = await userSession(t);
    const created = await publish(t.app, staff.access);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => markRead(created.id, reader.access)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const one = await call<AnnouncementBody>(
      t.app,
      'GET',
      `/api/help/announcements/${created.id}/`,
      {
        token: reader.access,
      },
    );
    expect(one.body.is_new).toBe(false);
  });

  it('never shows visitors anything as new', async () => {
    await publish(t.app, staff.access);
    const page = await list('');
    expect(page.body.results.every((a) => a.is_new === false)).toBe(true);
  });

  it('does not count its own announcements as new for the author', async () => {
    const author = await staffSession(t);
    const created = await publish(t.app, author.access);
    expect(created.is_new).toBe(false);
    const mine = (await list('?page_size=50', author.access)).body.results.find(
      (a) => a.id === created.id,
    );
    expect(mine?.is_new).toBe(false);
  });

  it('does not push announcements older than the account at a newcomer', async () => {
    const older = await publish(t.app, staff.access);
    t.clock.advanceSeconds(60);
    const newcomer = await userSession(t, 'newcomer');
    expect(await unread(newcomer.access)).toBe(0);
    t.clock.advanceSeconds(60);
    const newer = await publish(t.app, staff.access);
    expect(await unread(newcomer.access)).toBe(1);
    const flags = (await list('?page_size=50', newcomer.access)).body.results;
    expect(flags.find((a) => a.id === older.id)?.is_new).toBe(false);
    expect(flags.find((a) => a.id === newer.id)?.is_new).toBe(true);
  });

  it('drops a deleted announcement from the unread count', async () => {
    const reader = await userSession(t);
    t.clock.advanceSeconds(1);
    const created = await publish(t.app, staff.access);
    const before = await unread(reader.access);
    await call(t.app, 'DELETE', `/api/help/announcements/${created.id}/`, { token: staff.access });
    expect(await unread(reader.access)).toBe(before - 1);
  });
});

describe('views', () => {
  const view = (id: number, options: { token?: string; address?: string } = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/help/announcements/${id}/`,
      remoteAddress: options.address ?? '203.0.113.1',
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    });

  it('counts a view once per reader per day (UTC+8)', async () => {
    // 15:50 UTC is 23:50 in UTC+8: at 16:00 UTC the next day starts there.
    t.clock.set(new Date('2026-02-01T15:50:00Z'));
    const author = await staffSession(t);
    const reader = await userSession(t);
    const other = await userSession(t);
    const created = await publish(t.app, author.access);
    const signedInFromVisitorAddress = async () =>
      JSON.parse((await view(created.id, { address: '192.0.2.7', token: author.access })).body)
        .views as number;

    expect(JSON.parse((await view(created.id, { token: reader.access })).body).views).toBe(1);
    expect(JSON.parse((await view(created.id, { token: reader.access })).body).views).toBe(1);
    expect(JSON.parse((await view(created.id, { token: other.access })).body).views).toBe(2);
    // Visitors are told apart by address.
    expect(JSON.parse((await view(created.id, { address: '192.0.2.7' })).body).views).toBe(3);
    expect(JSON.parse((await view(created.id, { address: '192.0.2.7' })).body).views).toBe(3);
    expect(JSON.parse((await view(created.id, { address: '192.0.2.8' })).body).views).toBe(4);
    // The same person signed in is a different reader from their address alone.
    expect(await signedInFromVisitorAddress()).toBe(5);

    t.clock.set(new Date('2026-02-01T15:59:00Z'));
    expect(JSON.parse((await view(created.id, { token: reader.access })).body).views).toBe(5);
    t.clock.set(new Date('2026-02-01T16:01:00Z'));
    expect(JSON.parse((await view(created.id, { token: reader.access })).body).views).toBe(6);
    expect(JSON.parse((await view(created.id, { address: '192.0.2.7' })).body).views).toBe(7);
  });

  it('does not count list reads as views', async () => {
    const author = await staffSession(t);
    const created = await publish(t.app, author.access);
    await list('');
    await list('', author.access);
    const one = (await list('?page_size=50')).body.results.find((a) => a.id === created.id);
    expect(one?.views).toBe(0);
  });

  it('counts concurrent opens by one reader once', async () => {
    const author = await staffSession(t);
    const reader = await userSession(t);
    const created = await publish(t.app, author.access);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => view(created.id, { token: reader.access })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const one = (await list('?page_size=50')).body.results.find((a) => a.id === created.id);
    expect(one?.views).toBe(1);
  });

  it('answers 404 for an announcement that does not exist', async () => {
    expect((await view(987654)).statusCode).toBe(404);
  });
});

describe('paging', () => {
  const p = useTestApp();

  it('pages newest first, ten to a page by default', async () => {
    const author = await staffSession(p);
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) {
      p.clock.advanceSeconds(1);
      ids.push((await publish(p.app, author.access, { title: `Notice ${i}` })).id);
    }
    const newestFirst = [...ids].reverse();
    const page1 = await call<Page>(p.app, 'GET', '/api/help/announcements/');
    expect(page1.body).toMatchObject({ count: 23, page: 1, page_size: 10 });
    expect(page1.body.results.map((a) => a.id)).toEqual(newestFirst.slice(0, 10));
    const page3 = await call<Page>(p.app, 'GET', '/api/help/announcements/?page=3&page_size=10');
    expect(page3.body.results.map((a) => a.id)).toEqual(newestFirst.slice(20));
    const beyond = await call<Page>(p.app, 'GET', '/api/help/announcements/?page=9');
    expect(beyond.body).toMatchObject({ results: [], count: 23 });
    const big = await call<Page>(p.app, 'GET', '/api/help/announcements/?page_size=50');
    expect(big.body.results).toHaveLength(23);
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page_size=0', 'page_size=51', 'page=1.5'])(
    'refuses %s with a field error',
    async (query) => {
      const res = await call(p.app, 'GET', `/api/help/announcements/?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    },
  );

  it('answers each announcement with the spec fields', async () => {
    const page = await call<Page>(p.app, 'GET', '/api/help/announcements/?page_size=1');
    expect(Object.keys(page.body.results[0] ?? {}).sort()).toEqual([
      'author_name',
      'content',
      'created_at',
      'id',
      'is_new',
      'summary',
      'title',
      'type',
      'updated_at',
      'views',
    ]);
    expect(page.body.results[0]?.author_name).toBe('QuantSquare');
  });
});
