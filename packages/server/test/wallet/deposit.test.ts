import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_DEPOSIT_ADDRESSES } from '../../src/config.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { adjust, bep20Hash, newUser, trc20Hash, useLedgerCheck } from '../helpers/wallet-flows.js';

const t = useTestApp();
useLedgerCheck(t);

describe('GET /api/auth/deposit/', () => {
  it('answers TRC20, BEP20 and OFFCHAIN with address, minimum and a PNG QR code of the address', async () => {
    const user = await newUser(t);
    const res = await call<Record<string, Record<string, unknown>>>(
      t.app,
      'GET',
      '/api/auth/deposit/',
      { token: user.access },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['TRC20', 'BEP20', 'OFFCHAIN']);
    expect(res.body.TRC20).toMatchObject({
      network: 'TRC20',
      address: DEVELOPMENT_DEPOSIT_ADDRESSES.TRC20,
      min_amount: '10.00000000',
      is_offchain: false,
    });
    expect(res.body.OFFCHAIN).toMatchObject({ is_offchain: true });
    const qr = String(res.body.BEP20?.qr_code);
    expect(qr).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64');
    expect((await sharp(png).metadata()).format).toBe('png');
  });

  it('needs a login', async () => {
    expect((await call(t.app, 'GET', '/api/auth/deposit/')).status).toBe(401);
  });
});

