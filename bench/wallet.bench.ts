// Wallet figures: ledger operations per second on PostgreSQL (BENCH_DATABASE_URL, default the
// local server), each a locked, guarded balance move with its ledger row in one transaction:
// (1) all on one balance (every operation waits for the one before on that user's row lock),
// (2) the same work spread over 1,000 balances — the peer of (1). Then the copy-fee transfer
// (two balances per operation). check-ledger runs at the end. A measurement, never a test.
import { randomBytes } from 'node:crypto';
import { systemClock } from '../packages/server/src/common/clock.js';
import { openPostgres } from '../packages/server/src/db/client.js';
import type { Database } from '../packages/server/src/db/database.js';
import { users } from '../packages/server/src/db/schema/index.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import { createLedger, type Ledger } from '../packages/server/src/modules/wallet/ledger.js';
import { checkLedger } from '../packages/server/src/modules/wallet/ledger-check.js';
import { adminQuery } from './bench-support.js';

const USERS = 1000;
const OPERATIONS = 4000;
const IN_FLIGHT = 32;
const STARTING_BALANCE = 1_000_000;

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `count` operations with at most IN_FLIGHT at once; answers operations per second. */
async function throughput(count: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await run(i);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (count / (performance.now() - started)) * 1000;
}

async function seedUsers(db: Database, ledger: Ledger): Promise<number[]> {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: USERS }, (_, i) => ({
        username: `bench${i}@example.com`,
        email: `bench${i}@example.com`,
        // Bench accounts never sign in.
        passwordHash: 'bench-no-login',
        invitationCode: `B${String(i).padStart(7, '0')}`,
        dateJoined: new Date(),
      })),
    )
    .returning({ id: users.id });
  const ids = rows.map((r) => r.id);
  await throughput(ids.length, (i) =>
    ledger.credit(
      {
        userId: ids[i] ?? 0,
        type: 'adjustment',
        amount: STARTING_BALANCE,
        businessKey: `bench:fund:${i}`,
        note: 'bench funding',
      },
      'credit',
    ),
  );
  return ids;
}

/** Alternating 1-coin credits and debits, so no balance runs dry. */
function move(ledger: Ledger, userId: number, key: string, i: number) {
  const entry = { userId, type: 'adjustment' as const, amount: 1, businessKey: key };
  return i % 2 ? ledger.debit(entry) : ledger.credit(entry, 'credit');
}

export async function benchWallet(): Promise<string[]> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `qs_bench_wallet_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const handle = await openPostgres(withDatabase(serverUrl, name), { migrate: true });
  try {
    const events = createInProcessEventBus({ clock: systemClock });
    const ledger = createLedger({ db: handle.db, clock: systemClock, events });
    const ids = await seedUsers(handle.db, ledger);
    const one = ids[0] ?? 0;

    // Warm-up (connections, plans), not counted.
    await throughput(200, (i) => move(ledger, ids[i % USERS] ?? one, `bench:warm:${i}`, i));
    const contended = await throughput(OPERATIONS, (i) => move(ledger, one, `bench:one:${i}`, i));
    const spread = await throughput(OPERATIONS, (i) =>
      move(ledger, ids[i % USERS] ?? one, `bench:spread:${i}`, i),
    );
    const transfers = await throughput(OPERATIONS / 2, (i) =>
      ledger.transfer({
        fromUserId: ids[(2 * i) % USERS] ?? one,
        toUserId: ids[(2 * i + 1) % USERS] ?? one,
        amount: 1,
        debitType: 'copy_fee',
        creditType: 'copy_earning',
        businessKey: `bench:transfer:${i}`,
      }),
    );
    const check = await checkLedger(handle.db);
    await events.close();
    return [
      `  PostgreSQL, ${OPERATIONS} operations each (1-coin credit/debit: ledger row + guarded balance UPDATE, one transaction), ${IN_FLIGHT} in flight, pool of 10`,
      `  all on one balance (contention):   ${contended.toFixed(0)} ops/s`,
      `  spread over ${USERS} balances:        ${spread.toFixed(0)} ops/s  (${(spread / contended).toFixed(2)}× the contended rate)`,
      `  copy-fee transfers (two balances): ${transfers.toFixed(0)} transfers/s over ${USERS} balances`,
      `  check-ledger after the run: ${check.mismatches.length === 0 ? 'clean' : `${check.mismatches.length} MISMATCHES`} (${check.users} users, ${check.rows} rows)`,
    ];
  } finally {
    await handle.close();
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
