import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { adminActions, exchangeAccounts, users } from '../../src/db/schema/index.js';
import { testAdminService } from '../helpers/admin-service.js';
import { createTestDatabase } from '../helpers/test-database.js';

const OLD_KEY = 'old-secret-key-0123456789-abcdefghijklmnop';
const NEW_KEY = 'new-secret-key-9876543210-zyxwvutsrqponmlk';
const oldBox = createSecretBox(OLD_KEY);
const newBox = createSecretBox(NEW_KEY);
const quiet = { info: () => undefined };
const clock = new ManualClock();

let database: DatabaseHandle;
let userId: number;
let accountId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'rotate@example.com',
      passwordHash: 'x',
      invitationCode: 'ROT001',
      dateJoined: clock.now(),
      totpSecret: oldBox.encrypt('TOTPSEEDBASE32'),
      totpPendingSecret: newBox.encrypt('PENDINGSEED'), // already under the new key
    })
    .returning();
  userId = user!.id;
  const [account] = await database.db
    .insert(exchangeAccounts)
    .values({
      userId,
      name: 'OKX',
      exchange: 'okx',
      accountType: 'classic',
      positionMode: 'hedge',
      defaultLeverage: 1,
      apiKeyEncrypted: oldBox.encrypt('the-api-key'),
      apiSecretEncrypted: oldBox.encrypt('the-api-secret'),
      apiPasswordEncrypted: oldBox.encrypt('the-passphrase'),
      apiKeyMasked: 'the-…-key',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  accountId = account!.id;
});
afterAll(async () => {
  await database.close();
});

const admin = (old: string | undefined) =>
  testAdminService({ db: database.db, clock, log: quiet, secretKeys: { current: NEW_KEY, old } });

async function storedValues() {
  const [user] = await database.db.select().from(users).where(eq(users.id, userId));
  const [account] = await database.db
    .select()
    .from(exchangeAccounts)
    .where(eq(exchangeAccounts.id, accountId));
  return [
    user!.totpSecret,
    user!.totpPendingSecret,
    account!.apiKeyEncrypted,
    account!.apiSecretEncrypted,
    account!.apiPasswordEncrypted,
  ];
}

describe('admin rotate-secret-key', () => {
  it('refuses without OLD_SECRET_KEY when values need it, changing nothing', async () => {
    const before = await storedValues();
    await expect(admin(undefined).run({ command: 'rotate-secret-key' })).rejects.toThrow(
      /4 secret\(s\) open with neither SECRET_KEY nor OLD_SECRET_KEY/,
    );
    expect(await storedValues()).toEqual(before);
  });

  it('re-encrypts exchange keys and TOTP seeds under the current key', async () => {
    const message = await admin(OLD_KEY).run({ command: 'rotate-secret-key' });
    expect(message).toBe('Re-encrypted 4 secret(s) under the current key; 1 already current');
    const values = await storedValues();
    expect(values.map((v) => newBox.decrypt(v!))).toEqual([
      'TOTPSEEDBASE32',
      'PENDINGSEED',
      'the-api-key',
      'the-api-secret',
      'the-passphrase',
    ]);
    for (const value of values) expect(() => oldBox.decrypt(value!)).toThrow();
    const actions = await database.db.select().from(adminActions);
    expect(actions.map((a) => [a.action, a.changes])).toEqual([
      ['rotate-secret-key', { reencrypted: 4, already_current: 1 }],
    ]);
  });

  it('is a no-op when run again', async () => {
    const before = await storedValues();
    expect(await admin(OLD_KEY).run({ command: 'rotate-secret-key' })).toBe(
      'Re-encrypted 0 secret(s) under the current key; 5 already current',
    );
    expect(await storedValues()).toEqual(before);
  });

  it('refuses extra arguments', async () => {
    await expect(
      admin(OLD_KEY).run({ command: 'rotate-secret-key', email: 'a@b.co' }),
    ).rejects.toThrow(/Invalid command/);
  });
});
