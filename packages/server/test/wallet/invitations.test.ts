import { describe, expect, it } from 'vitest';
import { PASSWORD, uniquePhone } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { adjust, newUser, useLedgerCheck } from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

describe('invitations', () => {
  it('counts referrals, VIP referrals and rewards, and lists referrals masked', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const code = String(inviter.user.invitation_code);
    const buyer = await newUser(t, { invitationCode: code.toLowerCase() });
    await newUser(t, { invitationCode: code });
    await adjust(t, buyer.email, '100');
    await call(t.app, 'POST', '/api/auth/purchase-vip/', { token: buyer.access });

    const stats = await call(t.app, 'GET', '/api/auth/invitation-stats/', {
      token: inviter.access,
    });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      total_referrals: 2,
      total_rewards: '50.00000000',
      vip_count: 1,
      pending_bonus: '0.00000000',
    });

    const list = await call<{
      results: { id: number; email: string; phone: null; is_vip: boolean; created_at: string }[];
      count: number;
    }>(t.app, 'GET', '/api/auth/referrals/', { token: inviter.access });
    expect(list.body.count).toBe(2);
    const [newest, oldest] = list.body.results;
    expect(oldest).toMatchObject({
      id: buyer.id,
      email: `${buyer.email.slice(0, 2)}***@example.com`,
      phone: null,
      is_vip: true,
    });
    expect(newest?.is_vip).toBe(false);
    expect(JSON.stringify(list.body)).not.toContain(buyer.email);

    const page = await call<{ results: unknown[]; count: number }>(
      t.app,
      'GET',
      '/api/auth/referrals/?page=2&page_size=1',
      { token: inviter.access },
    );
    expect(page.body).toMatchObject({ count: 2, results: [{ id: buyer.id }] });
  });

  it('masks the middle four digits of a phone referral', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const phone = uniquePhone();
    const sent = await call(t.app, 'POST', '/api/auth/send-code/', {
      body: { type: 'phone', target: phone, action: 'register' },
    });
    expect(sent.status).toBe(200);
    const outbox = await call<{ results: { code: string }[] }>(
      t.app,
      'GET',
      `/api/dev/outbox/?to=${encodeURIComponent(phone)}`,
    );
    const registered = await call(t.app, 'POST', '/api/auth/phone-register/', {
      body: {
        phone,
        code: outbox.body.results[0]?.code,
        password: PASSWORD,
        password2: PASSWORD,
        invitation_code: inviter.user.invitation_code,
      },
    });
    expect(registered.status).toBe(201);
    const list = await call<{ results: { email: null; phone: string }[] }>(
      t.app,
      'GET',
      '/api/auth/referrals/',
      { token: inviter.access },
    );
    expect(list.body.results[0]).toMatchObject({
      email: null,
      phone: `${phone.slice(0, phone.length - 8)}****${phone.slice(-4)}`,
    });
  });

  it('generates a new code; the old one stops working at registration', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const old = String(inviter.user.invitation_code);
    const res = await call<{ invitation_code: string; message: string }>(
      t.app,
      'POST',
      '/api/auth/generate-invitation/',
      { token: inviter.access },
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Invitation code generated');
    expect(res.body.invitation_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(res.body.invitation_code).not.toBe(old);
    const profile = await call(t.app, 'GET', '/api/auth/profile/', { token: inviter.access });
    expect(profile.body).toMatchObject({ invitation_code: res.body.invitation_code });

    const withOld = await call(t.app, 'POST', '/api/auth/register/', {
      body: {
        email: `late_${Date.now()}@example.com`,
        password: PASSWORD,
        password2: PASSWORD,
        invitation_code: old,
      },
    });
    expect(withOld.status).toBe(400);
    expect(withOld.body).toMatchObject({
      fields: { invitation_code: ['Invalid invitation code'] },
    });
    await newUser(t, { invitationCode: res.body.invitation_code });
    const stats = await call(t.app, 'GET', '/api/auth/invitation-stats/', {
      token: inviter.access,
    });
    expect(stats.body).toMatchObject({ total_referrals: 1 });
  });

  it('answers zeros and an empty list to a user who invited nobody', async () => {
    const user = await newUser(t);
    expect(
      (await call(t.app, 'GET', '/api/auth/invitation-stats/', { token: user.access })).body,
    ).toEqual({
      total_referrals: 0,
      total_rewards: '0.00000000',
      vip_count: 0,
      pending_bonus: '0.00000000',
    });
    expect((await call(t.app, 'GET', '/api/auth/referrals/', { token: user.access })).body).toEqual(
      { results: [], count: 0 },
    );
  });

  it('needs a login', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/invitation-stats/'],
      ['GET', '/api/auth/referrals/'],
      ['POST', '/api/auth/generate-invitation/'],
    ] as const) {
      expect((await call(t.app, method, url)).status).toBe(401);
    }
  });
});
