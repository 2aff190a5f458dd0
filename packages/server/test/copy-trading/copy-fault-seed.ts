// The copy fault tests' accounts: a leader and `followers` followers on Binance at the ccxt fake
// (one API key each, copy-fault-plan.ts) with their active relations. Written by the SIGKILL
// test's first process (copy-child.ts, SETUP=1) and by the lease test before its processes start.
import type { Clock } from '../../src/common/clock.js';
import type { SecretBox } from '../../src/common/secret-box.js';
import type { Database } from '../../src/db/database.js';
import { copyRelations, exchangeAccounts, users } from '../../src/db/schema/index.js';
import { copyAmountOf, followerApiKey, LEADER_API_KEY, LEADER_EQUITY } from './copy-fault-plan.js';

/** The secret the fault tests' API keys are encrypted with (parent and children agree on it). */
export const COPY_TEST_SECRET = 'copy-fault-test-secret-key-0123456789-abc';

export async function seedCopyRelations(
  db: Database,
  secretBox: SecretBox,
  clock: Clock,
  followers: number,
): Promise<{ userId: number; accountId: number }> {
  const now = clock.now();
  const account = async (label: string, apiKey: string) => {
    const [user] = await db
      .insert(users)
      .values({
        username: `${label}@example.com`,
        passwordHash: 'x',
        invitationCode: label.toUpperCase().replace(/[^A-Z0-9]/g, ''),
        dateJoined: now,
      })
      .returning();
    const [row] = await db
      .insert(exchangeAccounts)
      .values({
        userId: user!.id,
        name: label,
        exchange: 'binance',
        accountType: 'classic',
        positionMode: 'net',
        defaultLeverage: 2,
        apiKeyEncrypted: secretBox.encrypt(apiKey),
        apiSecretEncrypted: secretBox.encrypt(`${apiKey}-secret`),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { userId: user!.id, accountId: row!.id };
  };
  const leader = await account('copyleader', LEADER_API_KEY);
  for (let i = 0; i < followers; i++) {
    const follower = await account(`copyfollower${i}`, followerApiKey(i));
    await db.insert(copyRelations).values({
      followerUserId: follower.userId,
      followerAccountId: follower.accountId,
      leaderUserId: leader.userId,
      leaderAccountId: leader.accountId,
      copyAmount: String(copyAmountOf(i)),
      copyMode: 'normal',
      status: 'active',
      feePaid: '100',
      entryDistancePercent: 1,
      leaderEquityBase: String(LEADER_EQUITY),
      leaderEquityStart: String(LEADER_EQUITY),
      leaderEquityPeak: String(LEADER_EQUITY),
      leaderEquityTrough: String(LEADER_EQUITY),
      leaderEquityLast: String(LEADER_EQUITY),
      leaderStartBook: {},
      createdAt: now,
      updatedAt: now,
    });
  }
  return leader;
}
