import { COMMENT_RATE_PER_MINUTE, SQUARE_MESSAGES } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSquareSocialStats } from '../../src/modules/square/square.module.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';
import { publishedAccount, type Trader, trader, useSquareApp } from './square-fixture.js';

const t = useSquareApp();
const users = (id: number, path: string) => `/api/strategy-square/users/${id}/${path}`;
const comments = (id: number) => `/api/strategy-square/strategies/${id}/comments/`;
const like = (id: number) => `/api/strategy-square/comments/${id}/like/`;

let leader: Trader;
let fan: Trader;
let strategyId: number;

beforeAll(async () => {
  leader = await trader(t.app, 'Leader');
  fan = await trader(t.app, 'Fan');
  strategyId = await publishedAccount(t.app, leader, { name: 'Leader main' });
});

describe('follow', () => {
  it('follows and unfollows idempotently, counting exactly', async () => {
    const follow = () => call(t.app, 'POST', users(leader.userId, 'follow/'), { token: fan.token });
    expect((await follow()).body).toEqual({ is_following: true, followers_count: 1 });
    expect((await follow()).body).toEqual({ is_following: true, followers_count: 1 });
    const unfollow = () =>
      call(t.app, 'DELETE', users(leader.userId, 'follow/'), { token: fan.token });
    expect((await unfollow()).body).toEqual({ is_following: false, followers_count: 0 });
    expect((await unfollow()).body).toEqual({ is_following: false, followers_count: 0 });
  });

  it('counts many concurrent followers exactly', async () => {
    const target = await trader(t.app, 'Popular');
    const crowd = await Promise.all(
      Array.from({ length: 6 }, (_, i) => trader(t.app, `Crowd ${i}`)),
    );
    await Promise.all(
      crowd.flatMap((u) =>
        [1, 2].map(() => call(t.app, 'POST', users(target.userId, 'follow/'), { token: u.token })),
      ),
    );
    const profile = await call(t.app, 'GET', users(target.userId, 'profile/'));
    expect(profile.body.followers_count).toBe(6);
  });

  it('refuses following oneself, unknown users and visitors', async () => {
    const self = await call(t.app, 'POST', users(fan.userId, 'follow/'), { token: fan.token });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe(SQUARE_MESSAGES.cannotFollowSelf);
    const unknown = await call(t.app, 'POST', users(99_999, 'follow/'), { token: fan.token });
    expect(unknown.status).toBe(404);
    expect((await call(t.app, 'POST', users(leader.userId, 'follow/'))).status).toBe(401);
  });
});

describe('public profiles', () => {
  it('answers the profile without e-mail or phone; platform_balance only to oneself', async () => {
    await call(t.app, 'POST', users(leader.userId, 'follow/'), { token: fan.token });
    const seen = await call(t.app, 'GET', users(leader.userId, 'profile/'), { token: fan.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      user_id: leader.userId,
      nickname: 'Leader',
      bio: '',
      avatar_url: null,
      created_at: expect.any(String),
      followers_count: 1,
      following_count: 0,
      public_strategies_count: 1,
      total_copiers: 0,
      is_following: true,
      is_self: false,
    });
    expect(JSON.stringify(seen.body)).not.toContain('@example.com');
    const own = await call(t.app, 'GET', users(leader.userId, 'profile/'), { token: leader.token });
    expect(own.body).toMatchObject({
      is_self: true,
      is_following: false,
      platform_balance: '0.00000000',
    });
    const visitor = await call(t.app, 'GET', users(leader.userId, 'profile/'));
    expect(visitor.body).toMatchObject({ is_following: false, is_self: false });
    expect(visitor.body).not.toHaveProperty('platform_balance');
    expect((await call(t.app, 'GET', users(99_999, 'profile/'))).status).toBe(404);
  });

  it('lists only public strategies of the user', async () => {
    const hidden = await createPaperAccount(t.app, leader.token);
    const detail = await call<{ strategies: { id: number }[] }>(
      t.app,
      'GET',
      users(leader.userId, 'detail/'),
    );
    expect(detail.status).toBe(200);
    expect(detail.body.strategies.map((s) => s.id)).toEqual([strategyId]);
    const list = await call<{ results: { id: number; name: string }[]; count: number }>(
      t.app,
      'GET',
      users(leader.userId, 'strategies/'),
    );
    expect(list.body.count).toBe(1);
    expect(list.body.results.map((s) => s.id)).not.toContain(hidden);
    expect(list.body.results[0]!.name).toBe('Leader main');
  });

  it('gives /my/settings its four counts', async () => {
    const stats = await createSquareSocialStats(t.database.db).statsFor(leader.userId);
    expect(stats).toEqual({
      following_count: 0,
      followers_count: 1,
      public_strategies_count: 1,
      total_copiers: 0,
    });
  });
});

