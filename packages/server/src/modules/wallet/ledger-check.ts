import Decimal from 'decimal.js';
import type { Database } from '../../db/database.js';
import { walletQueries } from './wallet.repository.js';

export interface LedgerMismatch {
  userId: number;
  /** The e-mail, or the username (phone) for phone accounts. */
  who: string;
  balance: string;
  ledger: string;
  difference: string;
}

export interface LedgerCheck {
  users: number;
  rows: number;
  mismatches: LedgerMismatch[];
}

/** The most mismatches one check reports (the first ones by user id). */
const REPORT_LIMIT = 1000;

/**
 * Verifies every user's balance against the ledger: balance = completed credits − debits that
 * are pending, processing or completed (a withdrawal is debited until it fails).
 */
export async function checkLedger(db: Database): Promise<LedgerCheck> {
  const q = walletQueries(db);
  const [size, rows] = await Promise.all([q.ledgerSize(), q.ledgerMismatches(REPORT_LIMIT)]);
  return {
    users: size.users,
    rows: size.rows,
    mismatches: rows.map((r) => ({
      userId: r.userId,
      who: r.email ?? r.username,
      balance: new Decimal(r.balance).toFixed(8),
      ledger: new Decimal(r.ledger).toFixed(8),
      difference: new Decimal(r.balance).minus(r.ledger).toFixed(8),
    })),
  };
}

export function describeMismatch(m: LedgerMismatch): string {
  return `user ${m.userId} ${m.who}: balance ${m.balance}, ledger ${m.ledger} (difference ${m.difference})`;
}
