// The wallet service as other modules use it (the copy fee of copy trading): transfers with a
// business key, on their own or inside the caller's database transaction.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { InsufficientBalance } from '../../src/common/errors.js';
import { users, walletBalances, walletTransactions } from '../../src/db/schema/index.js';
import { type BusEvent, createInProcessEventBus } from '../../src/events/index.js';
import { createLedger } from '../../src/modules/wallet/ledger.js';
import { useTestApp } from '../helpers/test-app.js';
import { adjust, balanceOf, newUser, useLedgerCheck } from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

function ledgerWithEvents() {
  const events = createInProcessEventBus({ clock: new ManualClock() });
  const seen: BusEvent<'CoinBalanceChanged'>[] = [];
  events.subscribe('CoinBalanceChanged', (event) => {
    seen.push(event);
  });
  const ledger = createLedger({ db: t.database.db, clock: t.clock, events });
  const delivered = async () => new Promise((resolve) => setImmediate(resolve));
  return { ledger, seen, delivered };
}

async function pair(amount = '150') {
  const follower = await newUser(t, { prefix: 'follower' });
  const leader = await newUser(t, { prefix: 'leader' });
  await adjust(t, follower.email, amount);
  return { follower, leader };
}

const copyFee = (fromUserId: number, toUserId: number, relationId: number | string) => ({
  fromUserId,
  toUserId,
  amount: 100,
  debitType: 'copy_fee' as const,
  creditType: 'copy_earning' as const,
  businessKey: `copy_fee:${relationId}`,
  note: `copy relation ${relationId}`,
});

const rowsOf = (userId: number) =>
  t.database.db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId));

