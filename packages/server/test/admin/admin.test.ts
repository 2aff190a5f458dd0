import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath, sendAdminCommand, startAdminSocket } from '../../src/cli/admin-socket.js';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { adminActions, exchangeAccounts, users } from '../../src/db/schema/index.js';
import type { AdminService } from '../../src/modules/admin/admin.service.js';
import { testAdminService } from '../helpers/admin-service.js';
import { createTestDatabase } from '../helpers/test-database.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const quietLog = { info: () => undefined, error: () => undefined };

let database: DatabaseHandle;
let admin: AdminService;
const clock = new ManualClock();

beforeAll(async () => {
  database = await createTestDatabase();
  admin = testAdminService({ db: database.db, clock, log: quietLog });
});
afterAll(async () => {
  await database.close();
});

const userByEmail = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0];

describe('admin create-staff', () => {
  it('creates a staff user who can sign in with the given password, and records the action', async () => {
    const message = await admin.run({
      command: 'create-staff',
      email: 'Staff@Example.com',
      password: 'staff password',
    });
    expect(message).toMatch(/^Created staff user staff@example.com/);
    const user = await userByEmail('staff@example.com');
    expect(user).toMatchObject({ isStaff: true, username: 'staff@example.com' });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const actions = await database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.targetUserId, user!.id));
    expect(actions.map((a) => a.action)).toEqual(['create-staff']);
  });

  it('gives the created user the experience account a registered user gets', async () => {
    await admin.run({
      command: 'create-staff',
      email: 'fresh@example.com',
      password: 'staff password',
    });
    const user = await userByEmail('fresh@example.com');
    const accounts = await database.db
      .select()
      .from(exchangeAccounts)
      .where(eq(exchangeAccounts.userId, user!.id));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ isExperience: true, isPaper: true, exchange: 'binance' });
    expect(Number(accounts[0]!.paperBalance)).toBe(10_000);
  });

  it('promotes an existing user to staff', async () => {
    await admin.run({
      command: 'create-staff',
      email: 'plain@example.com',
      password: 'plain password',
    });
    await database.db
      .update(users)
      .set({ isStaff: false })
      .where(eq(users.email, 'plain@example.com'));
    const message = await admin.run({
      command: 'create-staff',
      email: 'plain@example.com',
      password: 'ignored password',
    });
    expect(message).toMatch(/^Promoted existing user/);
    expect((await userByEmail('plain@example.com'))?.isStaff).toBe(true);
  });

  it('refuses an invalid e-mail or a short password', async () => {
    await expect(
      admin.run({ command: 'create-staff', email: 'nope', password: 'long enough pw' }),
    ).rejects.toThrow(/email/);
    await expect(
      admin.run({ command: 'create-staff', email: 'a@b.co', password: 'short' }),
    ).rejects.toThrow(/password/);
    await expect(admin.run({ command: 'drop-tables' })).rejects.toThrow(/Invalid command/);
  });
});

describe('admin grant-vip', () => {
  it('grants VIP for N days from now, then extends from the current expiry', async () => {
    await admin.run({
      command: 'create-staff',
      email: 'vip@example.com',
      password: 'vip password',
    });
    await admin.run({ command: 'grant-vip', email: 'vip@example.com', days: 30 });
    const first = await userByEmail('vip@example.com');
    expect(first?.isVip).toBe(true);
    expect(first?.vipExpiresAt?.getTime()).toBe(clock.now().getTime() + 30 * DAY_MS);
    await admin.run({ command: 'grant-vip', email: 'vip@example.com', days: '5' });
    expect((await userByEmail('vip@example.com'))?.vipExpiresAt?.getTime()).toBe(
      clock.now().getTime() + 35 * DAY_MS,
    );
  });

  it('extends from now when the VIP has expired', async () => {
    await admin.run({
      command: 'create-staff',
      email: 'lapsed@example.com',
      password: 'lapsed password',
    });
    await admin.run({ command: 'grant-vip', email: 'lapsed@example.com', days: 1 });
    clock.advanceSeconds(10 * 24 * 60 * 60);
    await admin.run({ command: 'grant-vip', email: 'lapsed@example.com', days: 2 });
    expect((await userByEmail('lapsed@example.com'))?.vipExpiresAt?.getTime()).toBe(
      clock.now().getTime() + 2 * DAY_MS,
    );
  });

  it('refuses an unknown user and a non-positive number of days', async () => {
    await expect(
      admin.run({ command: 'grant-vip', email: 'ghost@example.com', days: 3 }),
    ).rejects.toThrow(/No user/);
    await expect(
      admin.run({ command: 'grant-vip', email: 'vip@example.com', days: 0 }),
    ).rejects.toThrow(/days/);
  });
});

describe('admin socket', () => {
  it('runs a command sent by the CLI over a 0600 unix socket and answers one JSON line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qs-admin-'));
    const socket = await startAdminSocket(dir, admin, quietLog);
    try {
      expect(statSync(adminSocketPath(dir)).mode & 0o777).toBe(0o600);
      const ok = await sendAdminCommand(dir, {
        command: 'create-staff',
        email: 'sock@example.com',
        password: 'socket password',
      });
      expect(ok).toEqual({ ok: true, message: expect.stringContaining('sock@example.com') });
      const bad = await sendAdminCommand(dir, {
        command: 'grant-vip',
        email: 'ghost@example.com',
        days: 1,
      });
      expect(bad).toEqual({ ok: false, error: expect.stringContaining('No user') });
    } finally {
      await socket.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