describe('comments', () => {
  it('stores trimmed plain text as typed, and answers it nested one level', async () => {
    const typed = '  <script>alert("x")</script> & <b>bold</b> 你好  ';
    const top = await call<{ id: number; content: string }>(t.app, 'POST', comments(strategyId), {
      token: fan.token,
      body: { content: typed },
    });
    expect(top.status).toBe(201);
    expect(top.body).toMatchObject({
      content: typed.trim(),
      parent_id: null,
      user_id: fan.userId,
      user_nickname: 'Fan',
      likes_count: 0,
      is_liked: false,
      replies: [],
    });
    const reply = await call<{ id: number }>(t.app, 'POST', comments(strategyId), {
      token: leader.token,
      body: { content: 'thanks', parent_id: top.body.id },
    });
    // A reply to a reply joins the thread of the top-level comment.
    const nested = await call(t.app, 'POST', comments(strategyId), {
      token: fan.token,
      body: { content: 'welcome', parent_id: reply.body.id },
    });
    expect(nested.body.parent_id).toBe(top.body.id);
    const list = await call<{ results: Record<string, unknown>[]; count: number; total: number }>(
      t.app,
      'GET',
      comments(strategyId),
    );
    expect(list.body.count).toBe(1);
    expect(list.body.total).toBe(3);
    expect(list.body.results[0]).toMatchObject({
      id: top.body.id,
      content: typed.trim(),
      replies: [
        { content: 'thanks', parent_id: top.body.id, replies: [] },
        { content: 'welcome', parent_id: top.body.id, replies: [] },
      ],
    });
    // Served as JSON only: never as HTML the browser would run.
    const raw = await t.app.inject({ method: 'GET', url: comments(strategyId) });
    expect(raw.headers['content-type']).toContain('application/json');
  });

  it('refuses empty, too long, foreign-parent and anonymous comments', async () => {
    for (const content of ['', '    ', 'x'.repeat(501)]) {
      const res = await call(t.app, 'POST', comments(strategyId), {
        token: fan.token,
        body: { content },
      });
      expect(res.status, `${content.length}`).toBe(400);
    }
    expect(
      (
        await call(t.app, 'POST', comments(strategyId), {
          token: fan.token,
          body: { content: '字'.repeat(500) },
        })
      ).status,
    ).toBe(201);
    const other = await publishedAccount(t.app, leader);
    const foreign = await call<{ id: number }>(t.app, 'POST', comments(other), {
      token: leader.token,
      body: { content: 'elsewhere' },
    });
    const res = await call(t.app, 'POST', comments(strategyId), {
      token: fan.token,
      body: { content: 'hi', parent_id: foreign.body.id },
    });
    expect(res.status).toBe(400);
    expect(
      (await call(t.app, 'POST', comments(strategyId), { body: { content: 'anon' } })).status,
    ).toBe(401);
  });

  it('refuses comments when allow_comments is off, and on private strategies', async () => {
    const closed = await publishedAccount(t.app, leader, { allow_comments: false });
    const post = await call(t.app, 'POST', comments(closed), {
      token: fan.token,
      body: { content: 'hi' },
    });
    expect(post.status).toBe(403);
    expect(post.body.error).toBe(SQUARE_MESSAGES.commentsDisabled);
    expect((await call(t.app, 'GET', comments(closed))).status).toBe(403);
    const privateId = await createPaperAccount(t.app, leader.token);
    const hidden = await call(t.app, 'POST', comments(privateId), {
      token: fan.token,
      body: { content: 'hi' },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe(SQUARE_MESSAGES.strategyNotFound);
  });

  it(`limits a user to ${COMMENT_RATE_PER_MINUTE} comments a minute, even when sent at once`, async () => {
    const chatty = await trader(t.app, 'Chatty');
    const target = await publishedAccount(t.app, leader);
    const results = await Promise.all(
      Array.from({ length: COMMENT_RATE_PER_MINUTE + 3 }, (_, i) =>
        call(t.app, 'POST', comments(target), { token: chatty.token, body: { content: `c${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(COMMENT_RATE_PER_MINUTE);
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.body).toMatchObject({
      error: SQUARE_MESSAGES.commentTooFast,
      retry_after: expect.any(Number),
    });
    // Another user is not limited by it; and a minute later the user may post again.
    expect(
      (await call(t.app, 'POST', comments(target), { token: fan.token, body: { content: 'mine' } }))
        .status,
    ).toBe(201);
    t.clock.advanceSeconds(61);
    expect(
      (
        await call(t.app, 'POST', comments(target), {
          token: chatty.token,
          body: { content: 'later' },
        })
      ).status,
    ).toBe(201);
  });
});

describe('likes', () => {
  it('likes and unlikes idempotently, exact under concurrent clicks', async () => {
    const posted = await call<{ id: number }>(t.app, 'POST', comments(strategyId), {
      token: leader.token,
      body: { content: 'like me' },
    });
    const id = posted.body.id;
    const likers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => trader(t.app, `Liker ${i}`)),
    );
    // Each liker double-clicks, all at once.
    await Promise.all(
      likers.flatMap((u) => [1, 2].map(() => call(t.app, 'POST', like(id), { token: u.token }))),
    );
    const mine = await call(t.app, 'POST', like(id), { token: likers[0]!.token });
    expect(mine.body).toEqual({ is_liked: true, likes_count: 5 });
    await Promise.all(
      likers
        .slice(0, 3)
        .flatMap((u) => [1, 2].map(() => call(t.app, 'DELETE', like(id), { token: u.token }))),
    );
    const after = await call(t.app, 'DELETE', like(id), { token: likers[0]!.token });
    expect(after.body).toEqual({ is_liked: false, likes_count: 2 });
    const list = await call<{ results: { id: number; likes_count: number; is_liked: boolean }[] }>(
      t.app,
      'GET',
      comments(strategyId),
      { token: likers[4]!.token },
    );
    expect(list.body.results.find((c) => c.id === id)).toMatchObject({
      likes_count: 2,
      is_liked: true,
    });
  });

  it('answers 404 for unknown comments and those of a strategy gone private', async () => {
    expect((await call(t.app, 'POST', like(987_654), { token: fan.token })).status).toBe(404);
    const id = await publishedAccount(t.app, leader);
    const posted = await call<{ id: number }>(t.app, 'POST', comments(id), {
      token: fan.token,
      body: { content: 'soon hidden' },
    });
    await call(t.app, 'PUT', `/api/strategy-square/accounts/${id}/share-settings/`, {
      token: leader.token,
      body: { is_public: false },
    });
    const res = await call(t.app, 'POST', like(posted.body.id), { token: fan.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(SQUARE_MESSAGES.commentNotFound);
  });
});
