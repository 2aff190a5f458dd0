import {
  customStrategyId,
  PUBLISHED_STRATEGIES_MAX,
  type PublishedStrategy,
  type RuleSet,
} from '@quantsquare/contracts';
import { strategyByType } from '@quantsquare/engine';
import type { BotRow } from '../../db/schema/index.js';
import { type BotProtections, botProtections, NO_PROTECTIONS } from './bot-protections.js';
import type { BotsRepository } from './bots.repository.js';

// What a published account trades with, for its page on the square: each bot's set-up
// (strategy, parameters, symbol, timeframe), newest first, named. The rules and parameters are
// shown only when the owner's share settings allow it; a visitor never learns a rule set's id.

export interface PublishedStrategiesDeps {
  readonly repo: Pick<BotsRepository, 'listForAccount'>;
  /** The owner's rule sets (the user-strategies service); none without it. */
  readonly ruleSets?: {
    publishedFor(
      userId: number,
      type: string,
    ): Promise<
      | {
          readonly name: string;
          readonly rules: RuleSet;
          readonly stop_loss_pct: number | null;
          readonly take_profit_pct: number | null;
          readonly trailing_stop_pct: number | null;
        }
      | undefined
    >;
  };
}

const shownLevels = (levels: BotProtections) => ({
  stop_loss_pct: levels.stopLossPercent,
  take_profit_pct: levels.takeProfitPercent,
  trailing_stop_pct: levels.trailingStopPercent,
});

/** One bot's set-up; a bot on a rule set that is gone (or not its owner's) is left out. */
async function strategyOfBot(
  deps: PublishedStrategiesDeps,
  bot: BotRow,
  withRules: boolean,
): Promise<PublishedStrategy | null> {
  const place = {
    symbol: bot.symbol,
    timeframe: bot.timeframe,
    is_running: bot.status === 'running',
    rules_shown: withRules,
  };
  if (customStrategyId(bot.strategyType) !== null) {
    const ruleSet = await deps.ruleSets?.publishedFor(bot.userId, bot.strategyType);
    if (!ruleSet) return null;
    // As the bot runs it: its own levels first, else the rule set's.
    const levels = botProtections(bot, {
      stopLossPercent: ruleSet.stop_loss_pct,
      takeProfitPercent: ruleSet.take_profit_pct,
      trailingStopPercent: ruleSet.trailing_stop_pct,
    });
    return {
      type: 'custom',
      name: ruleSet.name,
      ...place,
      parameters: null,
      rules: withRules ? ruleSet.rules : null,
      ...shownLevels(withRules ? levels : NO_PROTECTIONS),
    };
  }
  const builtIn = strategyByType(bot.strategyType);
  if (!builtIn) return null;
  return {
    type: builtIn.type,
    name: builtIn.name,
    ...place,
    parameters: withRules ? { ...bot.strategyParameters } : null,
    rules: null,
    ...shownLevels(withRules ? botProtections(bot) : NO_PROTECTIONS),
  };
}

/** The account's strategies for its published page, a bot each (one bot per symbol). */
export async function publishedStrategiesOf(
  deps: PublishedStrategiesDeps,
  accountId: number,
  withRules: boolean,
): Promise<PublishedStrategy[]> {
  const bots = await deps.repo.listForAccount(accountId, PUBLISHED_STRATEGIES_MAX);
  const strategies = await Promise.all(bots.map((bot) => strategyOfBot(deps, bot, withRules)));
  return strategies.filter((strategy) => strategy !== null);
}
