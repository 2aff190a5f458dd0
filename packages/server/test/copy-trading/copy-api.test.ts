// Copy trading over HTTP (document 2 §1, §4, §7, §8, §9; issue 12): creating a relation and each
// refusal, the 100-coin fee in the ledger, the square's counters, the state machine and
// ownership.
import { COPY_ERROR_CODES, COPY_MESSAGES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { copyRelations, walletTransactions } from '../../src/db/schema/index.js';
import { startFakeExchange } from '../exchange/fake-exchange-private.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { balanceOf, useLedgerCheck } from '../helpers/wallet-flows.js';
import { COPY, copier, createCopy, leader } from './copy-fixture.js';

// Live accounts go to a local fake of Binance (the app's own client factory, URL override).
const binance = await startFakeExchange({ exchange: 'binance' });
afterAll(() => binance.close());
const t = useTestApp({ env: { MARKET_DATA: 'simulated', EXCHANGE_URL_BINANCE: binance.url } });
useLedgerCheck(t);

const detail = (id: number, token?: string) =>
  call<{ is_copying: boolean; share_settings: { copiers_count: number } }>(
    t.app,
    'GET',
    `/api/strategy-square/strategies/${id}/`,
    { token },
  );

describe('creating a copy relation', () => {
  it('charges 100 coins to the follower, credits the leader and counts the copier', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '250');
    expect((await detail(lead.accountId, follower.access)).body.is_copying).toBe(false);

    const res = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
      copy_mode: 'reverse',
      max_loss: '50',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      leader_account_id: lead.accountId,
      leader_account_name: 'Leader',
      follower_account_id: follower.accountId,
      copy_amount: '100',
      max_loss: '50',
      copy_mode: 'reverse',
      is_cross_exchange: false,
      status: 'active',
      fee_paid: '100',
      follower_user: follower.id,
      follower_email: null,
      total_copied_trades: 0,
    });
    expect(Number(await balanceOf(t, follower))).toBe(150);
    expect(Number(await balanceOf(t, lead))).toBe(100);

    const rows = await t.database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.businessKey, `copy_fee:${res.body.id}`));
    expect(rows).toMatchObject([
      { userId: follower.id, type: 'copy_fee', direction: 'debit', status: 'completed' },
    ]);
    const [credit] = await t.database.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.businessKey, `copy_fee:${res.body.id}:credit`));
    expect(credit).toMatchObject({ userId: lead.id, type: 'copy_earning', direction: 'credit' });

    const seen = await detail(lead.accountId, follower.access);
    expect(seen.body.is_copying).toBe(true);
    expect(seen.body.share_settings.copiers_count).toBe(1);
    const share = await call(
      t.app,
      'GET',
      `/api/strategy-square/accounts/${lead.accountId}/share-settings/`,
      { token: lead.access },
    );
    expect(share.body).toMatchObject({ copiers_count: 1, total_copy_earnings: '100' });
    // Another viewer does not copy it.
    expect((await detail(lead.accountId, lead.access)).body.is_copying).toBe(false);

    const following = await call<{ results: { id: number }[]; count: number }>(
      t.app,
      'GET',
      `${COPY}/following/`,
      { token: follower.access },
    );
    expect(following.body.count).toBe(1);
    expect(following.body.results[0]?.id).toBe(res.body.id);
    const followers = await call<{
      results: { follower_email: string }[];
      count: number;
      totals: Record<string, unknown>;
    }>(t.app, 'GET', `${COPY}/followers/`, { token: lead.access });
    expect(followers.body.count).toBe(1);
    expect(followers.body.totals).toEqual({ followers: 1, active: 1, fees_earned: '100' });
    expect(followers.body.results[0]?.follower_email).toMatch(/^co\*\*\*@example\.com$/);
    expect(
      (await call(t.app, 'GET', `${COPY}/followers/`, { token: follower.access })).body,
    ).toMatchObject({ count: 0, totals: { followers: 0, active: 0, fees_earned: '0' } });
  });

  it('refuses a second copy of the same strategy from the same account, charging nothing', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '300');
    const body = { leader_account_id: lead.accountId, follower_account_id: follower.accountId };
    expect((await createCopy(t.app, follower.access, body)).status).toBe(201);
    const again = await createCopy(t.app, follower.access, body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: COPY_ERROR_CODES.alreadyCopying,
      error: COPY_MESSAGES.alreadyCopying,
    });
    expect(Number(await balanceOf(t, follower))).toBe(200);
    // Another account of the same user may copy it.
    const second = await createPaperAccount(t.app, follower.access, { name: 'Second' });
    const other = await createCopy(t.app, follower.access, {
      ...body,
      follower_account_id: second,
    });
    expect(other.status).toBe(201);
  });

  it('refuses when the balance is below 100 coins, with the spec’s meaning', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '99.99');
    const res = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: COPY_ERROR_CODES.insufficientBalance,
      error: COPY_MESSAGES.insufficientBalance,
    });
    expect(Number(await balanceOf(t, follower))).toBeCloseTo(99.99, 8);
    const rows = await t.database.db
      .select()
      .from(copyRelations)
      .where(eq(copyRelations.followerUserId, follower.id));
    expect(rows).toHaveLength(0);
  });

  it('answers each rule with a field error or a 404', async () => {
    const lead = await leader(t);
    const closed = await leader(t, { accept_copy: false });
    const hidden = await leader(t, { is_public: false });
    const follower = await copier(t, '500');
    const stranger = await copier(t, '0');
    const base = { leader_account_id: lead.accountId, follower_account_id: follower.accountId };
    const expectField = async (
      body: Record<string, unknown>,
      field: string,
      message: string,
      token = follower.access,
    ) => {
      const res = await createCopy(t.app, token, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect((res.body.fields as Record<string, string[]>)[field]).toContain(message);
    };
    await expectField(
      { ...base, follower_account_id: stranger.accountId },
      'follower_account_id',
      COPY_MESSAGES.followerAccountNotFound,
    );
    await expectField({ ...base, copy_amount: 9 }, 'copy_amount', COPY_MESSAGES.amountTooSmall);
    const mode = await createCopy(t.app, follower.access, { ...base, copy_mode: 'sideways' });
    expect(mode.status).toBe(400);
    expect(mode.body.fields).toHaveProperty('copy_mode');
    await expectField(
      { ...base, leader_account_id: closed.accountId },
      'leader_account_id',
      COPY_MESSAGES.notAcceptingCopies,
    );
    // One's own strategy, and the leader account as the follower account.
    await expectField(
      { leader_account_id: lead.accountId, follower_account_id: lead.accountId },
      'leader_account_id',
      COPY_MESSAGES.ownStrategy,
      lead.access,
    );
    await expectField(
      { leader_account_id: lead.accountId, follower_account_id: lead.accountId },
      'follower_account_id',
      COPY_MESSAGES.followerIsLeader,
      lead.access,
    );
    // An inactive follower account.
    const off = await call(t.app, 'PATCH', `/api/auth/apis/${follower.accountId}/`, {
      token: follower.access,
      body: { is_active: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await expectField(base, 'follower_account_id', COPY_MESSAGES.followerAccountInactive);
    await call(t.app, 'PATCH', `/api/auth/apis/${follower.accountId}/`, {
      token: follower.access,
      body: { is_active: true },
    });

    for (const leaderAccountId of [hidden.accountId, 999_999]) {
      const res = await createCopy(t.app, follower.access, {
        ...base,
        leader_account_id: leaderAccountId,
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(COPY_MESSAGES.leaderNotFound);
    }
    expect((await createCopy(t.app, '', base)).status).toBe(401);
    expect(Number(await balanceOf(t, follower))).toBe(500);
  });
});

describe('a copy onto an account that cannot trade', () => {
  it('is refused while its last connection check failed, charging nothing', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '300');
    const live = await call<{ id: number }>(t.app, 'POST', '/api/auth/apis/', {
      token: follower.access,
      body: {
        name: 'Live',
        exchange: 'binance',
        api_key: 'copy-live-key-1234567890',
        api_secret: 'copy-live-secret-0987654321',
        default_leverage: 3,
      },
    });
    expect(live.status, JSON.stringify(live.body)).toBe(201);
    const check = () =>
      call<{ success: boolean }>(t.app, 'POST', `/api/auth/apis/${live.body.id}/test_connection/`, {
        token: follower.access,
      });
    binance.failNext('GET', '/fapi/v3/account', {
      kind: 'http',
      status: 401,
      body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    });
    expect((await check()).body.success).toBe(false);

    const body = { leader_account_id: lead.accountId, follower_account_id: live.body.id };
    const refused = await createCopy(t.app, follower.access, body);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'validation_failed',
      field_codes: { follower_account_id: [FIELD_ERROR_CODES.accountCheckFailed] },
    });
    expect(Number(await balanceOf(t, follower))).toBe(300);
    expect(Number(await balanceOf(t, lead))).toBe(0);
    const rows = await t.database.db
      .select()
      .from(copyRelations)
      .where(eq(copyRelations.followerUserId, follower.id));
    expect(rows).toHaveLength(0);

    // Once a check passes again, the same copy is made (and charged once).
    expect((await check()).body.success).toBe(true);
    expect((await createCopy(t.app, follower.access, body)).status).toBe(201);
    expect(Number(await balanceOf(t, follower))).toBe(200);
  });
});

