// Deleting an exchange account ends the copies it drives (issue 12 with the account deletion of
// document 1): copying WITH it, the copies stop and their positions are closed before it goes,
// and a close that fails refuses the deletion; copying IT (a strategy's account), every
// follower's copy stops and the follower's copied position is closed, each follower told in
// their operation log. Nothing is left open at a venue with no relation to drive it.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { exchangeAccounts, operationLogs, paperPositions } from '../../src/db/schema/index.js';
import { call } from '../helpers/test-app.js';
import { BTC, copyFlows, eventually, useCopyEngineApp } from './copy-engine-fixture.js';
import { COPY, leader } from './copy-fixture.js';

const t = useCopyEngineApp();

beforeAll(() => {
  t.services.copyTrading.engine.start();
});

const flows = copyFlows(t);
const { leaderTo, follow } = flows;
type Follower = Awaited<ReturnType<typeof follow>>;
const copiedSize = (follower: Follower) =>
  flows.copiedSize(follower.accountId, follower.relationId);

/** A leader and one follower holding the leader's 0.2 BTC long, copied (0.002 BTC). */
async function copyingLong() {
  const lead = await leader(t);
  const follower = await follow(lead);
  await leaderTo(lead, 0.2);
  await eventually(async () => expect(await copiedSize(follower)).toBeCloseTo(0.002, 8));
  await t.services.copyTrading.engine.idle();
  return { lead, follower };
}

/** What the follower's paper account holds on BTC at the venue (signed). */
async function heldAtVenue(accountId: number): Promise<number> {
  const rows = await t.database.db
    .select()
    .from(paperPositions)
    .where(and(eq(paperPositions.accountId, accountId), eq(paperPositions.symbol, BTC)));
  return rows.reduce((sum, row) => sum + Number(row.amount) * (row.side === 'long' ? 1 : -1), 0);
}

const copyStops = async (userId: number) =>
  (
    await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, userId), eq(operationLogs.event, 'copy_stopped')))
  ).map((row) => row.details);

const deleteAccount = (accountId: number, token: string) =>
  call<{ success: boolean; closed_copy_positions?: { relation_id: number; symbol: string }[] }>(
    t.app,
    'DELETE',
    `/api/auth/apis/${accountId}/`,
    { token },
  );

describe('deleting an exchange account that copies', () => {
  it('stops its copy and closes the copied position before the account goes', async () => {
    const { lead, follower } = await copyingLong();

    const res = await deleteAccount(follower.accountId, follower.access);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.closed_copy_positions).toEqual([
      { relation_id: follower.relationId, symbol: BTC },
    ]);
    expect(await copiedSize(follower)).toBe(0);
    expect(
      (await call(t.app, 'GET', `${COPY}/${follower.relationId}/`, { token: follower.access }))
        .status,
    ).toBe(404);
    expect(await copyStops(follower.id)).toEqual([
      expect.objectContaining({ relation_id: follower.relationId, reason: 'account_deleted' }),
    ]);
    // The strategy counts one copier less.
    const strategy = await call<{ share_settings: { copiers_count: number } }>(
      t.app,
      'GET',
      `/api/strategy-square/strategies/${lead.accountId}/`,
    );
    expect(strategy.body.share_settings.copiers_count).toBe(0);
    await leaderTo(lead, 0);
  });

  it('is refused while a copied position cannot be closed, and deletes nothing', async () => {
    const { lead, follower } = await copyingLong();
    // The account's key stops working (the fixture refuses accounts named Hang… once opened).
    t.hang.open();
    await t.database.db
      .update(exchangeAccounts)
      .set({ name: 'Hang follower' })
      .where(eq(exchangeAccounts.id, follower.accountId));

    const res = await deleteAccount(follower.accountId, follower.access);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'position_close_failed', error_kind: 'invalid_key' });
    const still = await t.database.db
      .select()
      .from(exchangeAccounts)
      .where(eq(exchangeAccounts.id, follower.accountId));
    expect(still).toHaveLength(1);
    // Stopped (no new copies), its position still held and known: the engine retries the close.
    expect(await copiedSize(follower)).toBeCloseTo(0.002, 8);
    const seen = await call<{ relation: { status: string; last_error: string | null } }>(
      t.app,
      'GET',
      `${COPY}/${follower.relationId}/`,
      { token: follower.access },
    );
    expect(seen.body.relation.status).toBe('stopped');
    expect(seen.body.relation.last_error).toMatch(/BTC/);
    // Nor can the stopped copy itself be deleted while its position is open.
    const removed = await call(t.app, 'DELETE', `${COPY}/${follower.relationId}/delete/`, {
      token: follower.access,
    });
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ code: 'copy_positions_open' });
    await leaderTo(lead, 0);
  });
});

describe("deleting a strategy's account", () => {
  it("stops every follower's copy and closes their copied positions", async () => {
    const lead = await leader(t);
    const normal = await follow(lead);
    const reverse = await follow(lead, { copy_mode: 'reverse' });
    await leaderTo(lead, 0.2);
    await eventually(async () => {
      expect(await copiedSize(normal)).toBeCloseTo(0.002, 8);
      expect(await copiedSize(reverse)).toBeCloseTo(-0.002, 8);
    });
    await t.services.copyTrading.engine.idle();
    expect(await heldAtVenue(normal.accountId)).toBeCloseTo(0.002, 8);
    expect(await heldAtVenue(reverse.accountId)).toBeCloseTo(-0.002, 8);

    const res = await deleteAccount(lead.accountId, lead.access);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.closed_copy_positions).toEqual(
      expect.arrayContaining([
        { relation_id: normal.relationId, symbol: BTC },
        { relation_id: reverse.relationId, symbol: BTC },
      ]),
    );
    // Both followers are flat at their venue, and told why in their own log.
    for (const follower of [normal, reverse]) {
      expect(await copiedSize(follower)).toBe(0);
      expect(await heldAtVenue(follower.accountId)).toBe(0);
      expect(await copyStops(follower.id)).toEqual([
        expect.objectContaining({ relation_id: follower.relationId, reason: 'leader_gone' }),
      ]);
      // Their accounts stay; the relation went with the strategy's account.
      const own = await t.database.db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.id, follower.accountId));
      expect(own).toHaveLength(1);
    }
  });
});
