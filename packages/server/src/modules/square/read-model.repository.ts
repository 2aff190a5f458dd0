import { applyTradeToBook, FLAT_TRADE_BOOK, type TradeBookPosition } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { and, eq, inArray, like, max, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/pg-errors.js';
import {
  exchangeAccounts,
  type StrategyTradeRow,
  strategyPositions,
  strategyTrades,
} from '../../db/schema/index.js';
import type { EventPayloads } from '../../events/index.js';

type Fill = EventPayloads['OrderFilled'];

/** Event ids of fills imported from an exchange's trade history (not from the event bus). */
export const EXCHANGE_EVENT_PREFIX = 'exchange:';
type PositionChange = EventPayloads['PositionChanged'];

const ownerKey = (e: { accountId: number; symbol: string; owner: Fill['owner'] }) =>
  and(
    eq(strategyPositions.accountId, e.accountId),
    eq(strategyPositions.symbol, e.symbol),
    eq(strategyPositions.ownerKind, e.owner.kind),
    eq(strategyPositions.ownerId, e.owner.id),
  );

/** Fills of a shared account, recorded once per event as the square's trades. */
function fillRecords(db: Database) {
  return {
    /**
     * Records a fill once (a repeated event id is ignored: answers null) and applies it to its
     * owner's average-cost position, in one transaction with the position row locked. A fill the
     * position already reflects (its PositionChanged came first) realises against the entry the
     * position had, and leaves the position as it is.
     */
    async recordFill(eventId: string, fill: Fill): Promise<StrategyTradeRow | null> {
      return db.transaction(async (tx) => {
        // The account first, as its deletion locks it before the rows it cascades to: the two
        // then wait for each other in one order instead of deadlocking. A deleted account's
        // fill has nothing left to record.
        const [account] = await tx
          .select({ id: exchangeAccounts.id })
          .from(exchangeAccounts)
          .where(eq(exchangeAccounts.id, fill.accountId))
          .for('key share');
        if (!account) return null;
        // An order the exchange history import already brought in is not counted twice.
        if (!eventId.startsWith(EXCHANGE_EVENT_PREFIX)) {
          const [imported] = await tx
            .select({ id: strategyTrades.id })
            .from(strategyTrades)
            .where(
              and(
                eq(strategyTrades.accountId, fill.accountId),
                eq(strategyTrades.exchangeOrderId, fill.exchangeOrderId),
                like(strategyTrades.eventId, `${EXCHANGE_EVENT_PREFIX}%`),
              ),
            )
            .limit(1);
          if (imported) return null;
        }
        const [existing] = await tx
          .select()
          .from(strategyPositions)
          .where(ownerKey(fill))
          .for('update');
        const before: TradeBookPosition = existing
          ? { size: existing.size, entryPrice: existing.entryPrice }
          : FLAT_TRADE_BOOK;
        const isReflected = existing !== undefined && existing.updatedAtMs > fill.filledAtMs;
        let realizedPnl: string | null;
        let after = before;
        if (isReflected) {
          const entry = existing.entryPrice ?? existing.lastEntryPrice;
          const direction = fill.side === 'sell' ? 1 : -1;
          realizedPnl =
            fill.reduceOnly && entry !== null
              ? new Decimal(fill.price).minus(entry).times(fill.amount).times(direction).toString()
              : null;
        } else {
          const outcome = applyTradeToBook(before, fill);
          realizedPnl = outcome.realizedPnl;
          after = outcome.position;
        }
        const [trade] = await tx
          .insert(strategyTrades)
          .values({
            accountId: fill.accountId,
            eventId,
            ownerKind: fill.owner.kind,
            ownerId: fill.owner.id,
            symbol: fill.symbol,
            side: fill.side,
            amount: String(fill.amount),
            price: String(fill.price),
            fee: String(fill.fee),
            realizedPnl,
            exchangeOrderId: fill.exchangeOrderId,
            filledAt: new Date(fill.filledAtMs),
          })
          .onConflictDoNothing()
          .returning();
        if (!trade) return null;
        if (!isReflected) {
          const values = {
            size: after.size,
            entryPrice: after.entryPrice,
            lastEntryPrice:
              after.entryPrice ?? before.entryPrice ?? existing?.lastEntryPrice ?? null,
            updatedAtMs: fill.filledAtMs,
          };
          await tx
            .insert(strategyPositions)
            .values({
              accountId: fill.accountId,
              symbol: fill.symbol,
              ownerKind: fill.owner.kind,
              ownerId: fill.owner.id,
              ...values,
            })
            .onConflictDoUpdate({
              target: [
                strategyPositions.accountId,
                strategyPositions.symbol,
                strategyPositions.ownerKind,
                strategyPositions.ownerId,
              ],
              set: values,
            });
        }
        return trade;
      });
    },
  };
}

/** What was imported already, and position changes. */
function importState(db: Database) {
  return {
    /** Which of these exchange order ids the account's fills already have. */
    async knownOrderIds(accountId: number, orderIds: readonly string[]): Promise<Set<string>> {
      if (orderIds.length === 0) return new Set();
      const rows = await db
        .select({ id: strategyTrades.exchangeOrderId })
        .from(strategyTrades)
        .where(
          and(
            eq(strategyTrades.accountId, accountId),
            inArray(strategyTrades.exchangeOrderId, [...orderIds]),
          ),
        );
      return new Set(rows.map((r) => r.id));
    },
    /** Symbols the account has traded or holds (read model). */
    async symbolsOf(accountId: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ symbol: strategyTrades.symbol })
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId));
      return rows.map((r) => r.symbol);
    },
    /** Time of the newest fill imported from the exchange's history (ms), if any. */
    async lastImportedMs(accountId: number): Promise<number | null> {
      const [row] = await db
        .select({ at: max(strategyTrades.filledAt) })
        .from(strategyTrades)
        .where(
          and(
            eq(strategyTrades.accountId, accountId),
            like(strategyTrades.eventId, `${EXCHANGE_EVENT_PREFIX}%`),
          ),
        );
      return row?.at ? new Date(row.at).getTime() : null;
    },

    /**
     * The execution core's word on an owner's position; an older change than what we hold, or
     * one of an account deleted since, is ignored.
     */
    async recordPositionChange(change: PositionChange): Promise<boolean> {
      const entryPrice = change.size === 0 ? null : String(change.entryPrice ?? 0);
      const rows = await db
        .insert(strategyPositions)
        .values({
          accountId: change.accountId,
          symbol: change.symbol,
          ownerKind: change.owner.kind,
          ownerId: change.owner.id,
          size: String(change.size),
          entryPrice,
          lastEntryPrice: entryPrice,
          updatedAtMs: change.changedAtMs,
        })
        .onConflictDoUpdate({
          target: [
            strategyPositions.accountId,
            strategyPositions.symbol,
            strategyPositions.ownerKind,
            strategyPositions.ownerId,
          ],
          set: {
            size: String(change.size),
            entryPrice,
            lastEntryPrice: sql`coalesce(${entryPrice}::numeric, ${strategyPositions.entryPrice}, ${strategyPositions.lastEntryPrice})`,
            updatedAtMs: change.changedAtMs,
          },
          setWhere: sql`${strategyPositions.updatedAtMs} <= ${change.changedAtMs}`,
        })
        .returning({ accountId: strategyPositions.accountId })
        .catch((error: unknown) => {
          if (isForeignKeyViolation(error)) return [];
          throw error;
        });
      return rows.length > 0;
    },
  };
}

/**
 * The square's own read model of every account's fills and positions, written from the event
 * bus (never from the execution core's tables).
 */
export function createReadModelRepository(db: Database) {
  return {
    ...fillRecords(db),
    ...importState(db),
  };
}
export type ReadModelRepository = ReturnType<typeof createReadModelRepository>;