describe('ledger.transfer (the copy fee)', () => {
  it('moves 100 coins from follower copy_fee to leader copy_earning, once per business key', async () => {
    const { ledger, seen, delivered } = ledgerWithEvents();
    const { follower, leader } = await pair();
    const first = await ledger.transfer(copyFee(follower.id, leader.id, 'r1'));
    expect(first).toMatchObject({
      applied: true,
      fromBalance: '50.00000000',
      toBalance: '100.00000000',
    });
    expect(first.debit).toMatchObject({
      type: 'copy_fee',
      direction: 'debit',
      counterpartyUserId: leader.id,
    });
    expect(first.credit).toMatchObject({
      type: 'copy_earning',
      direction: 'credit',
      counterpartyUserId: follower.id,
    });
    const again = await ledger.transfer(copyFee(follower.id, leader.id, 'r1'));
    expect(again).toMatchObject({ applied: false });
    expect(again.debit.id).toBe(first.debit.id);
    expect(await balanceOf(t, follower)).toBe('50.00000000');
    expect(await balanceOf(t, leader)).toBe('100.00000000');
    await delivered();
    expect(
      seen
        .filter((e) => [follower.id, leader.id].includes(e.payload.userId))
        .map((e) => e.payload.balance),
    ).toEqual(['50.00000000', '100.00000000']);
  });

  it('refuses a follower who cannot pay, writing nothing', async () => {
    const { ledger } = ledgerWithEvents();
    const { follower, leader } = await pair('99.99');
    await expect(ledger.transfer(copyFee(follower.id, leader.id, 'r2'))).rejects.toBeInstanceOf(
      InsufficientBalance,
    );
    expect((await rowsOf(follower.id)).map((r) => r.type)).toEqual(['adjustment']);
    expect(await rowsOf(leader.id)).toEqual([]);
  });

  it("runs inside the caller's transaction: rolled back with it, announced only by the caller", async () => {
    const { ledger, seen, delivered } = ledgerWithEvents();
    const { follower, leader } = await pair();
    await expect(
      t.database.db.transaction(async (tx) => {
        const receipt = await ledger.transfer(copyFee(follower.id, leader.id, 'r3'), tx);
        expect(receipt.applied).toBe(true);
        expect(receipt.changes.map((c) => c.userId)).toEqual([follower.id, leader.id]);
        throw new Error('the copy relation could not be created');
      }),
    ).rejects.toThrow(/could not be created/);
    await delivered();
    expect(seen.filter((e) => e.payload.userId === leader.id)).toEqual([]);
    expect(await balanceOf(t, follower)).toBe('150.00000000');
    expect(await rowsOf(leader.id)).toEqual([]);

    // Committed: the caller announces after its commit.
    const receipt = await t.database.db.transaction((tx) =>
      ledger.transfer(copyFee(follower.id, leader.id, 'r3'), tx),
    );
    await ledger.announce(receipt.changes);
    await delivered();
    expect(
      seen.filter((e) => e.payload.userId === leader.id).map((e) => e.payload.balance),
    ).toEqual(['100.00000000']);
  });

  it('ledger.transaction lets the caller write its own rows with the same transaction', async () => {
    const { ledger } = ledgerWithEvents();
    const { follower, leader } = await pair();
    await ledger.transaction(async (ops, tx) => {
      await ops.transfer(copyFee(follower.id, leader.id, 'r4'));
      // The caller's own write in the same transaction (here: a nickname).
      await tx.update(users).set({ nickname: 'copying' }).where(eq(users.id, follower.id));
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, follower.id));
    expect(row).toMatchObject({ nickname: 'copying' });
    const [held] = await t.database.db
      .select()
      .from(walletBalances)
      .where(eq(walletBalances.userId, follower.id));
    expect(held?.balance).toBe('50.00000000');
  });

  it('20 concurrent transfers with one business key move the fee once', async () => {
    const { ledger } = ledgerWithEvents();
    const { follower, leader } = await pair('1000');
    const receipts = await Promise.all(
      Array.from({ length: 20 }, () => ledger.transfer(copyFee(follower.id, leader.id, 'r5'))),
    );
    expect(receipts.filter((r) => r.applied)).toHaveLength(1);
    expect(await balanceOf(t, follower)).toBe('900.00000000');
    expect(await balanceOf(t, leader)).toBe('100.00000000');
  });

  it('transfers both ways at once neither deadlock nor lose a coin', async () => {
    const { ledger } = ledgerWithEvents();
    const a = await newUser(t);
    const b = await newUser(t);
    await adjust(t, a.email, '1000');
    await adjust(t, b.email, '1000');
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        ledger.transfer({
          ...copyFee(i % 2 ? a.id : b.id, i % 2 ? b.id : a.id, `both-${i}`),
          amount: 10,
        }),
      ),
    );
    expect(await balanceOf(t, a)).toBe('1000.00000000');
    expect(await balanceOf(t, b)).toBe('1000.00000000');
    const [count] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.type, 'copy_fee'),
          sql`${walletTransactions.businessKey} like 'copy_fee:both-%'`,
        ),
      );
    expect(count?.n).toBe(60);
  }, 120_000);

  it('refuses a transfer to oneself and types that move the other way', async () => {
    const { ledger } = ledgerWithEvents();
    const { follower, leader } = await pair();
    await expect(ledger.transfer(copyFee(follower.id, follower.id, 'self'))).rejects.toThrow();
    await expect(
      ledger.transfer({ ...copyFee(follower.id, leader.id, 'wrong'), debitType: 'deposit' }),
    ).rejects.toThrow(/not a debit/);
    expect(await balanceOf(t, follower)).toBe('150.00000000');
  });
});

describe('ledger balances of users who never held coins', () => {
  // A user has no balance row until the wallet first moves or locks theirs.
  const heldRows = (userId: number) =>
    t.database.db.select().from(walletBalances).where(eq(walletBalances.userId, userId));

  it('refuses a debit, writing no row and no balance', async () => {
    const { ledger } = ledgerWithEvents();
    const user = await newUser(t, { prefix: 'never' });
    await expect(
      ledger.transaction((ops) =>
        ops.debit({ userId: user.id, type: 'bot_fee', amount: 1, businessKey: `fee:${user.id}` }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await rowsOf(user.id)).toEqual([]);
    expect(await heldRows(user.id)).toEqual([]);
    expect(await balanceOf(t, user)).toBe('0.00000000');
  });

  it('20 concurrent first credits and locks make one row holding their sum', async () => {
    const { ledger } = ledgerWithEvents();
    const user = await newUser(t, { prefix: 'first' });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? ledger.transaction((ops) =>
              ops.credit({
                userId: user.id,
                type: 'deposit',
                amount: '0.5',
                businessKey: `deposit:first-${user.id}-${i}`,
              }),
            )
          : ledger.transaction((ops) => ops.lock([user.id])),
      ),
    );
    expect(await heldRows(user.id)).toEqual([{ userId: user.id, balance: '5.00000000' }]);
    expect(await balanceOf(t, user)).toBe('5.00000000');
  });
});
