import { VIP_DURATION_DAYS } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { walletTransactions } from '../../src/db/schema/index.js';
import { type BusEvent, createInProcessEventBus } from '../../src/events/index.js';
import { loginEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { adjust, balanceOf, newUser, useLedgerCheck } from '../helpers/wallet-flows.js';

const eventBus = createInProcessEventBus({ clock: new ManualClock() });
const t = useTestApp({ eventBus });
useLedgerCheck(t);

const DAY_MS = 24 * 60 * 60 * 1000;
type Purchase = {
  price_paid: string;
  message: string;
  is_vip_active: boolean;
  vip_expires_at: string;
  platform_balance: string;
  invitation_code: string;
};

const buy = (token: string, body?: unknown) =>
  call<Purchase>(t.app, 'POST', '/api/auth/purchase-vip/', { token, body });

const rowsOf = async (userId: number) =>
  t.database.db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId));

describe('POST /api/auth/purchase-vip/', () => {
  it('charges 100 for 365 days and answers the new profile', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '150');
    const res = await buy(user.access);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      price_paid: '100.00000000',
      message: 'VIP membership activated!',
      is_vip_active: true,
      platform_balance: '50.00000000',
    });
    expect(new Date(res.body.vip_expires_at).getTime()).toBe(
      t.clock.now().getTime() + VIP_DURATION_DAYS * DAY_MS,
    );
    const rows = await rowsOf(user.id);
    expect(rows.filter((r) => r.type === 'vip_purchase')).toHaveLength(1);
  });

  it('extends an active VIP from its expiry', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '300');
    const first = await buy(user.access);
    t.clock.advanceSeconds(10 * 24 * 3600);
    const second = await buy((await loginEmail(t.app, t.clock, user.email)).access);
    expect(new Date(second.body.vip_expires_at).getTime()).toBe(
      new Date(first.body.vip_expires_at).getTime() + VIP_DURATION_DAYS * DAY_MS,
    );
    expect(second.body.platform_balance).toBe('100.00000000');
  });

  it('starts from now when the VIP has expired', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '200');
    await buy(user.access);
    t.clock.advanceSeconds((VIP_DURATION_DAYS + 5) * 24 * 3600);
    const again = await buy((await loginEmail(t.app, t.clock, user.email)).access);
    expect(new Date(again.body.vip_expires_at).getTime()).toBe(
      t.clock.now().getTime() + VIP_DURATION_DAYS * DAY_MS,
    );
  });

  it('charges the promotional price 1 to a balance under 100', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '99.99');
    const info = await call(t.app, 'GET', '/api/auth/vip/', { token: user.access });
    expect(info.body).toMatchObject({
      price: '1.00000000',
      original_price: '100.00000000',
      promotional_price: '1.00000000',
      is_promotional: true,
      duration_days: 365,
      is_vip_active: false,
    });
    const res = await buy(user.access);
    expect(res.body).toMatchObject({ price_paid: '1.00000000', platform_balance: '98.99000000' });
  });

  it('charges the full price for a purchase after the first, whatever the balance', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '150');
    expect((await buy(user.access)).body.price_paid).toBe('100.00000000');
    // 50 left: under 100, but the limited-time offer was for the first purchase only.
    const info = await call(t.app, 'GET', '/api/auth/vip/', { token: user.access });
    expect(info.body).toMatchObject({ price: '100.00000000', is_promotional: false });
    const again = await buy(user.access);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'insufficient_balance' });
    expect(await balanceOf(t, user)).toBe('50.00000000');
    expect((await buy(user.access, { expected_price: 1 })).status).toBe(409);
  });

  it('offers the promotional price once: a second purchase after it costs 100', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '50');
    expect((await buy(user.access)).body.price_paid).toBe('1.00000000');
    const info = await call(t.app, 'GET', '/api/auth/vip/', { token: user.access });
    expect(info.body).toMatchObject({ price: '100.00000000', is_promotional: false });
    await adjust(t, user.email, '51');
    const renewal = await buy(user.access);
    expect(renewal.body).toMatchObject({
      price_paid: '100.00000000',
      platform_balance: '0.00000000',
    });
  });

  it('refuses a balance under the price with the insufficient-balance text', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '0.99');
    const res = await buy(user.access);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'insufficient_balance', error: 'Insufficient balance' });
    expect(await balanceOf(t, user)).toBe('0.99000000');
    const empty = await newUser(t);
    expect((await buy(empty.access)).status).toBe(400);
  });

  it('charges a request_id once and answers the same purchase again', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '250');
    const first = await buy(user.access, { request_id: 'vip-once' });
    const again = await buy(user.access, { request_id: 'vip-once' });
    expect(again.status).toBe(200);
    expect(again.body.price_paid).toBe('100.00000000');
    expect(again.body.vip_expires_at).toBe(first.body.vip_expires_at);
    expect(await balanceOf(t, user)).toBe('150.00000000');
  });

  it('refuses to charge a price other than the one the user confirmed', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '120');
    const res = await buy(user.access, { expected_price: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'price_changed' });
    expect(await balanceOf(t, user)).toBe('120.00000000');
    expect((await buy(user.access, { expected_price: '100.00000000' })).status).toBe(200);
  });

  it('refuses unknown fields and bad request ids', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '120');
    for (const body of [{ price: 1 }, { request_id: '' }, { request_id: 'x'.repeat(65) }]) {
      expect((await buy(user.access, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await balanceOf(t, user)).toBe('120.00000000');
  });

  it('announces the balance change on the event bus', async () => {
    const seen: BusEvent<'CoinBalanceChanged'>[] = [];
    const stop = eventBus.subscribe('CoinBalanceChanged', (event) => {
      seen.push(event);
    });
    const user = await newUser(t);
    await adjust(t, user.email, '100');
    await buy(user.access);
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    const mine = seen.filter((e) => e.payload.userId === user.id);
    expect(mine.map((e) => e.payload.balance)).toEqual(['0.00000000']);
  });
});

describe('referral bonus', () => {
  it('gives the inviter 50% of the standard price, once per invitee, in the purchase transaction', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const invitee = await newUser(t, { invitationCode: String(inviter.user.invitation_code) });
    await adjust(t, invitee.email, '400');
    await buy(invitee.access);
    await buy(invitee.access);
    expect(await balanceOf(t, inviter)).toBe('50.00000000');
    const bonus = (await rowsOf(inviter.id)).filter((r) => r.type === 'referral_bonus');
    expect(bonus).toHaveLength(1);
    expect(bonus[0]).toMatchObject({ status: 'completed', counterpartyUserId: invitee.id });
  });

  it('gives 0.5 when the invitee paid the promotional price', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const invitee = await newUser(t, { invitationCode: String(inviter.user.invitation_code) });
    await adjust(t, invitee.email, '10');
    await buy(invitee.access);
    expect(await balanceOf(t, inviter)).toBe('0.50000000');
  });

  it('gives nothing when the purchase is refused', async () => {
    const inviter = await newUser(t, { prefix: 'inviter' });
    const invitee = await newUser(t, { invitationCode: String(inviter.user.invitation_code) });
    expect((await buy(invitee.access)).status).toBe(400);
    expect(await balanceOf(t, inviter)).toBe('0.00000000');
  });
});
