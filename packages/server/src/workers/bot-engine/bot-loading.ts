import type { CompiledStrategy } from '@quantsquare/engine';
import type { BotRow, ExchangeAccountRow } from '../../db/schema/index.js';
import { botProtections, NO_PROTECTIONS } from '../../modules/bots/bot-protections.js';
import { type BotStrategy, compileBotStrategy } from './bot-decision.js';
import type { RunningBot } from './bot-engine.types.js';

function compileOrNull(strategy: BotStrategy): CompiledStrategy | null {
  try {
    return compileBotStrategy(strategy);
  } catch {
    return null;
  }
}

/**
 * A bot as the engine drives it. `forTrading` compiles its strategy and reads its SL/TP; a bot
 * loaded only to be stopped needs neither.
 */
export function toRunningBot(
  bot: BotRow,
  account: ExchangeAccountRow,
  forTrading: boolean,
  /** A user's rule set (`custom:<id>`), compiled by the user-strategies module; null if gone. */
  custom?: CompiledStrategy | null,
): RunningBot {
  const strategy = { strategyType: bot.strategyType, strategyParameters: bot.strategyParameters };
  const compiled = !forTrading ? null : custom !== undefined ? custom : compileOrNull(strategy);
  // The bot's own levels first, else the ones its rule set carries (as in a backtest); a bot
  // loaded only to be stopped needs none.
  const levels = forTrading ? botProtections(bot, compiled?.protections) : NO_PROTECTIONS;
  return {
    id: bot.id,
    userId: bot.userId,
    symbol: bot.symbol,
    exchange: account.exchange,
    timeframe: bot.timeframe,
    strategy,
    compiled,
    tradeAmount: Number(bot.tradeAmount),
    ...levels,
    account,
    lastCandleTimeMs: bot.lastCandleTimeMs ?? 0,
    position: null,
    isRemoved: false,
  };
}
