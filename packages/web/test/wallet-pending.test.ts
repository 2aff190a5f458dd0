import type { CoinBalanceResponse, WalletTransaction } from '@quantsquare/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { hasPendingRequest, walletKeys } from '../src/api/wallet';

function row(overrides: Partial<WalletTransaction>): WalletTransaction {
  return {
    id: 1,
    type: 'deposit',
    direction: 'credit',
    amount: '10.00000000',
    fee: '0.00000000',
    net_amount: '10.00000000',
    status: 'completed',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    network: 'TRC20',
    tx_hash: null,
    is_offchain: false,
    offchain_reference: null,
    address: null,
    note: null,
    ...overrides,
  };
}

function page(transactions: WalletTransaction[]): CoinBalanceResponse {
  return {
    balance: '10.00000000',
    transactions,
    count: transactions.length,
    page: 1,
    page_size: 5,
  };
}

describe('the shell knows when a request awaits staff', () => {
  it('is false with nothing cached or only settled rows', () => {
    const client = new QueryClient();
    expect(hasPendingRequest(client)).toBe(false);
    client.setQueryData(
      walletKeys.transactions({ page: 1, page_size: 5, type: 'deposit' }),
      page([row({}), row({ id: 2, status: 'failed' })]),
    );
    expect(hasPendingRequest(client)).toBe(false);
  });

  it('is true for a pending deposit or a processing withdrawal in any cached list', () => {
    const client = new QueryClient();
    client.setQueryData(
      walletKeys.transactions({ page: 1, page_size: 5 }),
      page([row({ type: 'withdraw', direction: 'debit', status: 'processing' })]),
    );
    expect(hasPendingRequest(client)).toBe(true);
    const other = new QueryClient();
    other.setQueryData(
      walletKeys.transactions({ page: 1, page_size: 5, type: 'deposit' }),
      page([row({ status: 'pending' })]),
    );
    expect(hasPendingRequest(other)).toBe(true);
  });

  it('ignores pending rows of other kinds', () => {
    const client = new QueryClient();
    client.setQueryData(
      walletKeys.transactions({ page: 1, page_size: 5 }),
      page([row({ type: 'copy_fee', direction: 'debit', status: 'pending' })]),
    );
    expect(hasPendingRequest(client)).toBe(false);
  });
});
