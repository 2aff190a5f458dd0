import type { WalletTransaction } from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { WalletTransactionRow } from '../../db/schema/index.js';

export const fixed8 = (value: Decimal.Value): string => new Decimal(value).toFixed(8);

export function toWalletTransaction(row: WalletTransactionRow): WalletTransaction {
  const amount = new Decimal(row.amount);
  const fee = new Decimal(row.fee);
  return {
    id: row.id,
    type: row.type,
    direction: row.direction,
    amount: amount.toFixed(8),
    fee: fee.toFixed(8),
    net_amount: amount.minus(fee).toFixed(8),
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    network: row.network,
    tx_hash: row.txHash,
    is_offchain: row.isOffchain,
    offchain_reference: row.offchainReference,
    address: row.address,
    note: row.note,
  };
}
