import { accountOverview, accountsOverviewResponse } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/common/secret-box.js';
import { users } from '../../src/db/schema/index.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createTestAccountServices } from '../helpers/account-services.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { FixedPrices, scriptedClient, scriptedFactory } from '../helpers/exchange-doubles.js';
import { testPaperClient } from '../helpers/paper-client.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

const BTC = 'BTC/USDT:USDT';
const prices = new FixedPrices();
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: (deps) => scriptedFactory(deps, prices),
});

let token: string;
let paperId: number;
let downId: number;
let liveId: number;

beforeAll(async () => {
  prices.set(BTC, 1000);
  token = (await registerEmail(ctx.app, uniqueEmail('overview'))).access;
  const make = async (body: Record<string, unknown>) =>
    Number((await call(ctx.app, 'POST', '/api/auth/apis/', { token, body })).body.id);
  paperId = await make({
    name: 'Paper',
    exchange: 'binance',
    is_paper: true,
    default_leverage: 10,
    position_mode: 'net',
  });
  downId = await make({
    name: 'Down',
    exchange: 'binance',
    api_key: 'down-key-0000001',
    api_secret: 'secret',
    default_leverage: 3,
  });
  liveId = await make({
    name: 'Live',
    exchange: 'okx',
    api_key: 'good-key-0000001',
    api_secret: 'secret',
    api_password: 'pass',
    default_leverage: 5,
  });
});

describe('GET /api/trading/accounts/', () => {
  it('answers every account; a failing one carries its error while the others load', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/accounts/', { token });
    expect(res.status).toBe(200);
    const body = accountsOverviewResponse.parse(res.body);
    // The user's own accounts after the experience account every new user gets.
    expect(body.accounts[0]).toMatchObject({ is_experience: true, is_active: true });
    const own = body.accounts.filter((a) => !a.is_experience);
    expect(own.map((a) => a.id)).toEqual([paperId, downId, liveId]);
    const [paper, down, live] = own;
    expect(paper).toMatchObject({
      name: 'Paper',
      is_paper: true,
      balance: { total: '10000', free: '10000', used: '0' },
      daily_pnl: '0',
      default_leverage: 10,
      positions: [],
      error: null,
    });
    expect(down).toMatchObject({ balance: null, positions: [], daily_pnl: '0' });
    expect(down?.error).toMatch(/^Exchange unavailable, try again later/);
    expect(live).toMatchObject({
      balance: { total: '500', free: '400', used: '100' },
      error: null,
    });
    // The experience account, the paper one and the live one.
    expect(body.total.balance).toBe('20500');
    // The failing account is not active, says its error's kind, and is not counted.
    expect(down).toMatchObject({ is_active: false, is_enabled: true, error_kind: 'unavailable' });
    expect(live).toMatchObject({ is_active: true, error_kind: null });
    expect(body.total.active_count).toBe(3);
  });

  it('shows open positions with unrealised P&L and the daily P&L since the day start', async () => {
    // A paper order through the same client the app uses.
    const client = testPaperClient({
      paperBalances: writePaperBalances,
      db: ctx.database.db,
      clock: ctx.clock,
      prices,
      accountId: paperId,
      exchange: 'binance',
      slippageBps: 0,
    });
    await client.createOrder({
      symbol: BTC,
      side: 'buy',
      type: 'market',
      amount: 2,
      clientOrderId: 'ov-1',
    });
    prices.set(BTC, 1100);
    const res = await call(ctx.app, 'GET', '/api/trading/accounts/', { token });
    const body = accountsOverviewResponse.parse(res.body);
    const paper = body.accounts.find((a) => a.id === paperId);
    expect(paper?.positions).toEqual([
      {
        id: `${paperId}:${BTC}:long`,
        symbol: BTC,
        side: 'long',
        pnl: '200',
        contracts: 2,
        entry_price: '1000',
        mark_price: '1100',
        leverage: 10,
      },
    ]);
    // Equity 10,000 - fee 1 + 200 against the creation snapshot of 10,000.
    expect(paper?.daily_pnl).toBe('199');
    expect(paper?.daily_pnl_percent).toBe(1.99);
    expect(paper?.snapshots).toEqual([
      { time: ctx.clock.now().toISOString(), balance: '10000', daily_pnl: '0' },
    ]);
    expect(body.total.daily_pnl).toBe('199');
  });

  it('answers an empty overview for a user whose experience account was deleted', async () => {
    const other = (await registerEmail(ctx.app, uniqueEmail('empty'))).access;
    const listed = await call<{ results: { id: number }[] }>(ctx.app, 'GET', '/api/auth/apis/', {
      token: other,
    });
    for (const account of listed.body.results) {
      await call(ctx.app, 'DELETE', `/api/auth/apis/${account.id}/`, { token: other });
    }
    const res = await call(ctx.app, 'GET', '/api/trading/accounts/', { token: other });
    expect(res.body).toEqual({
      accounts: [],
      total: { balance: '0', daily_pnl: '0', daily_pnl_percent: 0, active_count: 0 },
    });
  });
});

describe('POST /api/trading/accounts/{id}/refresh/', () => {
  it('answers that one account', async () => {
    const res = await call(ctx.app, 'POST', `/api/trading/accounts/${liveId}/refresh/`, { token });
    expect(res.status).toBe(200);
    expect(accountOverview.parse(res.body)).toMatchObject({
      id: liveId,
      balance: { total: '500' },
    });
    const down = await call(ctx.app, 'POST', `/api/trading/accounts/${downId}/refresh/`, { token });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ id: downId, balance: null });
  });
});

describe('an account that does not answer', () => {
  it('answers its timeout as its own error while the others load', async () => {
    const [user] = await ctx.database.db
      .insert(users)
      .values({
        username: 'slow@example.com',
        passwordHash: 'x',
        invitationCode: 'SLOW01',
        dateJoined: ctx.clock.now(),
      })
      .returning();
    // The healthy account answers at once (no database work), so the 50 ms budget below only
    // ever cuts off the account that never answers, however loaded the machine is.
    const never = new Promise<never>(() => undefined);
    const services = createTestAccountServices({
      db: ctx.database.db,
      clock: ctx.clock,
      secretBox: createSecretBox(TEST_SECRET_KEY),
      factory: (account) =>
        account.apiKey?.startsWith('slow')
          ? { ...scriptedClient(account.exchange, {}), fetchBalance: () => never }
          : scriptedClient(account.exchange, {}),
      log: { warn: () => undefined },
      exchangeTimeoutMs: 50,
      accountTimeoutMs: 50,
    });
    const base = {
      exchange: 'binance' as const,
      account_type: 'classic' as const,
      is_testnet: false,
      position_mode: 'hedge' as const,
      default_leverage: 1,
      is_active: true,
    };
    await services.exchangeAccounts.create(user!.id, {
      ...base,
      name: 'Slow',
      is_paper: false,
      api_key: 'slow-key-123456',
      api_secret: 's',
    });
    await services.exchangeAccounts.create(user!.id, {
      ...base,
      name: 'Quick',
      is_paper: false,
      api_key: 'quick-key-123456',
      api_secret: 's',
    });
    const overview = await services.accounts.overview(user!.id);
    expect(overview.accounts.map((a) => [a.name, a.balance?.total ?? null, a.error])).toEqual([
      ['Slow', null, 'Exchange unavailable, try again later: No answer within 50 ms'],
      ['Quick', '500', null],
    ]);
    expect(overview.total.balance).toBe('500');
  });
});
