import { desc, eq, sql } from 'drizzle-orm';
import { tuplesIn, unnestRows } from '../../db/batch-sql.js';
import type { Database } from '../../db/database.js';
import {
  type CopyReceiptRow,
  type CopyRelationRow,
  copyReceipts,
  copyRelations,
  type NewCopyReceiptRow,
} from '../../db/schema/index.js';

// Copy receipts (one per copied change: what was sent, filled or missed, and why) and the
// relation figures kept beside them.

export function receiptQueries(db: Database) {
  return {
    /** The receipts of these (relation, change) pairs. */
    async receiptsOfChanges(
      changes: readonly { relationId: number; changeKey: string }[],
    ): Promise<CopyReceiptRow[]> {
      if (changes.length === 0) return [];
      return db
        .select()
        .from(copyReceipts)
        .where(
          tuplesIn(
            [copyReceipts.relationId, copyReceipts.changeKey],
            changes.map((c) => [c.relationId, c.changeKey]),
          ),
        );
    },

    /** Per (relation, symbol), its two latest receipts on the symbol, newest first. */
    async latestReceiptsOnSymbols(
      pairs: readonly { relationId: number; symbol: string }[],
    ): Promise<CopyReceiptRow[]> {
      if (pairs.length === 0) return [];
      const ranked = db
        .select({
          id: copyReceipts.id,
          rank: sql<number>`row_number() over (partition by ${copyReceipts.relationId}, ${copyReceipts.symbol} order by ${copyReceipts.createdAt} desc, ${copyReceipts.id} desc)`.as(
            'rank',
          ),
        })
        .from(copyReceipts)
        .where(
          tuplesIn(
            [copyReceipts.relationId, copyReceipts.symbol],
            pairs.map((p) => [p.relationId, p.symbol]),
          ),
        )
        .as('ranked');
      return db
        .select({ receipt: copyReceipts })
        .from(copyReceipts)
        .innerJoin(ranked, eq(ranked.id, copyReceipts.id))
        .where(sql`${ranked.rank} <= 2`)
        .orderBy(desc(copyReceipts.createdAt), desc(copyReceipts.id))
        .then((rows) => rows.map((r) => r.receipt));
    },

    /**
     * Writes receipts (one per relation and change; a retry overwrites it) in one statement.
     * Each (relation, change) at most once per call.
     */
    async saveReceipts(rows: readonly NewCopyReceiptRow[]): Promise<CopyReceiptRow[]> {
      if (rows.length === 0) return [];
      const excluded = (column: string) => sql.raw(`excluded.${column}`);
      return db
        .insert(copyReceipts)
        .select(unnestRows(copyReceipts, rows))
        .onConflictDoUpdate({
          target: [copyReceipts.relationId, copyReceipts.changeKey],
          set: {
            targetSize: excluded('target_size'),
            followerSizeDelta: excluded('follower_size_delta'),
            followerPrice: excluded('follower_price'),
            slippageBps: excluded('slippage_bps'),
            delayMs: excluded('delay_ms'),
            status: excluded('status'),
            missReason: excluded('miss_reason'),
            errorKind: excluded('error_kind'),
            attempts: excluded('attempts'),
            relationPnl: excluded('relation_pnl'),
            updatedAt: excluded('updated_at'),
          },
        })
        .returning();
    },

    /**
     * Saves relations' copied P&L and their copied-trade count (counted from their receipts), and
     * clears the last error where asked; one statement for all.
     */
    async saveFigures(
      items: readonly { id: number; totalProfitLoss: string; clearError: boolean }[],
    ): Promise<CopyRelationRow[]> {
      if (items.length === 0) return [];
      const ids = sql.param(items.map((i) => i.id));
      const pnls = sql.param(items.map((i) => i.totalProfitLoss));
      const clears = sql.param(items.map((i) => i.clearError));
      return db
        .update(copyRelations)
        .set({
          totalProfitLoss: sql`u.pnl`,
          totalCopiedTrades: sql`(select count(*)::integer from ${copyReceipts} where ${copyReceipts.relationId} = ${copyRelations.id} and ${copyReceipts.status} = 'copied' and ${copyReceipts.followerSizeDelta} <> 0)`,
          lastError: sql`case when u.clear then null else ${copyRelations.lastError} end`,
          lastErrorAt: sql`case when u.clear then null else ${copyRelations.lastErrorAt} end`,
        })
        .from(
          sql`unnest(${ids}::integer[], ${pnls}::numeric[], ${clears}::boolean[]) as u(id, pnl, clear)`,
        )
        .where(sql`${copyRelations.id} = u.id`)
        .returning();
    },

    async receipts(relationId: number, limit = 200): Promise<CopyReceiptRow[]> {
      return db
        .select()
        .from(copyReceipts)
        .where(eq(copyReceipts.relationId, relationId))
        .orderBy(desc(copyReceipts.createdAt), desc(copyReceipts.id))
        .limit(limit);
    },
  };
}
