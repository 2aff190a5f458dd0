// Who publishes what on the event bus: the bots service (a user's start and stop), the bot
// engine (a bot's failure), the balance snapshotter (every snapshot written).

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import { exchangeAccounts, users } from '../../src/db/schema/index.js';
import { type BusEvent, createInProcessEventBus, type EventType } from '../../src/events/index.js';
import { createBotFixture, runCandles } from '../bot-engine/bot-engine-fixture.js';
import { createTestAccountServices } from '../helpers/account-services.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import {
  createBot,
  createPaperAccount,
  grantVip,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { FixedPrices, scriptedFactory } from '../helpers/exchange-doubles.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

function recorder(clock: ManualClock, types: EventType[]) {
  const bus = createInProcessEventBus({ clock });
  const seen: BusEvent[] = [];
  for (const type of types) {
    bus.subscribe(type, (event) => {
      seen.push(event);
    });
  }
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  return { bus, seen, settled };
}

const bots = recorder(new ManualClock(), ['BotStatusChanged']);
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: () => new RecordingBotControl(),
  eventBus: bots.bus,
});

describe('BotStatusChanged', () => {
  it('is published when a user starts and stops a bot', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('events'));
    await grantVip(ctx.database, ctx.clock, Number(session.user.id));
    const id = await createBot(
      ctx.app,
      session.access,
      await createPaperAccount(ctx.app, session.access),
    );
    await call(ctx.app, 'POST', `/api/trading/bots/${id}/start/`, { token: session.access });
    await call(ctx.app, 'POST', `/api/trading/bots/${id}/stop/`, { token: session.access });
    await bots.settled();
    expect(bots.seen.map((e) => e.payload)).toEqual([
      { botId: id, userId: Number(session.user.id), status: 'running', error: null },
      { botId: id, userId: Number(session.user.id), status: 'stopped', error: null },
    ]);
  });

  it('is published by the engine when a bot fails', async () => {
    const start = Date.UTC(2026, 0, 23, 8, 0, 0);
    const fixture = await createBotFixture(start);
    const events = recorder(fixture.clock, ['BotStatusChanged', 'OrderFilled']);
    try {
      const poor = await fixture.bot({ accountId: await fixture.paperAccount({ balance: '5' }) });
      const engine = createBotEngineWithCore({
        db: fixture.database.db,
        clock: fixture.clock,
        feed: fixture.feed,
        clients: fixture.clients,
        events: events.bus,
        pollIntervalMs: 3_600_000,
      });
      await engine.startBot(poor);
      await runCandles(
        fixture,
        engine,
        120,
        async () => (await fixture.botRow(poor)).status === 'error',
      );
      await engine.stop();
      await events.settled();
      const failure = events.seen.find((e) => e.type === 'BotStatusChanged');
      expect(failure?.payload).toMatchObject({
        botId: poor,
        status: 'error',
        error: expect.stringMatching(/Insufficient paper balance/),
      });
      expect(events.seen.some((e) => e.type === 'OrderFilled')).toBe(false);
    } finally {
      await fixture.close();
    }
  });
});

describe('BalanceChanged', () => {
  it('is published for every snapshot written, once per account and slot', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 23, 9, 0, 0));
    const database = await createTestDatabase();
    const balances = recorder(clock, ['BalanceChanged']);
    try {
      const [user] = await database.db
        .insert(users)
        .values({
          username: 'bal@example.com',
          passwordHash: 'x',
          invitationCode: 'BAL001',
          dateJoined: clock.now(),
        })
        .returning();
      const [account] = await database.db
        .insert(exchangeAccounts)
        .values({
          userId: user!.id,
          name: 'Paper',
          exchange: 'binance',
          accountType: 'classic',
          isPaper: true,
          positionMode: 'net',
          defaultLeverage: 1,
          paperBalance: '2500',
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning();
      const services = createTestAccountServices({
        db: database.db,
        clock,
        secretBox: createSecretBox(TEST_SECRET_KEY),
        factory: scriptedFactory({ database, clock }, new FixedPrices()),
        log: { warn: () => undefined },
        events: balances.bus,
      });
      const slot = new Date(Date.UTC(2026, 0, 23, 10, 0, 0));
      expect(await services.snapshotter.snapshotAll(slot)).toBe(1);
      // The same slot again (another process, a retry): written once, told once.
      expect(await services.snapshotter.snapshotAll(slot)).toBe(0);
      await balances.settled();
      expect(balances.seen.map((e) => [e.id, e.payload])).toEqual([
        [
          `balance:${account!.id}:${slot.getTime()}`,
          {
            accountId: account!.id,
            userId: user!.id,
            total: 2500,
            free: 2500,
            used: 0,
            atMs: slot.getTime(),
          },
        ],
      ]);
    } finally {
      await database.close();
    }
  });
});
