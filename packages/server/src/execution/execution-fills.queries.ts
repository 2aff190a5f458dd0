import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { tuplesIn, unnestRows } from '../db/batch-sql.js';
import type { Database } from '../db/database.js';
import {
  executionFills,
  executionLeverages,
  type NewExecutionFillRow,
} from '../db/schema/index.js';
import type { SymbolKey } from './execution.repository.js';

// The execution core's queries on fills and on the leverage set per account and symbol.

export function fillQueries(db: Database) {
  return {
    /** Writes the fills not in the ledger yet; answers which (account, venue trade id) were new. */
    async insertFills(
      rows: readonly NewExecutionFillRow[],
    ): Promise<{ accountId: number; venueTradeId: string }[]> {
      if (rows.length === 0) return [];
      return db
        .insert(executionFills)
        .select(unnestRows(executionFills, rows))
        .onConflictDoNothing({ target: [executionFills.accountId, executionFills.venueTradeId] })
        .returning({
          accountId: executionFills.accountId,
          venueTradeId: executionFills.venueTradeId,
        });
    },

    /** An account's fills at or after `since`, oldest first. */
    async fillsOfAccountSince(accountId: number, since: Date) {
      // Only what a replay reads: a year of fills parses in a fraction of the full rows' time.
      return db
        .select({
          orderId: executionFills.orderId,
          symbol: executionFills.symbol,
          side: executionFills.side,
          amount: executionFills.amount,
          price: executionFills.price,
          feeQuote: executionFills.feeQuote,
          filledAt: executionFills.filledAt,
        })
        .from(executionFills)
        .where(and(eq(executionFills.accountId, accountId), gte(executionFills.filledAt, since)))
        .orderBy(asc(executionFills.filledAt), asc(executionFills.id));
    },

    async leverages(
      keys: readonly SymbolKey[],
    ): Promise<(typeof executionLeverages.$inferSelect)[]> {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(executionLeverages)
        .where(
          tuplesIn(
            [executionLeverages.accountId, executionLeverages.symbol],
            keys.map((k) => [k.accountId, k.symbol]),
          ),
        );
    },

    /** Records the leverage set on each (account, symbol): one statement for the batch. */
    async saveLeverages(
      rows: readonly { accountId: number; symbol: string; leverage: number; setAt: Date }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      // One row per key (the last wins): an upsert may not touch one row twice.
      const unique = [
        ...new Map(rows.map((row) => [`${row.accountId}|${row.symbol}`, row])).values(),
      ];
      await db
        .insert(executionLeverages)
        .select(unnestRows(executionLeverages, unique))
        .onConflictDoUpdate({
          target: [executionLeverages.accountId, executionLeverages.symbol],
          set: { leverage: sql`excluded.leverage`, setAt: sql`excluded.set_at` },
        });
    },
  };
}
