// What the execution core's tests share: a core whose live accounts trade on a fake venue through
// the real ccxt client, a user, and live accounts of that user on the venue.
import type { Exchange } from '@quantsquare/contracts';
import type { ManualClock } from '../../src/common/clock.js';
import { createSecretBox } from '../../src/common/secret-box.js';
import type { Database } from '../../src/db/database.js';
import { exchangeAccounts, users } from '../../src/db/schema/index.js';
import { createInProcessEventBus, type EventBus } from '../../src/events/index.js';
import { createOutbox, type Outbox } from '../../src/events/outbox.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { createAccountClientCache, type ExecutionCore } from '../../src/execution/index.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { FixedPrices } from '../helpers/exchange-doubles.js';
import { testExecutionCore } from '../helpers/execution-core.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';

export const secretBox = createSecretBox(TEST_SECRET_KEY);

/** A core on `db` whose live accounts trade on the venue at `venueUrl`. */
export function coreOnVenue(options: {
  db: Database;
  clock: ManualClock;
  venueUrl: string;
  events?: EventBus;
  outbox?: Outbox;
  sendDeadlineMs?: number;
  timeoutMs?: number;
}): ExecutionCore {
  const { db, clock } = options;
  return testExecutionCore({
    db,
    clock,
    events: options.events ?? createInProcessEventBus({ clock }),
    outbox: options.outbox ?? createOutbox({ db, clock }),
    clients: createAccountClientCache({
      secretBox,
      factory: createExchangeClientFactory({
        paperBalances: writePaperBalances,
        db,
        clock,
        prices: new FixedPrices(),
        paperSlippageBps: 2,
        createLiveClient: (clientOptions) =>
          createCcxtExchangeClient({
            ...clientOptions,
            urlsOverride: options.venueUrl,
            timeoutMs: options.timeoutMs ?? 2000,
          }),
      }),
    }),
    ...(options.sendDeadlineMs === undefined ? {} : { sendDeadlineMs: options.sendDeadlineMs }),
  });
}

/** A user of the tests' live accounts. */
export async function insertUser(db: Database, clock: ManualClock, name: string): Promise<number> {
  const [user] = await db
    .insert(users)
    .values({
      username: `${name}@example.com`,
      passwordHash: 'x',
      invitationCode: name.slice(0, 6).toUpperCase().padEnd(6, '0'),
      dateJoined: clock.now(),
    })
    .returning();
  return user!.id;
}

/** A live one-way account of `userId` on `exchange`, with its API key. */
export async function insertLiveAccount(
  db: Database,
  clock: ManualClock,
  options: { userId: number; exchange: Exchange; apiKey: string; leverage?: number },
): Promise<{ id: number; apiKey: string }> {
  const [row] = await db
    .insert(exchangeAccounts)
    .values({
      userId: options.userId,
      name: options.apiKey,
      exchange: options.exchange,
      accountType: 'classic',
      positionMode: 'net',
      defaultLeverage: options.leverage ?? 2,
      apiKeyEncrypted: secretBox.encrypt(options.apiKey),
      apiSecretEncrypted: secretBox.encrypt('secret'),
      apiPasswordEncrypted: secretBox.encrypt('passphrase'),
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    .returning();
  return { id: row!.id, apiKey: options.apiKey };
}
