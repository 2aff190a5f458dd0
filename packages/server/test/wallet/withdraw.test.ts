import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  adjust,
  BEP20_ADDRESS,
  balanceOf,
  newUser,
  TRC20_ADDRESS,
  TRC20_ADDRESS_2,
  useLedgerCheck,
} from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

type Answer = { message: string; transaction: Record<string, unknown> };

describe('POST /api/auth/withdraw/', () => {
  it('debits the whole amount at request; amount − 1 USDT arrives', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '50');
    const res = await call<Answer>(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body: { amount: 20, address: TRC20_ADDRESS, network: 'TRC20' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Withdrawal request submitted successfully!');
    expect(res.body.transaction).toMatchObject({
      type: 'withdraw',
      direction: 'debit',
      amount: '20.00000000',
      fee: '1.00000000',
      net_amount: '19.00000000',
      status: 'pending',
      network: 'TRC20',
      address: TRC20_ADDRESS,
    });
    expect(await balanceOf(t, user)).toBe('30.00000000');
  });

  it('takes the whole balance, and nothing beyond it', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '12.34');
    const over = await call(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body: { amount: '12.35', address: BEP20_ADDRESS, network: 'BEP20' },
    });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ fields: { amount: ['Invalid withdrawal amount'] } });
    const all = await call(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body: { amount: '12.34', address: BEP20_ADDRESS, network: 'BEP20' },
    });
    expect(all.status).toBe(201);
    expect(await balanceOf(t, user)).toBe('0.00000000');
  });

  it.each([
    [
      { amount: 1.99, address: TRC20_ADDRESS, network: 'TRC20' },
      'amount',
      'Invalid withdrawal amount',
    ],
    [
      { amount: 0, address: TRC20_ADDRESS, network: 'TRC20' },
      'amount',
      'Invalid withdrawal amount',
    ],
    [
      { amount: -5, address: TRC20_ADDRESS, network: 'TRC20' },
      'amount',
      'Invalid withdrawal amount',
    ],
    [
      { amount: 2.001, address: TRC20_ADDRESS, network: 'TRC20' },
      'amount',
      'Invalid withdrawal amount',
    ],
    [
      { amount: 'all', address: TRC20_ADDRESS, network: 'TRC20' },
      'amount',
      'Invalid withdrawal amount',
    ],
    [{ amount: 5, network: 'TRC20' }, 'address', 'Address is required'],
    [{ amount: 5, address: '  ', network: 'TRC20' }, 'address', 'Address is required'],
    [
      { amount: 5, address: TRC20_ADDRESS, network: 'OFFCHAIN' },
      'network',
      'Please select a network',
    ],
    [{ amount: 5, address: TRC20_ADDRESS }, 'network', 'Please select a network'],
    [
      { amount: 5, address: BEP20_ADDRESS, network: 'TRC20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: TRC20_ADDRESS, network: 'BEP20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: `${TRC20_ADDRESS.slice(0, 33)}2`, network: 'TRC20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: `A${TRC20_ADDRESS.slice(1)}`, network: 'TRC20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: `0x${'g'.repeat(40)}`, network: 'BEP20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: `0x${'a'.repeat(39)}`, network: 'BEP20' },
      'address',
      'Invalid address for this network',
    ],
    [
      { amount: 5, address: TRC20_ADDRESS, network: 'TRC20', request_id: 'a b' },
      'request_id',
      undefined,
    ],
    [{ amount: 5, address: TRC20_ADDRESS, network: 'TRC20', fee: 0 }, 'fee', 'Unknown field'],
  ])('refuses %j with a field error on %s', async (body, field, message) => {
    const user = await newUser(t);
    await adjust(t, user.email, '100');
    const res = await call<{ fields: Record<string, string[]> }>(
      t.app,
      'POST',
      '/api/auth/withdraw/',
      { token: user.access, body },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields[field]).toBeDefined();
    if (message) expect(res.body.fields[field]).toContain(message);
    expect(await balanceOf(t, user)).toBe('100.00000000');
  });

  it('acts once per request_id, and refuses the id for a different request', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '100');
    const body = { amount: 10, address: TRC20_ADDRESS, network: 'TRC20', request_id: 'w-1' };
    const first = await call<Answer>(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body,
    });
    const again = await call<Answer>(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body,
    });
    expect(again.status).toBe(201);
    expect(again.body.transaction.id).toBe(first.body.transaction.id);
    expect(await balanceOf(t, user)).toBe('90.00000000');
    const different = await call(t.app, 'POST', '/api/auth/withdraw/', {
      token: user.access,
      body: { ...body, address: TRC20_ADDRESS_2 },
    });
    expect(different.status).toBe(409);
    expect(different.body).toMatchObject({ code: 'request_id_reused' });
    // Another user's request_id is their own.
    const other = await newUser(t);
    await adjust(t, other.email, '20');
    expect(
      (await call(t.app, 'POST', '/api/auth/withdraw/', { token: other.access, body })).status,
    ).toBe(201);
  });

  it('needs a login', async () => {
    const res = await call(t.app, 'POST', '/api/auth/withdraw/', {
      body: { amount: 5, address: TRC20_ADDRESS, network: 'TRC20' },
    });
    expect(res.status).toBe(401);
  });
});
