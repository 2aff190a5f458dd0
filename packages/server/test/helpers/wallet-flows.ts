import { randomBytes } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import { testAdminService } from './admin-service.js';
import { PASSWORD, type Session, uniqueEmail } from './auth-flows.js';
import { call, type TestApp } from './test-app.js';

/** Valid TRON addresses (base58check) and a BEP20 address: nobody's wallets. */
export const TRC20_ADDRESS = 'TEJrigrKHYqNLfbtqE1qA3at6crd1CxMH1';
export const TRC20_ADDRESS_2 = 'TL4T8cxmGYqifeFoQeQajsvLWWugMh7bTq';
export const BEP20_ADDRESS = '0x842e7eac55a2d808cfaad21d4ff4eff8e008b2c6';

/** A fresh transaction hash in the network's format. */
export const trc20Hash = (): string => randomBytes(32).toString('hex');
export const bep20Hash = (): string => `0x${randomBytes(32).toString('hex')}`;

const quietLog = { info: () => undefined, error: () => undefined };

/** The admin CLI's service on the test app's database. */
export const adminFor = (t: TestApp) =>
  testAdminService({ db: t.database.db, clock: t.clock, log: quietLog });

export interface WalletUser extends Session {
  email: string;
  id: number;
}

/** Registers a user over HTTP (optionally with an invitation code). */
export async function newUser(
  t: TestApp,
  options: { invitationCode?: string; prefix?: string } = {},
): Promise<WalletUser> {
  const email = uniqueEmail(options.prefix ?? 'wallet');
  const res = await call<Session>(t.app, 'POST', '/api/auth/register/', {
    body: {
      email,
      password: PASSWORD,
      password2: PASSWORD,
      ...(options.invitationCode ? { invitation_code: options.invitationCode } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return { ...res.body, email, id: Number(res.body.user.id) };
}

/** A user promoted to staff with the admin CLI's create-staff. */
export async function newStaff(t: TestApp): Promise<WalletUser> {
  const user = await newUser(t, { prefix: 'staff' });
  await adminFor(t).run({ command: 'create-staff', email: user.email, password: PASSWORD });
  return user;
}

/** Support credit (admin `credit`): a signed amount as an adjustment row. */
export async function adjust(t: TestApp, email: string, amount: string, reason = 'test funding') {
  return adminFor(t).run({ command: 'credit', email, amount, reason });
}

export async function balanceOf(t: TestApp, user: { access: string }): Promise<string> {
  const res = await call<{ balance: string }>(t.app, 'GET', '/api/auth/balance/', {
    token: user.access,
  });
  if (res.status !== 200) throw new Error(`balance failed: ${JSON.stringify(res.body)}`);
  return res.body.balance;
}

/** After every test of the file: no user's balance differs from the ledger (admin check-ledger). */
export function useLedgerCheck(t: TestApp): void {
  afterEach(async () => {
    expect(await adminFor(t).run({ command: 'check-ledger' })).toMatch(/^Ledger clean/);
  });
}
