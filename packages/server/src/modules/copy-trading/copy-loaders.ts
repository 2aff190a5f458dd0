// The copy engine's reads and writes, batched: the relations a fan-out moves at once share one
// statement per step instead of one each.
import { createBatcher } from '../../common/batcher.js';
import type { CopyReceiptRow, NewCopyReceiptRow } from '../../db/schema/index.js';
import type {
  CopyBookRow,
  CopyTradingQueries,
  LeaderSymbolState,
} from './copy-trading.repository.js';

/** The engine's reads and writes, shared by the relations a fan-out moves at once. */
export function createCopyLoaders(repo: CopyTradingQueries) {
  const options = { maxSize: 1000 };
  const keyOf = (relationId: number, text: string) => `${relationId}|${text}`;
  return {
    /** Active and paused relations copying an account (every fill's event asks: most none). */
    copiersOf: createBatcher(async (accountIds: readonly number[]) => {
      const rows = await repo.relationsOfLeaders([...new Set(accountIds)], ['active', 'paused']);
      return accountIds.map((id) => rows.filter((r) => r.leaderAccountId === id));
    }, options),
    relation: createBatcher(async (ids: readonly number[]) => {
      const rows = new Map((await repo.relationsByIds([...new Set(ids)])).map((r) => [r.id, r]));
      return ids.map((id) => rows.get(id));
    }, options),
    leaderBook: createBatcher(async (accountIds: readonly number[]) => {
      const books = await repo.leaderBooks([...new Set(accountIds)]);
      return accountIds.map((id): readonly LeaderSymbolState[] => books.get(id) ?? []);
    }, options),
    receipt: createBatcher(
      async (changes: readonly { relationId: number; changeKey: string }[]) => {
        const rows = new Map(
          (await repo.receiptsOfChanges(changes)).map((r) => [keyOf(r.relationId, r.changeKey), r]),
        );
        return changes.map((c) => rows.get(keyOf(c.relationId, c.changeKey)));
      },
      options,
    ),
    /** The two latest receipts of a relation on a symbol, newest first. */
    latestOnSymbol: createBatcher(
      async (pairs: readonly { relationId: number; symbol: string }[]) => {
        const bySymbol = new Map<string, CopyReceiptRow[]>();
        for (const row of await repo.latestReceiptsOnSymbols(pairs)) {
          const key = keyOf(row.relationId, row.symbol);
          bySymbol.set(key, [...(bySymbol.get(key) ?? []), row]);
        }
        return pairs.map((p) => bySymbol.get(keyOf(p.relationId, p.symbol)) ?? []);
      },
      options,
    ),
    copyBook: createBatcher(
      async (relations: readonly { relationId: number; followerAccountId: number }[]) => {
        const books = await repo.copyBooks(relations);
        return relations.map((r): readonly CopyBookRow[] => books.get(r.relationId) ?? []);
      },
      options,
    ),
    saveReceipt: createBatcher(async (rows: readonly NewCopyReceiptRow[]) => {
      // One row per (relation, change) in a statement: the last one given wins.
      const last = new Map(rows.map((r) => [keyOf(r.relationId, r.changeKey), r]));
      const saved = new Map(
        (await repo.saveReceipts([...last.values()])).map((r) => [
          keyOf(r.relationId, r.changeKey),
          r,
        ]),
      );
      return rows.map((r) => saved.get(keyOf(r.relationId, r.changeKey)) as CopyReceiptRow);
    }, options),
    figures: createBatcher(
      async (items: readonly { id: number; totalProfitLoss: string; clearError: boolean }[]) => {
        const last = new Map(items.map((i) => [i.id, i]));
        const saved = new Map((await repo.saveFigures([...last.values()])).map((r) => [r.id, r]));
        return items.map((i) => saved.get(i.id));
      },
      options,
    ),
  };
}
export type CopyLoaders = ReturnType<typeof createCopyLoaders>;
