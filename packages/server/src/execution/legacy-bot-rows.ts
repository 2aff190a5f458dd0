import { Decimal } from 'decimal.js';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import {
  botOrders,
  botPositions,
  bots,
  executionOrders,
  executionPositions,
} from '../db/schema/index.js';

// Upgrading a running deployment: bots of the version before the execution core kept their
// intents and positions in bot_orders / bot_positions. At start-up those rows move into the
// core's tables (same client order ids, so a pending one is looked up, never resent), in one
// transaction, and the old rows are deleted. Nothing is lost whichever version ran last.

const TRIGGER_TYPES = { stop_loss: 'stop_market', take_profit: 'take_profit_market' } as const;

/**
 * The legacy statuses in the order state machine's words. A legacy pending order may have been
 * sent (that version wrote no claim): in doubt, looked up, never resent.
 */
const LEGACY_STATES = {
  pending: 'in_doubt',
  unknown: 'in_doubt',
  open: 'accepted',
  filled: 'filled',
  canceled: 'canceled',
  failed: 'rejected',
} as const;

/** Moves legacy bot rows into the core's tables; answers how many rows moved. */
export async function adoptLegacyBotRows(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const orders = await tx
      .select({ order: botOrders, bot: bots })
      .from(botOrders)
      .innerJoin(bots, eq(bots.id, botOrders.botId))
      .for('update');
    const positions = await tx
      .select({ position: botPositions, bot: bots })
      .from(botPositions)
      .innerJoin(bots, eq(bots.id, botPositions.botId))
      .for('update');
    if (orders.length === 0 && positions.length === 0) return 0;
    if (orders.length > 0) {
      await tx
        .insert(executionOrders)
        .values(
          orders.map(({ order, bot }) => ({
            accountId: bot.exchangeAccountId,
            symbol: bot.symbol,
            ownerKind: 'bot' as const,
            ownerId: bot.id,
            // Legacy ids are qs{bot}{key}: the same key gives the same client order id.
            idempotencyKey: order.clientOrderId.slice(`qs${bot.id}`.length),
            clientOrderId: order.clientOrderId,
            action: order.action,
            side: order.side,
            type:
              order.action === 'stop_loss' || order.action === 'take_profit'
                ? TRIGGER_TYPES[order.action]
                : ('market' as const),
            amount: order.amount,
            reduceOnly: order.reduceOnly === 1,
            status: LEGACY_STATES[order.status],
            exchangeOrderId: order.exchangeOrderId,
            filledAmount: order.filledAmount,
            averagePrice: order.averagePrice,
            fee: order.fee,
            error: order.error,
            createdAt: order.createdAt,
            updatedAt: order.updatedAt,
          })),
        )
        .onConflictDoNothing();
      await tx.delete(botOrders);
    }
    if (positions.length > 0) {
      await tx
        .insert(executionPositions)
        .values(
          positions.map(({ position, bot }) => ({
            accountId: bot.exchangeAccountId,
            symbol: bot.symbol,
            ownerKind: 'bot' as const,
            ownerId: bot.id,
            size: new Decimal(position.amount).times(position.side === 'long' ? 1 : -1).toString(),
            entryPrice: position.entryPrice,
            entryFee: position.entryFee,
            openedAt: position.openedAt,
            stopLoss: position.stopLoss,
            takeProfit: position.takeProfit,
            stopLossOrderId: position.stopLossOrderId,
            takeProfitOrderId: position.takeProfitOrderId,
            updatedAt: position.openedAt,
          })),
        )
        .onConflictDoNothing();
      await tx.delete(botPositions);
    }
    return orders.length + positions.length;
  });
}
