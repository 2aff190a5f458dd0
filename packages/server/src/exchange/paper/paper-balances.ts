import type { Database } from '../../db/database.js';

/** A paper account's new USDT balance, as a fill leaves it. */
export interface PaperBalanceChange {
  readonly accountId: number;
  readonly paperBalance: string;
  readonly at: Date;
}

/**
 * Writes paper accounts' balances. Their rows are the accounts module's (the one writer of
 * `exchange_accounts`), which the composition root passes in; `db` is the fill's transaction, so
 * a balance changes with its fills and positions or not at all.
 */
export type PaperBalanceWriter = (
  db: Database,
  changes: readonly PaperBalanceChange[],
) => Promise<void>;
