import type { CompiledStrategy } from '@quantsquare/engine';
import type { BotRow } from '../../db/schema/index.js';

/** Stop-loss, take-profit and trailing stop in percent; null: none. */
export interface BotProtections {
  readonly stopLossPercent: number | null;
  readonly takeProfitPercent: number | null;
  readonly trailingStopPercent: number | null;
}

export const NO_PROTECTIONS: BotProtections = {
  stopLossPercent: null,
  takeProfitPercent: null,
  trailingStopPercent: null,
};

/** A bot's stored percentage: null when unset or 0 (the bot form's "none"). */
const percentOf = (value: string | null) =>
  value === null || Number(value) === 0 ? null : Number(value);

/**
 * The levels a bot runs with, as its backtest uses them: its own stop-loss and take-profit
 * first, else the ones its rule set carries; the trailing stop is the rule set's.
 */
export function botProtections(
  bot: Pick<BotRow, 'stopLossPercentage' | 'takeProfitPercentage'>,
  own?: CompiledStrategy['protections'] | null,
): BotProtections {
  return {
    stopLossPercent: percentOf(bot.stopLossPercentage) ?? own?.stopLossPercent ?? null,
    takeProfitPercent: percentOf(bot.takeProfitPercentage) ?? own?.takeProfitPercent ?? null,
    trailingStopPercent: own?.trailingStopPercent ?? null,
  };
}
