import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { openDatabase } from '../../src/db/client.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  adminActions,
  users,
  walletBalances,
  walletTransactions,
} from '../../src/db/schema/index.js';
import type { AdminService } from '../../src/modules/admin/admin.service.js';
import { testAdminService } from '../helpers/admin-service.js';
import { createTestDatabase } from '../helpers/test-database.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ADMIN_CLI = path.join(REPO_ROOT, 'packages/server/src/cli/admin.ts');
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

/** The user's coin balance as the wallet's table holds it. */
const heldBy = async (userId: number) =>
  (
    await database.db
      .select({ balance: walletBalances.balance })
      .from(walletBalances)
      .where(eq(walletBalances.userId, userId))
  )[0]?.balance;

/** A write that bypasses the wallet's ledger: exactly what check-ledger is there to catch. */
const overwriteBalance = (db: DatabaseHandle['db'], userId: number, balance: string) =>
  db.update(walletBalances).set({ balance }).where(eq(walletBalances.userId, userId));

async function someUser(email: string) {
  await admin.run({ command: 'create-staff', email, password: 'a long password' });
  await database.db.update(users).set({ isStaff: false }).where(eq(users.email, email));
  const user = await userByEmail(email);
  if (!user) throw new Error('no user');
  return user;
}

describe('admin credit', () => {
  it('credits and debits as adjustment rows naming the reason, and records the action', async () => {
    const user = await someUser('credit@example.com');
    expect(
      await admin.run({
        command: 'credit',
        email: user.email,
        amount: '120.5',
        reason: 'Goodwill',
      }),
    ).toMatch(/^Credited 120.50000000 to credit@example.com .* balance 120.50000000/);
    expect(
      await admin.run({
        command: 'credit',
        email: user.email,
        amount: '-20.5',
        reason: 'Correction',
      }),
    ).toMatch(/^Debited 20.50000000 from credit@example.com .* balance 100.00000000/);
    const rows = await database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, user.id));
    expect(rows.map((r) => [r.type, r.direction, r.amount, r.status, r.note])).toEqual([
      ['adjustment', 'credit', '120.50000000', 'completed', 'Goodwill'],
      ['adjustment', 'debit', '20.50000000', 'completed', 'Correction'],
    ]);
    const actions = await database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.targetUserId, user.id));
    expect(actions.filter((a) => a.action === 'credit')).toHaveLength(2);
    expect(await admin.run({ command: 'check-ledger' })).toMatch(/^Ledger clean/);
  });

  it('refuses a debit below zero and changes nothing', async () => {
    const user = await someUser('poor@example.com');
    await admin.run({ command: 'credit', email: user.email, amount: '5', reason: 'x' });
    await expect(
      admin.run({ command: 'credit', email: user.email, amount: '-5.01', reason: 'too much' }),
    ).rejects.toThrow(/^Refused: poor@example.com holds 5.00000000/);
    expect(await heldBy(user.id)).toBe('5.00000000');
  });

  it('acts once per --request-id', async () => {
    const user = await someUser('retry@example.com');
    const command = {
      command: 'credit',
      email: user.email,
      amount: '7',
      reason: 'retried',
      'request-id': 'ticket-42',
    };
    await admin.run(command);
    expect(await admin.run(command)).toMatch(/already applied/);
    expect(await heldBy(user.id)).toBe('7.00000000');
  });

  it('refuses bad input: zero, too many decimals, no reason, unknown user', async () => {
    await someUser('input@example.com');
    for (const [amount, reason] of [
      ['0', 'r'],
      ['1.123456789', 'r'],
      ['abc', 'r'],
      ['5', '  '],
    ]) {
      await expect(
        admin.run({ command: 'credit', email: 'input@example.com', amount, reason }),
      ).rejects.toThrow(/Invalid command/);
    }
    await expect(
      admin.run({ command: 'credit', email: 'ghost@example.com', amount: '1', reason: 'r' }),
    ).rejects.toThrow(/No user/);
  });
});

describe('admin check-ledger', () => {
  it('prints the users whose balance differs from their ledger and fails', async () => {
    const user = await someUser('drift@example.com');
    await admin.run({ command: 'credit', email: user.email, amount: '10', reason: 'x' });
    await overwriteBalance(database.db, user.id, '11');
    await expect(admin.run({ command: 'check-ledger' })).rejects.toThrow(
      new RegExp(
        `Ledger check failed: 1 user\\(s\\) differ[\\s\\S]*user ${user.id} drift@example.com: balance 11.00000000, ledger 10.00000000 \\(difference 1.00000000\\)`,
      ),
    );
    await overwriteBalance(database.db, user.id, '10');
    expect(await admin.run({ command: 'check-ledger' })).toMatch(/^Ledger clean/);
  });

  it('refuses a negative balance in the database itself', async () => {
    const user = await someUser('negative@example.com');
    await expect(
      database.db.insert(walletBalances).values({ userId: user.id, balance: '-1' }),
    ).rejects.toThrow();
  });
});

describe('npm run admin (the CLI process)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qs-admin-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', ADMIN_CLI, ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('debits with a negative --amount, and check-ledger exits 1 on a mismatch', async () => {
    const email = 'cli@example.com';
    // Set up in this process (each CLI start opens and migrates the embedded database).
    const setup = await openDatabase({ databaseUrl: undefined, dataDir });
    const local = testAdminService({ db: setup.db, clock, log: quietLog });
    await local.run({ command: 'create-staff', email, password: 'a long password' });
    await local.run({ command: 'credit', email, amount: '30', reason: 'cli test' });
    await setup.close();

    const debited = await cli(['credit', '--email', email, '--amount', '-10', '--reason', 'back']);
    expect(debited).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Debited 10/) });

    const handle = await openDatabase({ databaseUrl: undefined, dataDir });
    const [holder] = await handle.db.select().from(users).where(eq(users.email, email));
    await overwriteBalance(handle.db, holder?.id ?? 0, '99');
    await handle.close();
    const failed = await cli(['check-ledger']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/cli@example.com: balance 99.00000000, ledger 20.00000000/);
  }, 180_000);
});
