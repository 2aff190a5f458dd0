import type { TransactionStatus, WalletTransaction } from '@quantsquare/contracts';
import { formatCoinAmount } from './money';

// Display helpers of the wallet area. Amounts stay decimal strings (formatted by money.ts).

/** "+12.50" for a credit, "−12.50" for a debit. */
export function signedAmount(
  transaction: Pick<WalletTransaction, 'direction' | 'amount'>,
  locale: string,
): string {
  const sign = transaction.direction === 'credit' ? '+' : '−';
  return `${sign}${formatCoinAmount(transaction.amount, locale)}`;
}

/** antd Tag colour of a transaction status. */
export function statusColor(status: TransactionStatus): string {
  switch (status) {
    case 'pending':
      return 'gold';
    case 'processing':
      return 'processing';
    case 'completed':
      return 'success';
    case 'failed':
      return 'error';
  }
}

/** A long hash or address shortened for a table cell: first 8 … last 6. */
export function shortHash(value: string | null | undefined): string {
  if (!value) return '—';
  return value.length <= 18 ? value : `${value.slice(0, 8)}…${value.slice(-6)}`;
}

/** Where a chain's transactions are looked up (off-chain transfers have no explorer). */
const EXPLORER_TX_URLS: Readonly<Record<string, (hash: string) => string>> = {
  TRC20: (hash) => `https://tronscan.org/#/transaction/${hash}`,
  BEP20: (hash) => `https://bscscan.com/tx/${hash}`,
};

/** The explorer page of `hash` on `network`; null off-chain or without a hash. */
export function explorerTxUrl(network: string | null, hash: string | null): string | null {
  if (!network || !hash) return null;
  const url = EXPLORER_TX_URLS[network];
  return url ? url(encodeURIComponent(hash)) : null;
}

/** What proves a deposit: its tx hash on-chain, its reference off-chain. */
export function depositProof(
  transaction: Pick<WalletTransaction, 'is_offchain' | 'tx_hash' | 'offchain_reference'>,
): string | null {
  return transaction.is_offchain ? transaction.offchain_reference : transaction.tx_hash;
}

/** The date part (YYYY-MM-DD) of an ISO time at UTC+8, as the spec shows times. */
export function formatDateUtc8(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '—';
  return new Date(ms + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
