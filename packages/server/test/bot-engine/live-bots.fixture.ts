// Running live bots on their own Binance accounts, written straight into the database: the
// SIGKILL fault test and the bots benchmark both start an engine on such a set.
import type { Clock } from '../../src/common/clock.js';
import type { SecretBox } from '../../src/common/secret-box.js';
import type { Database } from '../../src/db/database.js';
import { bots, exchangeAccounts, users } from '../../src/db/schema/index.js';

export interface LiveBotsOptions {
  count: number;
  /** Names the user, its invitation code and the accounts, e.g. 'fault' or 'bench'. */
  label: string;
  parameters: { fast_period: number; slow_period: number };
}

export async function seedLiveBots(
  db: Database,
  secretBox: SecretBox,
  clock: Clock,
  { count, label, parameters }: LiveBotsOptions,
): Promise<void> {
  const now = clock.now();
  const [user] = await db
    .insert(users)
    .values({
      username: `${label}@example.com`,
      passwordHash: 'x',
      invitationCode: `${label.toUpperCase()}1`,
      dateJoined: now,
    })
    .returning();
  for (let i = 0; i < count; i++) {
    const [account] = await db
      .insert(exchangeAccounts)
      .values({
        userId: user!.id,
        name: `${label} ${i}`,
        exchange: 'binance',
        accountType: 'classic',
        positionMode: 'net',
        defaultLeverage: 2,
        apiKeyEncrypted: secretBox.encrypt(`key-${i}`),
        apiSecretEncrypted: secretBox.encrypt(`secret-${i}`),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await db.insert(bots).values({
      userId: user!.id,
      exchangeAccountId: account!.id,
      symbol: 'ETH/USDT:USDT',
      timeframe: '1m',
      strategyType: 'ma_cross',
      strategyParameters: parameters,
      tradeAmount: '100',
      status: 'running',
      createdAt: now,
      updatedAt: now,
    });
  }
}
