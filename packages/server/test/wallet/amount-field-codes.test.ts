// Bad amounts are refused with the rule they broke (field_codes), and nothing is saved: a
// webhook configuration's default amount, a deposit and a copy amount (the issue: -100 became
// 10 USDT, -5 became 0.00, 1500.555 was 'cannot be less than 10').
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { copyRelations, walletTransactions, webhookConfigs } from '../../src/db/schema/index.js';
import { copier, createCopy, leader } from '../copy-trading/copy-fixture.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { newUser, useLedgerCheck } from '../helpers/wallet-flows.js';

const t = useTestApp({ env: { MARKET_DATA: 'simulated' } });
useLedgerCheck(t);

type ErrorBody = { code: string; field_codes: Record<string, string[]> };

describe('a bad amount answers the rule it broke and saves nothing', () => {
  it('for a webhook configuration’s default amount', async () => {
    const user = await newUser(t);
    const accounts = await call<{ results: { id: number }[] }>(t.app, 'GET', '/api/auth/apis/', {
      token: user.access,
    });
    const base = { name: 'TV', exchange_api: accounts.body.results[0]!.id, symbol: 'BTCUSDT.P' };
    for (const [amount, rule] of [
      [-100, 'too_small'],
      ['-100', 'too_small'],
      [0, 'too_small'],
      [5, 'too_small'],
      [1500.555, 'invalid_step'],
      ['ten', 'invalid_format'],
    ] as const) {
      const res = await call<ErrorBody>(t.app, 'POST', '/api/webhook-trading/configs/', {
        token: user.access,
        body: { ...base, default_amount: amount },
      });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.field_codes, String(amount)).toEqual({ default_amount: [rule] });
    }
    const saved = await t.database.db
      .select()
      .from(webhookConfigs)
      .where(eq(webhookConfigs.userId, user.id));
    expect(saved).toHaveLength(0);
  });

  it('for a deposit', async () => {
    const user = await newUser(t);
    const deposit = (amount: unknown) =>
      call<ErrorBody>(t.app, 'POST', '/api/auth/deposit/', {
        token: user.access,
        body: { network: 'OFFCHAIN', amount, offchain_reference: 'bank-ref-1' },
      });
    for (const [amount, rule] of [
      [-5, 'too_small'],
      ['-5', 'too_small'],
      // Zero passes the amount's shape and is below every network's minimum.
      [0, 'below_minimum_deposit'],
      ['1.555', 'invalid_step'],
      ['5e3', 'invalid_format'],
    ] as const) {
      const res = await deposit(amount);
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.field_codes, String(amount)).toEqual({ amount: [rule] });
    }
    const rows = await t.database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('for a copy amount', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '500');
    for (const [amount, rule] of [
      [1500.555, 'invalid_step'],
      ['1500.555', 'invalid_step'],
      [-5, 'too_small'],
      [5, 'too_small'],
    ] as const) {
      const res = await createCopy(t.app, follower.access, {
        leader_account_id: lead.accountId,
        follower_account_id: follower.accountId,
        copy_amount: amount,
      });
      expect(res.status, String(amount)).toBe(400);
      expect((res.body as ErrorBody).field_codes, String(amount)).toEqual({
        copy_amount: [rule],
      });
    }
    const rows = await t.database.db
      .select()
      .from(copyRelations)
      .where(eq(copyRelations.followerUserId, follower.id));
    expect(rows).toHaveLength(0);
  });
});
