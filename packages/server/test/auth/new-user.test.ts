// A new user: a registration code without `action` (issue 8, item 10) and the paper experience
// account every new user gets (item 18).
import type { AccountsOverviewResponse, ExchangeApiList } from '@quantsquare/contracts';
import { EXPERIENCE_ACCOUNT_BALANCE } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exchangeAccounts } from '../../src/db/schema/index.js';
import {
  latestCode,
  PASSWORD,
  registerEmail,
  registerPhone,
  uniqueEmail,
  uniquePhone,
} from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('POST /api/auth/send-code/ without action', () => {
  it('sends a registration code, as the spec client asks only login codes by name', async () => {
    const phone = uniquePhone();
    const sent = await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone },
    });
    expect(sent.status).toBe(200);
    const code = await latestCode(ctx.app, phone);
    const registered = await call(ctx.app, 'POST', '/api/auth/phone-register/', {
      body: { phone, code, password: PASSWORD, password2: PASSWORD },
    });
    expect(registered.status).toBe(201);
  });

  it('refuses it for a phone that is already registered', async () => {
    const phone = uniquePhone();
    await registerPhone(ctx.app, ctx.clock, phone);
    ctx.clock.advanceSeconds(61);
    const res = await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'phone_already_registered',
      error: 'Phone number already registered',
    });
  });

  it("still sends login codes when asked with action 'login'", async () => {
    const phone = uniquePhone();
    await registerPhone(ctx.app, ctx.clock, phone);
    ctx.clock.advanceSeconds(61);
    const res = await call(ctx.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone, action: 'login' },
    });
    expect(res.status).toBe(200);
  });
});

describe('the experience account', () => {
  const experienceOf = async (token: string) => {
    const list = await call<ExchangeApiList>(ctx.app, 'GET', '/api/auth/apis/', { token });
    return list.body.results.filter((account) => account.is_experience);
  };

  it('comes with every e-mail registration: paper, 10,000 virtual USDT, flagged', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('welcome'));
    const [account, ...more] = await experienceOf(session.access);
    expect(more).toEqual([]);
    expect(account).toMatchObject({
      is_experience: true,
      is_paper: true,
      paper_balance: String(EXPERIENCE_ACCOUNT_BALANCE),
      is_active: true,
      api_key: null,
      bots: [],
    });
    const overview = await call<AccountsOverviewResponse>(
      ctx.app,
      'GET',
      '/api/trading/accounts/',
      {
        token: session.access,
      },
    );
    expect(overview.body.accounts).toHaveLength(1);
    expect(overview.body.accounts[0]).toMatchObject({
      is_experience: true,
      balance: { total: '10000', free: '10000', used: '0' },
      daily_pnl: '0',
    });
    // Its first snapshot is its day start.
    expect(overview.body.accounts[0]?.snapshots).toEqual([
      expect.objectContaining({ balance: '10000', daily_pnl: '0' }),
    ]);
  });

  it('comes with every phone registration', async () => {
    const session = await registerPhone(ctx.app, ctx.clock, uniquePhone());
    expect(await experienceOf(session.access)).toHaveLength(1);
  });

  it('is created with the user only: a refused registration leaves no account behind', async () => {
    const email = uniqueEmail('twice');
    await registerEmail(ctx.app, email);
    const before = await ctx.database.db.select().from(exchangeAccounts);
    const again = await call(ctx.app, 'POST', '/api/auth/register/', {
      body: { email, password: PASSWORD, password2: PASSWORD },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ field_codes: { email: ['email_taken'] } });
    expect(await ctx.database.db.select().from(exchangeAccounts)).toHaveLength(before.length);
  });

  it('belongs to its user, who may delete it', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('delete-exp'));
    const [account] = await experienceOf(session.access);
    const rows = await ctx.database.db
      .select()
      .from(exchangeAccounts)
      .where(eq(exchangeAccounts.id, account?.id ?? 0));
    expect(rows[0]?.userId).toBe(Number(session.user.id));
    const deleted = await call(ctx.app, 'DELETE', `/api/auth/apis/${account?.id}/`, {
      token: session.access,
    });
    expect(deleted.status).toBe(200);
    expect(await experienceOf(session.access)).toEqual([]);
  });
});
