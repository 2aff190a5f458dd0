import { and, asc, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type BotLiveComparisonRow,
  type BotRow,
  type BotTradeRow,
  botLiveComparisons,
  bots,
  botTrades,
  type ExchangeAccountRow,
  exchangeAccounts,
  users,
} from '../../db/schema/index.js';

export type NewBotRow = typeof bots.$inferInsert;

/** A bot with the exchange account it trades on. */
export interface BotWithAccount {
  readonly bot: BotRow;
  readonly account: ExchangeAccountRow;
}

/** Bots joined to their accounts. */
const withAccount = (db: Database) =>
  db
    .select({ bot: bots, account: exchangeAccounts })
    .from(bots)
    .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, bots.exchangeAccountId));

/** Bots: listed, created, started, stopped and deleted. */
function botRows(db: Database) {
  return {
    async listForUser(userId: number): Promise<BotWithAccount[]> {
      return withAccount(db).where(eq(bots.userId, userId)).orderBy(asc(bots.id));
    },
    /** The bot if `userId` owns it; another user's bot reads as missing. */
    async findOwned(userId: number, id: number): Promise<BotWithAccount | undefined> {
      const [row] = await withAccount(db).where(and(eq(bots.userId, userId), eq(bots.id, id)));
      return row;
    },
    async findOwnedAccount(userId: number, id: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeAccounts)
        .where(and(eq(exchangeAccounts.userId, userId), eq(exchangeAccounts.id, id)));
      return row;
    },
    /** The account's bots, newest first (at most `limit`). */
    async listForAccount(accountId: number, limit: number): Promise<BotRow[]> {
      return db
        .select()
        .from(bots)
        .where(eq(bots.exchangeAccountId, accountId))
        .orderBy(desc(bots.id))
        .limit(limit);
    },
    async findByAccountSymbol(accountId: number, symbol: string): Promise<BotRow | undefined> {
      const [row] = await db
        .select()
        .from(bots)
        .where(and(eq(bots.exchangeAccountId, accountId), eq(bots.symbol, symbol)));
      return row;
    },
    /** Inserts unless the (account, symbol) already has a bot: then answers undefined. */
    async insertUnlessTaken(values: NewBotRow): Promise<BotRow | undefined> {
      const [row] = await db.insert(bots).values(values).onConflictDoNothing().returning();
      return row;
    },
    async vipOf(
      userId: number,
    ): Promise<{ isVip: boolean; vipExpiresAt: Date | null } | undefined> {
      const [row] = await db
        .select({ isVip: users.isVip, vipExpiresAt: users.vipExpiresAt })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },
    /**
     * running, last error cleared, unless already running (then undefined). The first start
     * sets live_since.
     */
    async markRunning(id: number, now: Date): Promise<BotRow | undefined> {
      const [row] = await db
        .update(bots)
        .set({
          status: 'running',
          lastError: null,
          updatedAt: now,
          liveSince: sql`coalesce(${bots.liveSince}, ${now.toISOString()}::timestamptz)`,
        })
        .where(and(eq(bots.id, id), ne(bots.status, 'running')))
        .returning();
      return row;
    },
    /** running → stopped; answers false when the bot was not running. */
    async markStopped(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(bots)
        .set({ status: 'stopped', updatedAt: now })
        .where(and(eq(bots.id, id), eq(bots.status, 'running')))
        .returning({ id: bots.id });
      return rows.length > 0;
    },
    async markError(id: number, message: string, now: Date): Promise<void> {
      await db
        .update(bots)
        .set({ status: 'error', lastError: message, lastErrorAt: now, updatedAt: now })
        .where(eq(bots.id, id));
    },
  };
}

/** A bot's trades and its backtest-versus-live comparison. */
function botRecords(db: Database) {
  return {
    /** The bot's closed round trips (written by the bot engine), oldest first. */
    async tradesOf(botId: number): Promise<BotTradeRow[]> {
      return db
        .select()
        .from(botTrades)
        .where(eq(botTrades.botId, botId))
        .orderBy(asc(botTrades.openedAt), asc(botTrades.id));
    },
    /** Every bot that has ever been started, with its account. */
    async everLive(): Promise<BotWithAccount[]> {
      return withAccount(db).where(isNotNull(bots.liveSince)).orderBy(asc(bots.id));
    },
    async saveComparison(row: BotLiveComparisonRow): Promise<void> {
      const { botId: _botId, ...changes } = row;
      await db
        .insert(botLiveComparisons)
        .values(row)
        .onConflictDoUpdate({ target: botLiveComparisons.botId, set: changes });
    },
    async deleteComparison(botId: number): Promise<void> {
      await db.delete(botLiveComparisons).where(eq(botLiveComparisons.botId, botId));
    },
    async comparisons(): Promise<BotLiveComparisonRow[]> {
      return db.select().from(botLiveComparisons).orderBy(asc(botLiveComparisons.botId));
    },
    async comparisonsOfAccount(accountId: number): Promise<BotLiveComparisonRow[]> {
      return db
        .select()
        .from(botLiveComparisons)
        .where(eq(botLiveComparisons.accountId, accountId))
        .orderBy(asc(botLiveComparisons.botId));
    },
    /** Deletes the bot unless it is running; answers whether it was deleted. */
    async deleteUnlessRunning(id: number): Promise<boolean> {
      const rows = await db
        .delete(bots)
        .where(and(eq(bots.id, id), ne(bots.status, 'running')))
        .returning({ id: bots.id });
      return rows.length > 0;
    },
  };
}

export function createBotsRepository(db: Database) {
  return {
    ...botRows(db),
    ...botRecords(db),
  };
}
export type BotsRepository = ReturnType<typeof createBotsRepository>;