describe('two creates at once', () => {
  it('creates one relation and takes one fee', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '150');
    const body = { leader_account_id: lead.accountId, follower_account_id: follower.accountId };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createCopy(t.app, follower.access, body)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409 || s === 400)).toBe(true);
    expect(Number(await balanceOf(t, follower))).toBe(50);
    const rows = await t.database.db
      .select()
      .from(copyRelations)
      .where(
        and(
          eq(copyRelations.followerUserId, follower.id),
          eq(copyRelations.leaderAccountId, lead.accountId),
        ),
      );
    expect(rows).toHaveLength(1);
  });

  it('never takes the balance below zero from two accounts at once', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '150');
    const second = await createPaperAccount(t.app, follower.access, { name: 'Second' });
    const results = await Promise.all(
      [follower.accountId, second].map((id) =>
        createCopy(t.app, follower.access, {
          leader_account_id: lead.accountId,
          follower_account_id: id,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(Number(await balanceOf(t, follower))).toBe(50);
  });
});

describe('managing a relation', () => {
  it('pauses, resumes, stops and deletes by the state machine; others answer 409', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '300');
    const created = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    const id = created.body.id as number;
    const act = (action: string) =>
      call(t.app, 'PUT', `${COPY}/${id}/${action}/`, { token: follower.access });
    const remove = () => call(t.app, 'DELETE', `${COPY}/${id}/delete/`, { token: follower.access });
    const update = (body: Record<string, unknown>) =>
      call(t.app, 'PATCH', `${COPY}/${id}/update/`, { token: follower.access, body });

    expect((await act('resume')).status).toBe(409);
    expect((await remove()).status).toBe(409);
    const paused = await act('pause');
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    expect((await act('pause')).body.code).toBe(COPY_ERROR_CODES.transitionRefused);
    expect((await update({ copy_amount: '250.5', max_loss: null })).body).toMatchObject({
      copy_amount: '250.5',
      max_loss: null,
    });
    const tooSmall = await update({ copy_amount: 9.99 });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.fields).toMatchObject({ copy_amount: [COPY_MESSAGES.amountTooSmall] });
    expect((await act('resume')).body.status).toBe('active');
    expect((await act('bogus')).status).toBe(400);

    const stopped = await act('stop');
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'stopped', stop_reason: 'user' });
    expect((await detail(lead.accountId, follower.access)).body.share_settings.copiers_count).toBe(
      0,
    );
    for (const action of ['pause', 'resume', 'stop']) expect((await act(action)).status).toBe(409);
    expect((await update({ copy_amount: 50 })).status).toBe(409);

    expect((await remove()).status).toBe(200);
    expect((await call(t.app, 'GET', `${COPY}/${id}/`, { token: follower.access })).status).toBe(
      404,
    );
    expect((await remove()).status).toBe(404);
    // Each step is in the follower's operation log under its own event (the web words it in the
    // reader's language), the relation named in the facts.
    const logged = await call<{
      results: { type: string; event: string | null; details: Record<string, unknown> }[];
    }>(t.app, 'GET', '/api/trading/logs/?type=user_action', { token: follower.access });
    expect(logged.status).toBe(200);
    const steps = logged.body.results.filter((entry) => entry.details.relation_id === id).reverse();
    expect(steps.map((entry) => entry.event)).toEqual([
      'copy_created',
      'copy_paused',
      'copy_updated',
      'copy_resumed',
      'copy_stopped',
      'copy_deleted',
    ]);
    expect(steps[0]?.details).toMatchObject({ copy_amount: '100', copy_mode: 'normal' });
    expect(steps[2]?.details).toMatchObject({ copy_amount: '250.5', max_loss: null });
    expect(steps[4]?.details).toMatchObject({ reason: 'user' });
    // Deleted: the strategy may be copied again (for another fee).
    const again = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    expect(again.status).toBe(201);
    expect(Number(await balanceOf(t, follower))).toBe(100);
  });

  it('lets a stopped copy be followed by a new one from the same account, for a new fee', async () => {
    const lead = await leader(t);
    const follower = await copier(t, '300');
    const body = { leader_account_id: lead.accountId, follower_account_id: follower.accountId };
    const first = await createCopy(t.app, follower.access, body);
    expect(first.status).toBe(201);
    const firstId = first.body.id as number;
    // Running or paused, it is the one copy of this strategy from this account.
    expect((await createCopy(t.app, follower.access, body)).body.code).toBe(
      COPY_ERROR_CODES.alreadyCopying,
    );
    expect(
      (await call(t.app, 'PUT', `${COPY}/${firstId}/stop/`, { token: follower.access })).status,
    ).toBe(200);
    // Stopped: the strategy reads as not copied, and copying again is a new relation.
    expect((await detail(lead.accountId, follower.access)).body.is_copying).toBe(false);
    const second = await createCopy(t.app, follower.access, body);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.id).not.toBe(firstId);
    expect((await detail(lead.accountId, follower.access)).body).toMatchObject({
      is_copying: true,
      share_settings: { copiers_count: 1 },
    });
    expect(Number(await balanceOf(t, follower))).toBe(100);
    const following = await call<{ results: { id: number; status: string }[] }>(
      t.app,
      'GET',
      `${COPY}/following/`,
      { token: follower.access },
    );
    expect(following.body.results.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [firstId, 'stopped'],
        [second.body.id, 'active'],
      ].sort(),
    );
  });

  it("answers 404 for someone else's relation, the leader's included", async () => {
    const lead = await leader(t);
    const follower = await copier(t, '200');
    const created = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    const id = created.body.id as number;
    const own = await call(t.app, 'GET', `${COPY}/${id}/`, { token: follower.access });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ relation: { id }, receipts: [], positions: [] });
    for (const token of [lead.access, (await copier(t, '0')).access]) {
      expect((await call(t.app, 'GET', `${COPY}/${id}/`, { token })).status).toBe(404);
      expect((await call(t.app, 'PUT', `${COPY}/${id}/pause/`, { token })).status).toBe(404);
      expect(
        (await call(t.app, 'PATCH', `${COPY}/${id}/update/`, { token, body: { copy_amount: 20 } }))
          .status,
      ).toBe(404);
      expect((await call(t.app, 'DELETE', `${COPY}/${id}/delete/`, { token })).status).toBe(404);
    }
    const still = await call(t.app, 'GET', `${COPY}/${id}/`, { token: follower.access });
    expect(still.body).toMatchObject({ relation: { status: 'active' } });
  });
});
