// What a copy is called (issue: every new user's paper account is "Experience account", so copies
// named by the leader's raw account name all looked alike): the published strategy's name and the
// leader's nickname and avatar; and who a follower is, for the leader, when it has no e-mail.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { useLedgerCheck } from '../helpers/wallet-flows.js';
import { COPY, copier, createCopy, leader } from './copy-fixture.js';

const t = useTestApp({ env: { MARKET_DATA: 'simulated' } });
useLedgerCheck(t);

type Relation = Record<string, unknown> & { id: number };

describe('the names a copy answers with', () => {
  it('names the copy by the published strategy and the leader, in the list and the detail', async () => {
    const lead = await leader(t, { name: 'Trend Rider' }, { name: 'Experience account' });
    const profile = await call(t.app, 'PUT', '/api/strategy-square/profile/', {
      token: lead.access,
      body: { nickname: 'Satoshi N' },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const follower = await copier(t);
    const created = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const names = {
      leader_account_name: 'Experience account',
      strategy_name: 'Trend Rider',
      leader_nickname: 'Satoshi N',
      leader_avatar_url: null,
    };
    expect(created.body).toMatchObject(names);

    const following = await call<{ results: Relation[] }>(t.app, 'GET', `${COPY}/following/`, {
      token: follower.access,
    });
    expect(following.body.results[0]).toMatchObject({
      ...names,
      follower_phone: null,
      follower_nickname: null,
    });
    const detail = await call<{ relation: Relation }>(t.app, 'GET', `${COPY}/${created.body.id}/`, {
      token: follower.access,
    });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.relation).toMatchObject(names);
  });

  it('shows the leader a follower without e-mail by nickname and masked phone', async () => {
    const lead = await leader(t, { name: 'Mean Reverter' });
    const follower = await copier(t);
    const created = await createCopy(t.app, follower.access, {
      leader_account_id: lead.accountId,
      follower_account_id: follower.accountId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // A phone-registered user has no e-mail (funded above through the e-mail the admin CLI
    // needs, then turned into a phone-only user).
    await t.database.db
      .update(users)
      .set({ email: null, phone: '+8613812345678', nickname: 'Lucky' })
      .where(eq(users.id, follower.id));

    const followers = await call<{ results: Relation[] }>(t.app, 'GET', `${COPY}/followers/`, {
      token: lead.access,
    });
    expect(followers.body.results[0]).toMatchObject({
      follower_email: null,
      follower_phone: '+86138****5678',
      follower_nickname: 'Lucky',
      strategy_name: 'Mean Reverter',
    });
  });
});
