import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createScheduler, nextFullHour, type Scheduler } from '../../src/common/scheduler.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { balanceSnapshots, users } from '../../src/db/schema/index.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import type { AccountServices } from '../../src/modules/accounts/account-services.js';
import { tradingDayStart } from '../../src/modules/accounts/trading-day.js';
import { createTestAccountServices } from '../helpers/account-services.js';
import { FixedPrices, scriptedFactory } from '../helpers/exchange-doubles.js';
import { testPaperClient } from '../helpers/paper-client.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

const BTC = 'BTC/USDT:USDT';
const quiet = { warn: () => undefined, error: () => undefined };
const at = (iso: string) => new Date(iso);

let database: DatabaseHandle;
let services: AccountServices;
let scheduler: Scheduler;
let userId: number;
const clock = new ManualClock(at('2026-01-15T14:20:00Z'));
const prices = new FixedPrices();

beforeAll(async () => {
  database = await createTestDatabase();
  services = createTestAccountServices({
    db: database.db,
    clock,
    secretBox: createSecretBox(TEST_SECRET_KEY),
    factory: scriptedFactory({ database, clock }, prices),
    log: quiet,
  });
  scheduler = createScheduler({ clock, log: quiet });
  scheduler.add(services.snapshotter);
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'snap@example.com',
      passwordHash: 'x',
      invitationCode: 'SNAP01',
      dateJoined: clock.now(),
    })
    .returning();
  userId = user!.id;
});
afterAll(async () => {
  await scheduler.stop();
  await database.close();
});

const snapshotsOf = async (accountId: number) =>
  (
    await database.db
      .select()
      .from(balanceSnapshots)
      .where(eq(balanceSnapshots.accountId, accountId))
      .orderBy(asc(balanceSnapshots.takenAt))
  ).map((r) => [r.takenAt.toISOString(), Number(r.equity), Number(r.dailyPnl)]);

async function advanceTo(iso: string): Promise<void> {
  clock.set(at(iso));
  await scheduler.tick();
}

describe('the UTC+8 trading day', () => {
  it('starts at 16:00 UTC', () => {
    expect(tradingDayStart(at('2026-01-15T15:59:59Z')).toISOString()).toBe(
      '2026-01-14T16:00:00.000Z',
    );
    expect(tradingDayStart(at('2026-01-15T16:00:00Z')).toISOString()).toBe(
      '2026-01-15T16:00:00.000Z',
    );
    expect(tradingDayStart(at('2026-01-16T03:00:00Z')).toISOString()).toBe(
      '2026-01-15T16:00:00.000Z',
    );
  });
});

describe('hourly balance snapshots', () => {
  let paperId: number;
  let idleId: number;

  it('writes a snapshot when an account is created', async () => {
    paperId = (
      await services.exchangeAccounts.create(userId, {
        name: 'Paper',
        exchange: 'binance',
        account_type: 'classic',
        is_testnet: false,
        is_paper: true,
        position_mode: 'net',
        default_leverage: 1,
        is_active: true,
      })
    ).id;
    idleId = (
      await services.exchangeAccounts.create(userId, {
        name: 'Inactive',
        exchange: 'binance',
        account_type: 'classic',
        is_testnet: false,
        is_paper: true,
        position_mode: 'net',
        default_leverage: 1,
        is_active: false,
      })
    ).id;
    expect(await snapshotsOf(paperId)).toEqual([['2026-01-15T14:20:00.000Z', 10_000, 0]]);
  });

  it('records active accounts on the hour, and only then', async () => {
    await advanceTo('2026-01-15T14:59:59Z');
    expect(await snapshotsOf(paperId)).toHaveLength(1);
    await advanceTo('2026-01-15T15:00:00Z');
    await advanceTo('2026-01-15T15:30:00Z');
    expect(await snapshotsOf(paperId)).toEqual([
      ['2026-01-15T14:20:00.000Z', 10_000, 0],
      ['2026-01-15T15:00:00.000Z', 10_000, 0],
    ]);
    expect(await snapshotsOf(idleId)).toHaveLength(1); // its creation snapshot only
  });

  it('starts a new day at 16:00 UTC (00:00 UTC+8) and measures daily P&L from it', async () => {
    prices.set(BTC, 100);
    const client = testPaperClient({
      paperBalances: writePaperBalances,
      db: database.db,
      clock,
      prices,
      accountId: paperId,
      exchange: 'binance',
      slippageBps: 0,
    });
    await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'market',
      amount: 10,
      clientOrderId: 's-1',
    });
    prices.set(BTC, 110); // equity 10,000 - 0.5 fee + 100
    await advanceTo('2026-01-15T16:00:00Z');
    prices.set(BTC, 120); // + another 100
    await advanceTo('2026-01-15T17:00:05Z');
    expect((await snapshotsOf(paperId)).slice(-2)).toEqual([
      ['2026-01-15T16:00:00.000Z', 10_099.5, 0],
      ['2026-01-15T17:00:00.000Z', 10_199.5, 100],
    ]);
    const overview = await services.accounts.refresh(userId, paperId);
    expect(overview.daily_pnl).toBe('100');
    expect(overview.daily_pnl_percent).toBeCloseTo((100 / 10_099.5) * 100, 3);
  });

  it('after a long sleep writes one snapshot, for the latest due hour', async () => {
    await advanceTo('2026-01-15T20:10:00Z');
    expect((await snapshotsOf(paperId)).slice(-2).map((s) => s[0])).toEqual([
      '2026-01-15T17:00:00.000Z',
      '2026-01-15T20:00:00.000Z',
    ]);
  });

  it('writes a slot once even when two workers take it', async () => {
    const before = (await snapshotsOf(paperId)).length;
    expect(await services.snapshotter.snapshotAll(at('2026-01-15T20:00:00Z'))).toBe(0);
    expect(await snapshotsOf(paperId)).toHaveLength(before);
  });

  it('shows the chart as the last snapshots, oldest first', async () => {
    const overview = await services.accounts.refresh(userId, paperId);
    expect(overview.snapshots.map((s) => s.time)).toEqual(
      (await snapshotsOf(paperId)).map((s) => s[0]),
    );
  });
});

describe('the scheduler', () => {
  it('logs a failing job and still runs its next slot', async () => {
    const jobClock = new ManualClock(at('2026-01-15T10:30:00Z'));
    const errors: object[] = [];
    const runs: string[] = [];
    const own = createScheduler({
      clock: jobClock,
      log: { error: (details) => errors.push(details) },
    });
    own.add({
      name: 'flaky',
      nextSlotAfter: nextFullHour,
      run: async (slot) => {
        runs.push(slot.toISOString());
        if (runs.length === 1) throw new Error('boom');
      },
    });
    own.start();
    jobClock.set(at('2026-01-15T11:00:00Z'));
    await own.tick();
    jobClock.set(at('2026-01-15T12:00:00Z'));
    await own.tick();
    await own.stop();
    expect(runs).toEqual(['2026-01-15T11:00:00.000Z', '2026-01-15T12:00:00.000Z']);
    expect(errors).toHaveLength(1);
  });
});