describe('POST /api/auth/deposit/', () => {
  it('creates a pending on-chain deposit that moves nothing until staff approve it', async () => {
    const user = await newUser(t);
    const hash = trc20Hash();
    const res = await call<{ message: string; transaction: Record<string, unknown> }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      { token: user.access, body: { amount: 25.5, network: 'TRC20', tx_hash: hash.toUpperCase() } },
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toMatch(/1-24 hours/);
    expect(res.body.transaction).toMatchObject({
      type: 'deposit',
      direction: 'credit',
      amount: '25.50000000',
      status: 'pending',
      network: 'TRC20',
      tx_hash: hash,
      is_offchain: false,
      offchain_reference: null,
    });
    const balance = await call<{ balance: string; transactions: unknown[] }>(
      t.app,
      'GET',
      '/api/auth/balance/',
      { token: user.access },
    );
    expect(balance.body.balance).toBe('0.00000000');
    expect(balance.body.transactions).toHaveLength(1);
  });

  it('creates an off-chain deposit with its reference', async () => {
    const user = await newUser(t);
    const res = await call<{ transaction: Record<string, unknown> }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      {
        token: user.access,
        body: { amount: '10', network: 'OFFCHAIN', offchain_reference: ' bank ref 42 ' },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.transaction).toMatchObject({
      network: 'OFFCHAIN',
      is_offchain: true,
      offchain_reference: 'bank ref 42',
      tx_hash: null,
    });
  });

  it('never accepts the same transaction hash twice, from anyone', async () => {
    const first = await newUser(t);
    const second = await newUser(t);
    const hash = bep20Hash();
    const body = { amount: 10, network: 'BEP20', tx_hash: hash };
    expect(
      (await call(t.app, 'POST', '/api/auth/deposit/', { token: first.access, body })).status,
    ).toBe(201);
    for (const [user, tx_hash] of [
      [first, hash],
      [second, hash],
      [second, `0x${hash.slice(2).toUpperCase()}`],
    ] as const) {
      const again = await call(t.app, 'POST', '/api/auth/deposit/', {
        token: user.access,
        body: { ...body, tx_hash },
      });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({
        fields: { tx_hash: ['This transaction hash has already been submitted'] },
      });
    }
  });

  it('keeps at most 10 deposit requests waiting per user', async () => {
    const user = await newUser(t);
    for (let i = 0; i < 10; i++) {
      const res = await call(t.app, 'POST', '/api/auth/deposit/', {
        token: user.access,
        body: { amount: 10, network: 'OFFCHAIN', offchain_reference: `ref ${i}` },
      });
      expect(res.status).toBe(201);
    }
    const eleventh = await call(t.app, 'POST', '/api/auth/deposit/', {
      token: user.access,
      body: { amount: 10, network: 'TRC20', tx_hash: trc20Hash() },
    });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body).toMatchObject({ code: 'too_many_pending_deposits' });
  });

  it.each([
    [{ amount: 10, tx_hash: 'a'.repeat(64) }, 'network', 'Please select a network'],
    [
      { amount: 10, network: 'ERC20', tx_hash: 'a'.repeat(64) },
      'network',
      'Please select a network',
    ],
    [
      { amount: 9.99, network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'The amount is below the minimum deposit of this network',
    ],
    [
      { amount: 10.001, network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'Enter an amount in steps of 0.01',
    ],
    [
      { amount: -10, network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'Enter an amount in steps of 0.01',
    ],
    [
      { amount: '1e3', network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'Enter an amount in steps of 0.01',
    ],
    [
      { amount: 'ten', network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'Enter an amount in steps of 0.01',
    ],
    [
      { amount: 2_000_000_000, network: 'TRC20', tx_hash: 'a'.repeat(64) },
      'amount',
      'The amount may not exceed 1000000000',
    ],
    [
      { amount: 10, network: 'TRC20' },
      'tx_hash',
      'Transaction hash is required for on-chain deposits',
    ],
    [
      { amount: 10, network: 'TRC20', tx_hash: `0x${'a'.repeat(64)}` },
      'tx_hash',
      'Invalid transaction hash for this network',
    ],
    [
      { amount: 10, network: 'TRC20', tx_hash: 'g'.repeat(64) },
      'tx_hash',
      'Invalid transaction hash for this network',
    ],
    [
      { amount: 10, network: 'BEP20', tx_hash: 'a'.repeat(64) },
      'tx_hash',
      'Invalid transaction hash for this network',
    ],
    [
      { amount: 10, network: 'BEP20', tx_hash: `0x${'a'.repeat(63)}` },
      'tx_hash',
      'Invalid transaction hash for this network',
    ],
    [
      { amount: 10, network: 'TRC20', tx_hash: 'a'.repeat(64), offchain_reference: 'x' },
      'offchain_reference',
      'On-chain deposits take a transaction hash, not a reference',
    ],
    [
      { amount: 10, network: 'OFFCHAIN' },
      'offchain_reference',
      'Reference is required for off-chain deposits',
    ],
    [
      { amount: 10, network: 'OFFCHAIN', offchain_reference: 'r', tx_hash: 'a'.repeat(64) },
      'tx_hash',
      'Off-chain deposits take a reference, not a transaction hash',
    ],
    [
      { amount: 10, network: 'OFFCHAIN', offchain_reference: 'r'.repeat(129) },
      'offchain_reference',
      undefined,
    ],
    [{ network: 'TRC20', tx_hash: 'a'.repeat(64) }, 'amount', 'This field is required'],
    [
      { amount: 10, network: 'TRC20', tx_hash: 'a'.repeat(64), user_id: 1 },
      'user_id',
      'Unknown field',
    ],
  ])('refuses %j with a field error on %s', async (body, field, message) => {
    const user = await newUser(t);
    const res = await call<{ fields: Record<string, string[]> }>(
      t.app,
      'POST',
      '/api/auth/deposit/',
      { token: user.access, body },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields[field]).toBeDefined();
    if (message) expect(res.body.fields[field]).toContain(message);
  });
});

describe('GET /api/auth/balance/', () => {
  it('answers the balance and the rows latest first, paged and filtered by type', async () => {
    const user = await newUser(t);
    await adjust(t, user.email, '30', 'opening balance');
    for (let i = 0; i < 3; i++) {
      await call(t.app, 'POST', '/api/auth/deposit/', {
        token: user.access,
        body: { amount: 10 + i, network: 'TRC20', tx_hash: trc20Hash() },
      });
    }
    const all = await call<{
      balance: string;
      transactions: { type: string; amount: string; note: string | null }[];
      count: number;
    }>(t.app, 'GET', '/api/auth/balance/?page=1&page_size=2', { token: user.access });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ balance: '30.00000000', count: 4, page: 1, page_size: 2 });
    expect(all.body.transactions.map((r) => r.amount)).toEqual(['12.00000000', '11.00000000']);
    const second = await call<{ transactions: { type: string; note: string | null }[] }>(
      t.app,
      'GET',
      '/api/auth/balance/?page=2&page_size=2',
      { token: user.access },
    );
    expect(second.body.transactions.map((r) => r.type)).toEqual(['deposit', 'adjustment']);
    expect(second.body.transactions[1]?.note).toBe('opening balance');
    const deposits = await call<{ count: number }>(
      t.app,
      'GET',
      '/api/auth/balance/?type=deposit&page_size=5',
      { token: user.access },
    );
    expect(deposits.body.count).toBe(3);
  });

  it('refuses bad paging and unknown types', async () => {
    const user = await newUser(t);
    for (const query of ['page=0', 'page_size=101', 'type=gift', 'page=abc', 'sort=id']) {
      const res = await call(t.app, 'GET', `/api/auth/balance/?${query}`, { token: user.access });
      expect(res.status, query).toBe(400);
    }
  });

  it("shows only the caller's own rows", async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    await adjust(t, owner.email, '5');
    const res = await call<{ count: number; balance: string }>(t.app, 'GET', '/api/auth/balance/', {
      token: other.access,
    });
    expect(res.body).toMatchObject({ count: 0, balance: '0.00000000' });
  });
});
