import type { OperationLogEvent } from '@quantsquare/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type BotOrderRow,
  type BotPositionRow,
  type BotRow,
  botOrders,
  botPositions,
  bots,
  botTrades,
  type ExchangeAccountRow,
  exchangeAccounts,
  operationLogs,
} from '../../db/schema/index.js';

/** An operation-log row as the engine writes it. */
export interface OperationLogEntry {
  readonly userId: number;
  readonly botId?: number;
  readonly type: 'bot_action' | 'trade' | 'error' | 'system';
  readonly botSymbol?: string;
  readonly event: OperationLogEvent;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

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

export type NewIntent = Pick<
  BotOrderRow,
  'botId' | 'clientOrderId' | 'candleTimeMs' | 'action' | 'side' | 'amount' | 'reduceOnly'
>;

/** The only file of the engine that touches the database. */
export function createBotEngineRepository(db: Database) {
  return {
    async botWithAccount(
      botId: number,
    ): Promise<{ bot: BotRow; account: ExchangeAccountRow } | undefined> {
      const rows = await db
        .select({ bot: bots, account: exchangeAccounts })
        .from(bots)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, bots.exchangeAccountId))
        .where(eq(bots.id, botId));
      return rows[0];
    },

    async runningBotIds(): Promise<number[]> {
      const rows = await db.select({ id: bots.id }).from(bots).where(eq(bots.status, 'running'));
      return rows.map((r) => r.id);
    },

    async position(botId: number): Promise<BotPositionRow | undefined> {
      const rows = await db.select().from(botPositions).where(eq(botPositions.botId, botId));
      return rows[0];
    },

    async savePosition(row: Omit<BotPositionRow, 'id'>): Promise<void> {
      await db
        .insert(botPositions)
        .values(row)
        .onConflictDoUpdate({ target: botPositions.botId, set: row });
    },

    async setProtectiveOrderIds(
      botId: number,
      ids: { stopLossOrderId?: string | null; takeProfitOrderId?: string | null },
    ): Promise<void> {
      await db.update(botPositions).set(ids).where(eq(botPositions.botId, botId));
    },

    /** Writes the intent; an existing intent with the same client id is answered instead. */
    async insertIntent(intent: NewIntent, now: Date): Promise<BotOrderRow> {
      await db
        .insert(botOrders)
        .values({ ...intent, status: 'pending', createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: botOrders.clientOrderId });
      const rows = await db
        .select()
        .from(botOrders)
        .where(eq(botOrders.clientOrderId, intent.clientOrderId));
      const row = rows[0];
      if (!row) throw new Error(`intent ${intent.clientOrderId} vanished`);
      return row;
    },

    async unsettledIntents(botId: number): Promise<BotOrderRow[]> {
      return db
        .select()
        .from(botOrders)
        .where(and(eq(botOrders.botId, botId), inArray(botOrders.status, ['pending', 'unknown'])))
        .orderBy(botOrders.id);
    },

    async intentsByBot(botId: number): Promise<BotOrderRow[]> {
      return db.select().from(botOrders).where(eq(botOrders.botId, botId)).orderBy(botOrders.id);
    },

    async updateIntent(
      id: number,
      fields: Partial<
        Pick<
          BotOrderRow,
          'status' | 'exchangeOrderId' | 'filledAmount' | 'averagePrice' | 'fee' | 'error'
        >
      >,
      now: Date,
    ): Promise<void> {
      await db
        .update(botOrders)
        .set({ ...fields, updatedAt: now })
        .where(eq(botOrders.id, id));
    },

    /** The trade row, the bot's statistics and the end of its position: one transaction. */
    async recordClosedTrade(trade: ClosedTrade): Promise<void> {
      const isWin = Number(trade.pnl) > 0;
      const isLoss = Number(trade.pnl) < 0;
      await db.transaction(async (tx) => {
        await tx.insert(botTrades).values(trade);
        await tx
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
        await tx.delete(botPositions).where(eq(botPositions.botId, trade.botId));
      });
    },

    async setLastCandle(botId: number, candleTimeMs: number): Promise<void> {
      await db.update(bots).set({ lastCandleTimeMs: candleTimeMs }).where(eq(bots.id, botId));
    },

    async markError(botId: number, message: string, at: Date): Promise<void> {
      await db
        .update(bots)
        .set({ status: 'error', lastError: message, lastErrorAt: at, updatedAt: at })
        .where(eq(bots.id, botId));
    },

    async writeLog(entry: OperationLogEntry, at: Date): Promise<void> {
      await db.insert(operationLogs).values({
        userId: entry.userId,
        botId: entry.botId ?? null,
        type: entry.type,
        botSymbol: entry.botSymbol ?? null,
        event: entry.event,
        message: entry.message,
        details: entry.details ?? {},
        createdAt: at,
      });
    },
  };
}
export type BotEngineRepository = ReturnType<typeof createBotEngineRepository>;
