import type { CompiledStrategy } from '@quantsquare/engine';
import type { BotRow, ExchangeAccountRow } from '../../db/schema/index.js';
import { type BotStrategy, compileBotStrategy } from './bot-decision.js';
import type { RunningBot } from './bot-engine.types.js';

function compileOrNull(strategy: BotStrategy): CompiledStrategy | null {
  try {
    return compileBotStrategy(strategy);
  } catch {
    return null;
  }
}

const percent = (value: string | null) =>
  value === null || Number(value) === 0 ? null : Number(value);

/**
 * A bot as the engine drives it. `forTrading` compiles its strategy and reads its SL/TP; a bot
 * loaded only to be stopped needs neither.
 */
export function toRunningBot(
  bot: BotRow,
  account: ExchangeAccountRow,
  forTrading: boolean,
): RunningBot {
  const strategy = { strategyType: bot.strategyType, strategyParameters: bot.strategyParameters };
  return {
    id: bot.id,
    userId: bot.userId,
    symbol: bot.symbol,
    exchange: account.exchange,
    timeframe: bot.timeframe,
    strategy,
    compiled: forTrading ? compileOrNull(strategy) : null,
    tradeAmount: Number(bot.tradeAmount),
    stopLossPercent: forTrading ? percent(bot.stopLossPercentage) : null,
    takeProfitPercent: forTrading ? percent(bot.takeProfitPercentage) : null,
    account,
    lastCandleTimeMs: bot.lastCandleTimeMs ?? 0,
    position: null,
    queue: Promise.resolve(),
    isRemoved: false,
  };
}
