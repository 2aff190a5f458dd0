import { Decimal } from 'decimal.js';
import type { Database } from '../../db/database.js';
import type { Settlement } from '../../execution/index.js';
import { createBotEngineRepository } from './bot-engine.repository.js';
import { closeReasonOf } from './client-order-id.js';

/**
 * The bots' settlement hook: a fill that closes (part of) a bot's position is a round trip —
 * its trade row and the bot's statistics, written in the fill's own transaction (pnl net of the
 * entry and exit fees, as the backtest counts it).
 */
export async function recordBotSettlement(tx: Database, settlement: Settlement): Promise<void> {
  const { applied } = settlement;
  if (applied.closedAmount.isZero()) return;
  const fee = applied.closedEntryFee.plus(applied.closingFee);
  await createBotEngineRepository(tx).recordClosedTrade({
    botId: settlement.intent.ownerId,
    side: applied.closedDirection > 0 ? 'long' : 'short',
    amount: applied.closedAmount.toString(),
    entryPrice: applied.closedEntryPrice.toString(),
    exitPrice: new Decimal(settlement.price).toString(),
    pnl: applied.realizedPnl.toFixed(10),
    fee: fee.toFixed(10),
    reason: closeReasonOf(settlement.intent.action, settlement.intent.idempotencyKey),
    openedAt: settlement.before.openedAt ?? settlement.filledAt,
    closedAt: settlement.filledAt,
  });
}
