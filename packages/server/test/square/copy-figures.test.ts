// The square's copy figures of a strategy (copier_pnl, copy_efficiency): computed by the metrics
// from copy trading's relations that are not deleted, and answered by the strategy detail.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { copyRelations } from '../../src/db/schema/index.js';
import { COPY, copier, createCopy, leader } from '../copy-trading/copy-fixture.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp({ env: { MARKET_DATA: 'simulated' } });

interface CopyFigures {
  /** USDT, a decimal string. */
  copier_pnl: string;
  copy_efficiency: number | null;
}
const detail = (id: number) =>
  call<{ metrics: Record<'daily' | 'weekly' | 'monthly' | 'total', CopyFigures> }>(
    t.app,
    'GET',
    `/api/strategy-square/strategies/${id}/`,
  );

/** The follower's access token of each relation made by `relation`. */
const followerTokens = new Map<number, string>();

/** A relation of a new copier on the leader, with the given state written as the engine would. */
async function relation(
  leaderAccountId: number,
  state: {
    copyAmount: string;
    totalProfitLoss: string;
    leaderEquityStart: string;
    leaderEquityLast: string;
  },
  end?: 'stop' | 'delete',
  mode: 'normal' | 'reverse' = 'normal',
): Promise<number> {
  const follower = await copier(t, '200');
  const res = await createCopy(t.app, follower.access, {
    leader_account_id: leaderAccountId,
    follower_account_id: follower.accountId,
    copy_amount: state.copyAmount,
    copy_mode: mode,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.id as number;
  followerTokens.set(id, follower.access);
  if (end) {
    const stop = await call(t.app, 'PUT', `${COPY}/${id}/stop/`, { token: follower.access });
    expect(stop.status).toBe(200);
  }
  if (end === 'delete') {
    const removed = await call(t.app, 'DELETE', `${COPY}/${id}/delete/`, {
      token: follower.access,
    });
    expect(removed.status).toBe(200);
  }
  // The copied P&L and the leader's equity since the start are the copy engine's to keep.
  await t.database.db.update(copyRelations).set(state).where(eq(copyRelations.id, id));
  return id;
}

/** The leader saves the share settings: a public strategy's figures are recomputed at once. */
async function recompute(lead: { accountId: number; access: string }): Promise<void> {
  const res = await call(
    t.app,
    'PUT',
    `/api/strategy-square/accounts/${lead.accountId}/share-settings/`,
    { token: lead.access, body: { description: '<p>recomputed</p>' } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("a strategy's copy figures", () => {
  it("sum the copiers' P&L and average the defined efficiencies of relations not deleted", async () => {
    const lead = await leader(t);
    const other = await leader(t);
    // Follower +12.5% while the leader made +10%: efficiency 1.25.
    await relation(lead.accountId, {
      copyAmount: '100',
      totalProfitLoss: '12.5',
      leaderEquityStart: '10000',
      leaderEquityLast: '11000',
    });
    // Follower −2% while the leader made +5%: efficiency −0.4.
    await relation(lead.accountId, {
      copyAmount: '200',
      totalProfitLoss: '-4',
      leaderEquityStart: '10000',
      leaderEquityLast: '10500',
    });
    // Stopped, not deleted: its P&L counts; the leader did not move, so no efficiency.
    await relation(
      lead.accountId,
      {
        copyAmount: '50',
        totalProfitLoss: '1.5',
        leaderEquityStart: '10000',
        leaderEquityLast: '10000',
      },
      'stop',
    );
    // Deleted: not counted at all.
    await relation(
      lead.accountId,
      {
        copyAmount: '100',
        totalProfitLoss: '1000',
        leaderEquityStart: '10000',
        leaderEquityLast: '20000',
      },
      'delete',
    );
    // Another strategy's copier.
    await relation(other.accountId, {
      copyAmount: '100',
      totalProfitLoss: '7',
      leaderEquityStart: '10000',
      leaderEquityLast: '10100',
    });

    await recompute(lead);
    const seen = await detail(lead.accountId);
    expect(seen.status).toBe(200);
    for (const period of ['daily', 'weekly', 'monthly', 'total'] as const) {
      expect(seen.body.metrics[period], period).toMatchObject({
        copier_pnl: '10',
        copy_efficiency: 0.425,
      });
    }

    await recompute(other);
    expect((await detail(other.accountId)).body.metrics.total).toMatchObject({
      copier_pnl: '7',
      copy_efficiency: 7,
    });
  });

  it('are 0 P&L and no efficiency for a strategy nobody copies', async () => {
    const lead = await leader(t);
    await recompute(lead);
    const { total } = (await detail(lead.accountId)).body.metrics;
    expect(total).toMatchObject({ copier_pnl: '0', copy_efficiency: null });
    // The period's own P&L is money too: a decimal string.
    expect((total as unknown as { pnl: unknown }).pnl).toBe('0');
  });

  it('follow the relations when the figures are computed again', async () => {
    const lead = await leader(t);
    const id = await relation(lead.accountId, {
      copyAmount: '100',
      totalProfitLoss: '5',
      leaderEquityStart: '10000',
      leaderEquityLast: '11000',
    });
    await recompute(lead);
    expect((await detail(lead.accountId)).body.metrics.total).toMatchObject({
      copier_pnl: '5',
      copy_efficiency: 0.5,
    });
    await t.database.db
      .update(copyRelations)
      .set({ totalProfitLoss: '-2.25' })
      .where(eq(copyRelations.id, id));
    await recompute(lead);
    expect((await detail(lead.accountId)).body.metrics.total).toMatchObject({
      copier_pnl: '-2.25',
      copy_efficiency: -0.225,
    });
  });

  it("measure a reverse copy against the opposite of the leader's return", async () => {
    const lead = await leader(t);
    // The leader lost 5%; the reverse copier lost 7% where it aimed at +5%: −1.4 (a normal
    // copier losing 7% with it would be 1.4).
    const losing = await relation(
      lead.accountId,
      {
        copyAmount: '100',
        totalProfitLoss: '-7',
        leaderEquityStart: '10000',
        leaderEquityLast: '9500',
      },
      undefined,
      'reverse',
    );
    // A reverse copier that made +4% of the leader's lost 5%: 0.8.
    await relation(
      lead.accountId,
      {
        copyAmount: '100',
        totalProfitLoss: '4',
        leaderEquityStart: '10000',
        leaderEquityLast: '9500',
      },
      undefined,
      'reverse',
    );
    await recompute(lead);
    expect((await detail(lead.accountId)).body.metrics.total).toMatchObject({
      copier_pnl: '-3',
      copy_efficiency: -0.3,
    });
    // The relation's own answer says the same to its follower.
    const own = await call<{ relation: { copy_mode: string; copy_efficiency: number | null } }>(
      t.app,
      'GET',
      `${COPY}/${losing}/`,
      { token: followerTokens.get(losing) as string },
    );
    expect(own.body.relation).toMatchObject({ copy_mode: 'reverse', copy_efficiency: -1.4 });
  });
});
