// Notifications over HTTP (the notifications issue): a filled webhook order on a paper account
// makes one in-app notification and one Telegram message at the Bot API stand-in for a linked
// chat (linked by /start <code> through getUpdates), whatever repeats the bus delivers; each
// channel's switch stops it; read marks and the unread count over the websocket.
import type { Notification, NotificationSettings } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { eventOutbox } from '../../src/db/schema/index.js';
import type { OutgoingMessage } from '../../src/delivery/delivery.adapters.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { COPY, copier, createCopy, leader } from '../copy-trading/copy-fixture.js';
import { publish, staffSession } from '../help/help-flows.js';
import { TelegramStandIn } from '../helpers/telegram-stand-in.js';
import { call, createTestApp, type TestApp } from '../helpers/test-app.js';
import { newStaff, newUser, trc20Hash } from '../helpers/wallet-flows.js';
import { createConfig, postAlert, settledSignal, webhookUser } from '../webhooks/webhook-flows.js';

const TOKEN = '123456:TEST-bot-token-abcdef';
const telegram = new TelegramStandIn(TOKEN);
const mails: OutgoingMessage[] = [];
const bus = createInProcessEventBus({ clock: new ManualClock() });
let t: TestApp;

beforeAll(async () => {
  await telegram.start();
  t = await createTestApp({
    env: { MARKET_DATA: 'simulated', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: telegram.url },
    mailer: { send: async (message) => void mails.push(message) },
    eventBus: bus,
  });
});
afterAll(async () => {
  await t?.close();
  await bus.close();
  await telegram.stop();
});

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const list = async (token: string, query = '') =>
  (
    await call<{ results: Notification[]; count: number; unread: number }>(
      t.app,
      'GET',
      `/api/notifications/${query}`,
      { token },
    )
  ).body;

const settings = async (token: string) =>
  (await call<NotificationSettings>(t.app, 'GET', '/api/notifications/settings/', { token })).body;

