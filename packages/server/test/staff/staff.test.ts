import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { staffDecisions } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  adjust,
  balanceOf,
  bep20Hash,
  newStaff,
  newUser,
  TRC20_ADDRESS,
  trc20Hash,
  useLedgerCheck,
  type WalletUser,
} from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

type Item = {
  id: number;
  status: string;
  user_id: number;
  user_email: string;
  tx_hash: string | null;
  note: string | null;
  decisions: {
    action: string;
    staff_email: string;
    from_status: string;
    to_status: string;
    reason: string | null;
    tx_hash: string | null;
  }[];
};
type Queue = { results: Item[]; count: number; page: number; page_size: number };

async function requestDeposit(user: WalletUser, amount = 40): Promise<number> {
  const res = await call<{ transaction: { id: number } }>(t.app, 'POST', '/api/auth/deposit/', {
    token: user.access,
    body: { amount, network: 'TRC20', tx_hash: trc20Hash() },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.transaction.id;
}

async function requestWithdrawal(
  user: WalletUser,
  amount = 30,
  network = 'TRC20',
): Promise<number> {
  const res = await call<{ transaction: { id: number } }>(t.app, 'POST', '/api/auth/withdraw/', {
    token: user.access,
    body: { amount, network, address: network === 'TRC20' ? TRC20_ADDRESS : `0x${'b'.repeat(40)}` },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.transaction.id;
}

describe('staff access', () => {
  it('answers 401 without a token and 403 to users who are not staff', async () => {
    const user = await newUser(t);
    const id = await requestDeposit(user);
    for (const [method, url, body] of [
      ['GET', '/api/staff/deposits/', undefined],
      ['GET', '/api/staff/withdrawals/', undefined],
      ['POST', `/api/staff/deposits/${id}/approve/`, undefined],
      ['POST', `/api/staff/deposits/${id}/reject/`, { reason: 'x' }],
      ['POST', `/api/staff/withdrawals/${id}/processing/`, undefined],
      ['POST', `/api/staff/withdrawals/${id}/complete/`, { tx_hash: trc20Hash() }],
      ['POST', `/api/staff/withdrawals/${id}/fail/`, { reason: 'x' }],
    ] as const) {
      expect((await call(t.app, method, url, { body })).status, url).toBe(401);
      expect((await call(t.app, method, url, { body, token: user.access })).status, url).toBe(403);
    }
    expect(await balanceOf(t, user)).toBe('0.00000000');
  });
});

describe('four eyes', () => {
  it('refuses a staff user deciding their own deposit or withdrawal', async () => {
    const staff = await newStaff(t);
    const colleague = await newStaff(t);
    const deposit = await requestDeposit(staff, 15);
    const own = await call(t.app, 'POST', `/api/staff/deposits/${deposit}/approve/`, {
      token: staff.access,
    });
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({
      error: 'Staff cannot decide their own requests; another staff member must',
    });
    expect(await balanceOf(t, staff)).toBe('0.00000000');
    expect(
      (
        await call(t.app, 'POST', `/api/staff/deposits/${deposit}/approve/`, {
          token: colleague.access,
        })
      ).status,
    ).toBe(200);
    const withdrawal = await requestWithdrawal(staff, 15);
    expect(
      (
        await call(t.app, 'POST', `/api/staff/withdrawals/${withdrawal}/fail/`, {
          token: staff.access,
          body: { reason: 'mine' },
        })
      ).status,
    ).toBe(403);
    expect(await balanceOf(t, staff)).toBe('0.00000000');
  });
});

describe('deposit review', () => {
  it('lists pending deposits with the user e-mail, oldest first, paged', async () => {
    const staff = await newStaff(t);
    const a = await newUser(t);
    const first = await requestDeposit(a, 10);
    const second = await requestDeposit(a, 11);
    const res = await call<Queue>(
      t.app,
      'GET',
      '/api/staff/deposits/?status=pending&page_size=100',
      {
        token: staff.access,
      },
    );
    expect(res.status).toBe(200);
    const ids = res.body.results.map((r) => r.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(res.body.results.find((r) => r.id === first)).toMatchObject({
      user_id: a.id,
      user_email: a.email,
      status: 'pending',
      decisions: [],
    });
    const page = await call<Queue>(t.app, 'GET', '/api/staff/deposits/?page=1&page_size=1', {
      token: staff.access,
    });
    expect(page.body.results).toHaveLength(1);
    expect(page.body.count).toBe(res.body.count);
    for (const query of ['status=done', 'page=0', 'page_size=500', 'type=withdraw']) {
      expect(
        (await call(t.app, 'GET', `/api/staff/deposits/?${query}`, { token: staff.access })).status,
      ).toBe(400);
    }
  });

  it('approves a deposit once: the user is credited and the decision names the staff user', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    const id = await requestDeposit(user, 40);
    const res = await call<Item>(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, {
      token: staff.access,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'completed',
      decisions: [
        {
          action: 'approve',
          staff_email: staff.email,
          from_status: 'pending',
          to_status: 'completed',
        },
      ],
    });
    expect(await balanceOf(t, user)).toBe('40.00000000');
    const again = await call(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, {
      token: staff.access,
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'not_pending' });
    const reject = await call(t.app, 'POST', `/api/staff/deposits/${id}/reject/`, {
      token: staff.access,
      body: { reason: 'too late' },
    });
    expect(reject.status).toBe(409);
    expect(await balanceOf(t, user)).toBe('40.00000000');
    const completed = await call<Queue>(
      t.app,
      'GET',
      '/api/staff/deposits/?status=completed&page_size=100',
      {
        token: staff.access,
      },
    );
    expect(completed.body.results.map((r) => r.id)).toContain(id);
  });

  it('rejects a deposit with a reason the user sees; nothing is credited', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    const id = await requestDeposit(user);
    const missing = await call(t.app, 'POST', `/api/staff/deposits/${id}/reject/`, {
      token: staff.access,
      body: { reason: '   ' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ fields: { reason: ['A reason is required'] } });
    expect(
      (await call(t.app, 'POST', `/api/staff/deposits/${id}/reject/`, { token: staff.access }))
        .status,
    ).toBe(400);
    const res = await call<Item>(t.app, 'POST', `/api/staff/deposits/${id}/reject/`, {
      token: staff.access,
      body: { reason: 'No such transfer on chain' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', note: 'No such transfer on chain' });
    const mine = await call<{ transactions: Item[] }>(t.app, 'GET', '/api/auth/balance/', {
      token: user.access,
    });
    expect(mine.body.transactions[0]).toMatchObject({
      id,
      status: 'failed',
      note: 'No such transfer on chain',
    });
    expect(await balanceOf(t, user)).toBe('0.00000000');
  });

  it('answers 404 for an unknown id or a withdrawal id on the deposit routes', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    await adjust(t, user.email, '50');
    const withdrawal = await requestWithdrawal(user);
    for (const id of [999_999, withdrawal]) {
      expect(
        (await call(t.app, 'POST', `/api/staff/deposits/${id}/approve/`, { token: staff.access }))
          .status,
      ).toBe(404);
    }
    expect(
      (await call(t.app, 'POST', '/api/staff/deposits/abc/approve/', { token: staff.access }))
        .status,
    ).toBe(400);
    expect(await balanceOf(t, user)).toBe('20.00000000');
  });
});

describe('withdrawal review', () => {
  it('moves a withdrawal to processing, then completes it with the payout hash', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    await adjust(t, user.email, '100');
    const id = await requestWithdrawal(user, 30);
    const queue = await call<Queue>(t.app, 'GET', '/api/staff/withdrawals/?page_size=100', {
      token: staff.access,
    });
    expect(queue.body.results.find((r) => r.id === id)).toMatchObject({
      user_email: user.email,
      status: 'pending',
    });
    const processing = await call<Item>(t.app, 'POST', `/api/staff/withdrawals/${id}/processing/`, {
      token: staff.access,
    });
    expect(processing.body.status).toBe('processing');
    const badHash = await call(t.app, 'POST', `/api/staff/withdrawals/${id}/complete/`, {
      token: staff.access,
      body: { tx_hash: bep20Hash() },
    });
    expect(badHash.status).toBe(400);
    expect(badHash.body).toMatchObject({
      fields: { tx_hash: ['Invalid transaction hash for this network'] },
    });
    const hash = trc20Hash();
    const done = await call<Item>(t.app, 'POST', `/api/staff/withdrawals/${id}/complete/`, {
      token: staff.access,
      body: { tx_hash: hash.toUpperCase() },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', tx_hash: hash });
    expect(done.body.decisions.map((d) => [d.action, d.from_status, d.to_status])).toEqual([
      ['processing', 'pending', 'processing'],
      ['complete', 'processing', 'completed'],
    ]);
    expect(await balanceOf(t, user)).toBe('70.00000000');
    const fail = await call(t.app, 'POST', `/api/staff/withdrawals/${id}/fail/`, {
      token: staff.access,
      body: { reason: 'oops' },
    });
    expect(fail.status).toBe(409);
    expect(await balanceOf(t, user)).toBe('70.00000000');
  });

  it('fails a withdrawal with a reason and refunds the whole amount, once', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    await adjust(t, user.email, '100');
    const id = await requestWithdrawal(user, 30, 'BEP20');
    expect(await balanceOf(t, user)).toBe('70.00000000');
    const res = await call<Item>(t.app, 'POST', `/api/staff/withdrawals/${id}/fail/`, {
      token: staff.access,
      body: { reason: 'Address blacklisted' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      note: 'Address blacklisted',
      decisions: [{ action: 'fail', reason: 'Address blacklisted', staff_email: staff.email }],
    });
    expect(await balanceOf(t, user)).toBe('100.00000000');
    expect(
      (
        await call(t.app, 'POST', `/api/staff/withdrawals/${id}/fail/`, {
          token: staff.access,
          body: { reason: 'x' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call(t.app, 'POST', `/api/staff/withdrawals/${id}/processing/`, {
          token: staff.access,
        })
      ).status,
    ).toBe(409);
    expect(await balanceOf(t, user)).toBe('100.00000000');
    const rows = await t.database.db
      .select()
      .from(staffDecisions)
      .where(eq(staffDecisions.transactionId, id));
    expect(rows).toHaveLength(1);
    const failed = await call<Queue>(t.app, 'GET', '/api/staff/withdrawals/?status=failed', {
      token: staff.access,
    });
    expect(failed.body.results[0]?.id).toBe(id);
  });

  it('answers 404 for a deposit id on the withdrawal routes', async () => {
    const staff = await newStaff(t);
    const user = await newUser(t);
    const deposit = await requestDeposit(user);
    expect(
      (
        await call(t.app, 'POST', `/api/staff/withdrawals/${deposit}/fail/`, {
          token: staff.access,
          body: { reason: 'x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(t.app, 'POST', `/api/staff/withdrawals/${deposit}/complete/`, {
          token: staff.access,
          body: { tx_hash: trc20Hash() },
        })
      ).status,
    ).toBe(404);
  });
});
