import type { OperationLogEvent } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type BotRow,
  bots,
  type ExchangeAccountRow,
  exchangeAccounts,
} from '../../db/schema/index.js';
import { botRunsOn } from '../../modules/bots/bot-runs.service.js';

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

/**
 * The only file of the engine that reads the database: the bots it drives. Their writes go
 * through the bots module, its log entries through the operation-log module, its orders and
 * positions through the execution core.
 */
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

    // The bots' own rows are the bots module's (their one writer); the engine asks it.
    ...botRunsOn(db),
  };
}
export type BotEngineRepository = ReturnType<typeof createBotEngineRepository>;
