import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { bots, botTrades } from '../../db/schema/index.js';

export interface ClosedTrade {
  readonly botId: number;
  readonly side: 'long' | 'short';
  readonly amount: string;
  readonly entryPrice: string;
  readonly exitPrice: string;
  readonly pnl: string;
  readonly fee: string;
  readonly reason: 'signal' | 'stop_loss' | 'take_profit' | 'manual';
  readonly openedAt: Date;
  readonly closedAt: Date;
}

/** The bot engine's writes to the rows of the bots it drives (status, last candle, trades). */
export function createBotRunsRepository(db: Database) {
  return {
    /**
     * The trade row and the bot's statistics (bound to the settlement's transaction, so they
     * are written with the fill or not at all).
     */
    async recordClosedTrade(trade: ClosedTrade): Promise<void> {
      const isWin = Number(trade.pnl) > 0;
      const isLoss = Number(trade.pnl) < 0;
      await db.insert(botTrades).values(trade);
      await db
        .update(bots)
        .set({
          totalTrades: sql`${bots.totalTrades} + 1`,
          winningTrades: sql`${bots.winningTrades} + ${isWin ? 1 : 0}`,
          losingTrades: sql`${bots.losingTrades} + ${isLoss ? 1 : 0}`,
          totalProfitLoss: sql`${bots.totalProfitLoss} + ${trade.pnl}::numeric`,
          lastTradeAt: trade.closedAt,
          updatedAt: trade.closedAt,
        })
        .where(eq(bots.id, trade.botId));
    },

    async setLastCandle(botId: number, candleTimeMs: number): Promise<void> {
      await db.update(bots).set({ lastCandleTimeMs: candleTimeMs }).where(eq(bots.id, botId));
    },

    /** Stopped by the platform (its account's risk gate): the reason kept as its last error. */
    async markStoppedFor(botId: number, message: string, at: Date): Promise<void> {
      await db
        .update(bots)
        .set({ status: 'stopped', lastError: message, lastErrorAt: at, updatedAt: at })
        .where(eq(bots.id, botId));
    },

    async markError(botId: number, message: string, at: Date): Promise<void> {
      await db
        .update(bots)
        .set({ status: 'error', lastError: message, lastErrorAt: at, updatedAt: at })
        .where(eq(bots.id, botId));
    },
  };
}
export type BotRunsRepository = ReturnType<typeof createBotRunsRepository>;
