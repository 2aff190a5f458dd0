import type { Database } from '../../db/database.js';
import type { PaperBalanceWriter } from '../../exchange/paper/paper-balances.js';
import { createExchangeAccountsRepository } from './exchange-accounts.repository.js';

// The accounts module is the one writer of `exchange_accounts` (STYLE 15). The paper desk sets
// paper balances and the secret-key rotation re-encrypts keys here; `db` is their transaction.

/** Paper balances as the paper desk writes them (the composition root passes this to it). */
export const writePaperBalances: PaperBalanceWriter = (db, changes) =>
  createExchangeAccountsRepository(db).setPaperBalances(changes);

/** Replaces an account's stored key (the admin's secret-key rotation, in its transaction). */
export function setStoredAccountKey(
  db: Database,
  accountId: number,
  field: 'apiKeyEncrypted' | 'apiSecretEncrypted' | 'apiPasswordEncrypted',
  stored: string,
): Promise<void> {
  return createExchangeAccountsRepository(db).setStoredKey(accountId, field, stored);
}
