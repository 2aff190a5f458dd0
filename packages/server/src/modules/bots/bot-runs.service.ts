import type { Database } from '../../db/database.js';
import { type BotRunsRepository, createBotRunsRepository } from './bot-runs.repository.js';

// The bots module is the one writer of `bots` (STYLE 15): the bot engine records a running bot's
// status, last candle and closed trades here. `db` may be the engine's transaction, so a closed
// trade is written with the fill that settled it, or not at all.

export type BotRuns = BotRunsRepository;

/** The bot-run writes bound to `db` (the database or a caller's transaction). */
export function botRunsOn(db: Database): BotRuns {
  return createBotRunsRepository(db);
}