/** Lets the consumer and the sender finish what they were given (then nothing more arrives). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  await t.app.inject({ method: 'GET', url: '/api/health/' });
}

async function linkTelegram(token: string, chatId: number): Promise<void> {
  const link = await call<{ code: string; link: string; bot_username: string }>(
    t.app,
    'POST',
    '/api/notifications/telegram/link/',
    { token },
  );
  expect(link.status).toBe(200);
  expect(link.body.bot_username).toBe(telegram.username);
  expect(link.body.link).toBe(`https://t.me/${telegram.username}?start=${link.body.code}`);
  expect(link.body.code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  telegram.userSends(chatId, `/start ${link.body.code}`);
  await until(
    () => settings(token),
    (s) => s.telegram.linked,
    'the chat to be linked',
  );
  await until(
    async () => telegram.messagesTo(chatId),
    (texts) => texts.some((text) => text.startsWith('Linked')),
    'the link reply',
  );
}

async function fill(token: string, path: string, action: 'buy' | 'close', id: string) {
  const alert = await postAlert(t.app, path, {
    action,
    amount: 100,
    id,
    timestamp: t.clock.now().toISOString(),
  });
  expect(alert.status).toBe(202);
  expect((await settledSignal(t.app, token, alert.body.signal_id)).status).toBe('filled');
}

describe('notifications of a filled webhook order', () => {
  it('links a chat with /start <code>, tells the fill once in the app and on Telegram, and obeys the switches', async () => {
    const user = await webhookUser(t.app, 'notify');
    const chatId = 7_000_001;
    // The user reads English: the Telegram messages come in it.
    const saved = await call<NotificationSettings>(t.app, 'PUT', '/api/notifications/settings/', {
      token: user.token,
      body: { language: 'en' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      language: 'en',
      telegram: { available: true, linked: false },
      channels: { in_app: { order_filled: true }, telegram: { order_filled: true } },
    });
    await linkTelegram(user.token, chatId);
    expect((await settings(user.token)).telegram.chat_name).toBe(`@user${chatId}`);
    const { path } = await createConfig(t.app, user.token, user.accountId);

    await fill(user.token, path, 'buy', 'n1');
    const first = await until(
      () => list(user.token),
      (l) => l.count >= 1,
      'the notification',
    );
    expect(first.results).toEqual([
      expect.objectContaining({
        kind: 'order_filled',
        is_read: false,
        params: expect.objectContaining({
          symbol: 'BTC/USDT:USDT',
          side: 'buy',
          owner_kind: 'webhook',
        }),
      }),
    ]);
    await until(
      async () => telegram.messagesTo(chatId).filter((text) => text.startsWith('Order filled')),
      (texts) => texts.length >= 1,
      'the Telegram message',
    );

    // The bus delivers the same outbox event again (the relay, another process): dropped.
    const [written] = await t.database.db
      .select()
      .from(eventOutbox)
      .where(eq(eventOutbox.type, 'OrderFilled'));
    expect(written).toBeDefined();
    if (written) await bus.publish('OrderFilled', written.payload as never, written.eventId);
    await settle();
    expect((await list(user.token)).count).toBe(1);
    expect(telegram.messagesTo(chatId).filter((text) => text.startsWith('Order filled'))).toEqual([
      expect.stringMatching(/^Order filled: BTC\/USDT:USDT buy [\d.]+ @ [\d.]+$/),
    ]);

    // Telegram off for fills: the next fill is in the app only.
    const off = await call<NotificationSettings>(t.app, 'PUT', '/api/notifications/settings/', {
      token: user.token,
      body: { channels: { telegram: { order_filled: false } } },
    });
    expect(off.body.channels.telegram.order_filled).toBe(false);
    expect(off.body.channels.in_app.order_filled).toBe(true);
    await fill(user.token, path, 'close', 'n2');
    await until(
      () => list(user.token),
      (l) => l.count >= 2,
      'the second notification',
    );
    await settle();
    expect(
      telegram.messagesTo(chatId).filter((text) => text.startsWith('Order filled')),
    ).toHaveLength(1);

    // In-app off too, e-mail on: the third fill is an e-mail only.
    await call(t.app, 'PUT', '/api/notifications/settings/', {
      token: user.token,
      body: { channels: { in_app: { order_filled: false }, email: { order_filled: true } } },
    });
    const mailsBefore = mails.length;
    await fill(user.token, path, 'buy', 'n3');
    await until(
      async () => mails.length,
      (n) => n > mailsBefore,
      'the e-mail',
    );
    await settle();
    expect((await list(user.token)).count).toBe(2);
    expect(mails.slice(mailsBefore)).toEqual([
      expect.objectContaining({
        subject: 'QuantSquare notification',
        text: expect.stringMatching(/^Order filled: BTC\/USDT:USDT buy/),
      }),
    ]);
    expect(
      telegram.messagesTo(chatId).filter((text) => text.startsWith('Order filled')),
    ).toHaveLength(1);
  });

  it('marks read by ids or all, filters unread, and pushes the count over the websocket', async () => {
    const user = await webhookUser(t.app, 'notify-read');
    const { path } = await createConfig(t.app, user.token, user.accountId);
    const socket = await t.app.injectWS('/ws/notifications');
    const frames: { type: string; count: number }[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
    try {
      socket.send(JSON.stringify({ type: 'auth', token: user.token }));
      await until(
        async () => frames.length,
        (n) => n >= 1,
        'the first frame',
      );
      expect(frames[0]).toEqual({ type: 'unread', count: 0 });

      await fill(user.token, path, 'buy', 'r1');
      await until(
        async () => frames.at(-1)?.count,
        (n) => n === 1,
        'unread 1 over the socket',
      );
      await fill(user.token, path, 'close', 'r2');
      await until(
        async () => frames.at(-1)?.count,
        (n) => n === 2,
        'unread 2 over the socket',
      );

      const all = await list(user.token);
      expect(all).toMatchObject({ count: 2, unread: 2 });
      const newest = all.results[0] as Notification;
      const read = await call(t.app, 'POST', '/api/notifications/read/', {
        token: user.token,
        body: { ids: [newest.id] },
      });
      expect(read.body).toEqual({ unread: 1 });
      await until(
        async () => frames.at(-1)?.count,
        (n) => n === 1,
        'unread 1 after a read',
      );
      const unread = await list(user.token, '?unread=1');
      expect(unread.results.map((n) => n.id)).not.toContain(newest.id);
      expect(unread.count).toBe(1);
      // Paged like the rest of the API.
      const page = await call<{ results: Notification[]; page: number; page_size: number }>(
        t.app,
        'GET',
        '/api/notifications/?page=2&page_size=1',
        { token: user.token },
      );
      expect(page.body).toMatchObject({
        page: 2,
        page_size: 1,
        results: [{ id: expect.any(Number) }],
      });

      const allRead = await call(t.app, 'POST', '/api/notifications/read/', {
        token: user.token,
        body: { all: true },
      });
      expect(allRead.body).toEqual({ unread: 0 });
      await until(
        async () => frames.at(-1)?.count,
        (n) => n === 0,
        'unread 0',
      );
    } finally {
      socket.terminate();
    }
  });

  it('tells a halt of the account and the webhook signal its risk gate refused', async () => {
    const user = await webhookUser(t.app, 'notify-risk');
    const { path } = await createConfig(t.app, user.token, user.accountId);
    const halted = await call(t.app, 'POST', `/api/trading/accounts/${user.accountId}/risk/halt/`, {
      token: user.token,
    });
    expect(halted.status).toBe(200);
    const alert = await postAlert(t.app, path, {
      action: 'buy',
      amount: 100,
      id: 'h1',
      timestamp: t.clock.now().toISOString(),
    });
    expect((await settledSignal(t.app, user.token, alert.body.signal_id)).status).toBe('refused');
    const seen = await until(
      () => list(user.token),
      (l) => l.count >= 2,
      'two notifications',
    );
    expect(seen.results.map((n) => [n.kind, n.params])).toEqual([
      [
        'webhook_signal',
        expect.objectContaining({
          status: 'refused',
          reason: 'risk_halted',
          signal_id: Number(alert.body.signal_id),
          config_name: 'TV BTC',
        }),
      ],
      [
        'risk_state',
        expect.objectContaining({ account_id: user.accountId, state: 'halted', reason: 'user' }),
      ],
    ]);
    await settle();
    expect((await list(user.token)).count).toBe(2);
  });

  it('tells every user of a new announcement, once, in the app and on a linked Telegram', async () => {
    const reader = await webhookUser(t.app, 'notify-news');
    const chatId = 7_000_010;
    await call(t.app, 'PUT', '/api/notifications/settings/', {
      token: reader.token,
      body: { language: 'en' },
    });
    await linkTelegram(reader.token, chatId);
    const other = await webhookUser(t.app, 'notify-news-2');
    const staff = await staffSession(t);
    const created = await publish(t.app, staff.access, {
      title: 'Maintenance tonight',
      type: 'maintenance',
    });
    for (const user of [reader, other]) {
      const seen = await until(
        () => list(user.token),
        (l) => l.results.some((n) => n.kind === 'announcement'),
        'the announcement notification',
      );
      expect(seen.results.filter((n) => n.kind === 'announcement')).toEqual([
        expect.objectContaining({
          params: {
            announcement_id: created.id,
            title: 'Maintenance tonight',
            type: 'maintenance',
          },
        }),
      ]);
    }
    await until(
      async () => telegram.messagesTo(chatId),
      (texts) => texts.includes('New announcement: Maintenance tonight'),
      'the Telegram announcement',
    );
    await settle();
    expect(
      telegram.messagesTo(chatId).filter((text) => text.startsWith('New announcement')),
    ).toHaveLength(1);
  });

  it('tells the follower a copy started, paused and stopped, with the reason', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '200');
    const created = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const act = (action: string) =>
      call(t.app, 'PUT', `${COPY}/${id}/${action}/`, { token: follower.access });
    expect((await act('pause')).status).toBe(200);
    expect((await act('resume')).status).toBe(200);
    expect((await act('stop')).status).toBe(200);
    const seen = await until(
      () => list(follower.access),
      (l) => l.count >= 3,
      'three notifications',
    );
    expect(seen.results.map((n) => [n.kind, n.params.status, n.params.reason])).toEqual([
      ['copy_status', 'stopped', 'user'],
      ['copy_status', 'paused', 'user'],
      ['copy_status', 'started', null],
    ]);
    expect(seen.results[0]?.params).toMatchObject({
      relation_id: id,
      leader_account_id: lead.accountId,
    });
    await settle();
    expect((await list(follower.access)).count).toBe(3);
  });

  it("tells a user their deposit's approval, once, however many staff press at once", async () => {
    const staffA = await newStaff(t);
    const staffB = await newStaff(t);
    const user = await newUser(t);
    const deposit = await call<{ transaction: { id: number } }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      {
        token: user.access,
        body: { amount: 75, network: 'TRC20', tx_hash: trc20Hash() },
      },
    );
    expect(deposit.status).toBe(201);
    const id = deposit.body.transaction.id;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, {
          token: (i % 2 ? staffA : staffB).access,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const seen = await until(
      () => list(user.access),
      (l) => l.count >= 1,
      'the notification',
    );
    expect(seen.results).toEqual([
      expect.objectContaining({
        kind: 'wallet_status',
        params: { transaction_id: id, kind: 'deposit', status: 'completed', amount: '75' },
      }),
    ]);
    await settle();
    expect((await list(user.access)).count).toBe(1);
  });

  it("never shows one user's notifications to another, nor marks them read", async () => {
    const owner = await webhookUser(t.app, 'notify-a');
    const other = await webhookUser(t.app, 'notify-b');
    const { path } = await createConfig(t.app, owner.token, owner.accountId);
    await fill(owner.token, path, 'buy', 'o1');
    const mine = await until(
      () => list(owner.token),
      (l) => l.count === 1,
      'the notification',
    );
    expect((await list(other.token)).count).toBe(0);
    const id = (mine.results[0] as Notification).id;
    await call(t.app, 'POST', '/api/notifications/read/', {
      token: other.token,
      body: { ids: [id] },
    });
    expect((await list(owner.token)).unread).toBe(1);
  });

  it('answers bad requests with 400 and a code, and anonymous calls with 401', async () => {
    const user = await webhookUser(t.app, 'notify-bad');
    const empty = await call(t.app, 'POST', '/api/notifications/read/', {
      token: user.token,
      body: {},
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'validation_failed' });
    const wrongKind = await call(t.app, 'PUT', '/api/notifications/settings/', {
      token: user.token,
      body: { channels: { sms: { order_filled: true } } },
    });
    expect(wrongKind.status).toBe(400);
    const badQuery = await call(t.app, 'GET', '/api/notifications/?unread=yes', {
      token: user.token,
    });
    expect(badQuery.status).toBe(400);
    expect((await call(t.app, 'GET', '/api/notifications/')).status).toBe(401);
    const socket = await t.app.injectWS('/ws/notifications');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'auth', token: 'not-a-token' }));
    expect(await closed).toBe(4401);
  });

  it("unlinks the chat on /stop, answering in the linked user's language", async () => {
    const user = await webhookUser(t.app, 'notify-stop');
    await call(t.app, 'PUT', '/api/notifications/settings/', {
      token: user.token,
      body: { language: 'zh-CN' },
    });
    const chatId = 7_000_002;
    const link = await call<{ code: string }>(t.app, 'POST', '/api/notifications/telegram/link/', {
      token: user.token,
    });
    telegram.userSends(chatId, `/start ${link.body.code}`);
    await until(
      () => settings(user.token),
      (s) => s.telegram.linked,
      'the link',
    );
    // A code works once.
    telegram.userSends(7_000_003, `/start ${link.body.code}`);
    await until(
      async () => telegram.messagesTo(7_000_003),
      (m) => m.length === 1,
      'the refusal',
    );
    expect(telegram.messagesTo(7_000_003)[0]).toMatch(/^This link code is wrong or expired/);
    telegram.userSends(chatId, '/stop');
    await until(
      () => settings(user.token),
      (s) => !s.telegram.linked,
      'the unlink',
    );
    await until(
      async () => telegram.messagesTo(chatId),
      (m) => m.length === 2,
      'the replies',
    );
    expect(telegram.messagesTo(chatId)).toEqual([
      expect.stringMatching(/^已绑定/),
      expect.stringMatching(/^已解除绑定/),
    ]);
    // Every update was confirmed (the next getUpdates' offset is past them).
    await until(
      async () => telegram.pendingUpdates,
      (n) => n === 0,
      'the updates confirmed',
    );
  });
});
