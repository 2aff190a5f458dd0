// Concurrency of the ledger on one balance (run on PostgreSQL in CI: TEST_DATABASE_URL). Every
// request is in flight at once; the database decides the order.
import Decimal from 'decimal.js';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { staffDecisions, walletTransactions } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  adjust,
  adminFor,
  balanceOf,
  newStaff,
  newUser,
  TRC20_ADDRESS,
  trc20Hash,
  useLedgerCheck,
} from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

/** A seeded generator, so a failing mix can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('concurrent debits on one balance', () => {
  it('1,000 withdrawals, VIP purchases and support debits at once: no overdraft, every answer 200/201 or 400', async () => {
    const user = await newUser(t);
    const initial = new Decimal('3000');
    await adjust(t, user.email, initial.toFixed(2));
    const admin = adminFor(t);
    const random = seeded(20260115);

    type Outcome = { kind: string; ok: boolean; status: number };
    const operations: (() => Promise<Outcome>)[] = [];
    for (let i = 0; i < 1000; i++) {
      const pick = random();
      const amount = (2 + Math.floor(random() * 2800) / 100).toFixed(2);
      if (pick < 0.45) {
        operations.push(async () => {
          const res = await call(t.app, 'POST', '/api/auth/withdraw/', {
            token: user.access,
            body: { amount, address: TRC20_ADDRESS, network: 'TRC20' },
          });
          return { kind: 'withdraw', ok: res.status === 201, status: res.status };
        });
      } else if (pick < 0.75) {
        operations.push(async () => {
          const res = await call(t.app, 'POST', '/api/auth/purchase-vip/', {
            token: user.access,
            body: { request_id: `vip-${i}` },
          });
          return { kind: 'vip', ok: res.status === 200, status: res.status };
        });
      } else {
        operations.push(async () => {
          try {
            await admin.run({
              command: 'credit',
              email: user.email,
              amount: `-${amount}`,
              reason: 'concurrency',
            });
            return { kind: 'credit', ok: true, status: 200 };
          } catch (error) {
            expect(String(error)).toMatch(/Refused/);
            return { kind: 'credit', ok: false, status: 400 };
          }
        });
      }
    }

    const outcomes = await Promise.all(operations.map((run) => run()));
    for (const outcome of outcomes) {
      expect(outcome.ok ? [200, 201] : [400], outcome.kind).toContain(outcome.status);
    }
    const rows = await t.database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, user.id));
    const debited = rows
      .filter((r) => r.direction === 'debit')
      .reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
    const final = new Decimal(await balanceOf(t, user));
    expect(final.gte(0)).toBe(true);
    expect(debited.lte(initial)).toBe(true);
    expect(final.toFixed(8)).toBe(initial.minus(debited).toFixed(8));
    // Every accepted request left exactly one debit row; refused ones none.
    const accepted = outcomes.filter((o) => o.ok).length;
    expect(rows.filter((r) => r.direction === 'debit')).toHaveLength(accepted);
    // The demand was far above the balance: most of it went, the rest was refused.
    expect(outcomes.some((o) => !o.ok)).toBe(true);
    expect(final.lt(100)).toBe(true);
  }, 300_000);
});

describe('concurrent staff decisions', () => {
  it('50 approvals of one deposit by two staff at once credit it once', async () => {
    const staffA = await newStaff(t);
    const staffB = await newStaff(t);
    const user = await newUser(t);
    const deposit = await call<{ transaction: { id: number } }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      {
        token: user.access,
        body: { amount: 75, network: 'TRC20', tx_hash: trc20Hash() },
      },
    );
    const id = deposit.body.transaction.id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, {
          token: (i % 2 ? staffA : staffB).access,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await balanceOf(t, user)).toBe('75.00000000');
    const decisions = await t.database.db
      .select()
      .from(staffDecisions)
      .where(eq(staffDecisions.transactionId, id));
    expect(decisions).toHaveLength(1);
  }, 120_000);

  it('an approval racing a rejection of one deposit ends in exactly one of them', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    const deposit = await call<{ transaction: { id: number } }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      {
        token: user.access,
        body: { amount: 20, network: 'TRC20', tx_hash: trc20Hash() },
      },
    );
    const id = deposit.body.transaction.id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? call(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, { token: staff.access })
          : call(t.app, 'POST', `/api/staff/deposits/${id}/reject/`, {
              token: staff.access,
              body: { reason: 'race' },
            }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const status = (winners[0]?.body as { status?: string } | undefined)?.status;
    expect(await balanceOf(t, user)).toBe(status === 'completed' ? '20.00000000' : '0.00000000');
  }, 120_000);

  it('failing a withdrawal many times at once refunds it once', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    await adjust(t, user.email, '50');
    const request = await call<{ transaction: { id: number } }>(
      t.app,
      'POST',
      '/api/auth/withdraw/',
      {
        token: user.access,
        body: { amount: 50, network: 'TRC20', address: TRC20_ADDRESS },
      },
    );
    const id = request.body.transaction.id;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call(t.app, 'POST', `/api/staff/withdrawals/${id}/fail/`, {
          token: staff.access,
          body: { reason: 'race' },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await balanceOf(t, user)).toBe('50.00000000');
  }, 120_000);
});

describe('concurrent VIP purchases', () => {
  it('20 purchases by an invitee at once: one per request id, one referral bonus', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const invitee = await newUser(t, { invitationCode: String(inviter.user.invitation_code) });
    await adjust(t, invitee.email, '1000');
    const requestIds = ['a', 'b', 'c', 'd', 'e'];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call<{ price_paid: string; vip_expires_at: string }>(
          t.app,
          'POST',
          '/api/auth/purchase-vip/',
          { token: invitee.access, body: { request_id: requestIds[i % requestIds.length] } },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.body.price_paid === '100.00000000')).toBe(true);
    const purchases = await t.database.db
      .select()
      .from(walletTransactions)
      .where(
        and(eq(walletTransactions.userId, invitee.id), eq(walletTransactions.type, 'vip_purchase')),
      );
    expect(purchases).toHaveLength(5);
    expect(await balanceOf(t, invitee)).toBe('500.00000000');
    const bonuses = await t.database.db
      .select()
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.userId, inviter.id),
          eq(walletTransactions.type, 'referral_bonus'),
        ),
      );
    expect(bonuses).toHaveLength(1);
    expect(await balanceOf(t, inviter)).toBe('50.00000000');
    const latest = Math.max(...answers.map((a) => new Date(a.body.vip_expires_at).getTime()));
    expect(latest).toBe(t.clock.now().getTime() + 5 * 365 * 24 * 60 * 60 * 1000);
  }, 120_000);
});
