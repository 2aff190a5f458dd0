import {
  BOT_ERROR_CODES,
  BOT_MESSAGES,
  type LiveVsBacktest,
  type StrategyLiveCheck,
} from '@quantsquare/contracts';
import { type CompiledStrategy, compileStrategyOrThrow } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { BadRequest } from '../../common/errors.js';
import { HOUR_MS, type ScheduledJob } from '../../common/scheduler.js';
import type { BotLiveComparisonRow, BotRow } from '../../db/schema/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { BotsRepository, BotWithAccount } from './bots.repository.js';
import type { BotPositions } from './bots.service.js';
import { compareBotWithBacktest } from './live-vs-backtest.js';

/** An account's live check: its bots' comparisons, weighted by their trade amounts. */
export interface AccountLiveCheck {
  readonly accountId: number;
  /** The longest live period among its bots. */
  readonly liveDays: number;
  readonly deltaPct: number;
  readonly liveReturnPct: number;
  readonly backtestReturnPct: number;
}

export interface LiveChecksLogger {
  error(details: object, message: string): void;
}

export interface LiveChecksDeps {
  readonly repo: BotsRepository;
  readonly positions: BotPositions;
  readonly feed: MarketFeed;
  readonly clock: Clock;
  /** `custom:<id>` compiled for its owner, as the bot engine runs it. */
  readonly customStrategies?: {
    compiledFor(userId: number, type: string): Promise<CompiledStrategy>;
  };
  /** Slippage the backtest assumes (the paper exchange's setting). */
  readonly slippageBps: number;
  /** Hands every account's check to the square after each pass (replacing the last ones). */
  readonly publish?: (checks: readonly AccountLiveCheck[]) => Promise<void>;
  readonly log?: LiveChecksLogger;
}

/** The hourly pass runs this long after the hour (after the hour's candles have closed). */
export const LIVE_CHECKS_SLOT_OFFSET_MS = 5 * 60_000;

/** Per-account figures from its bots' comparisons (weights: trade amounts). */
export function accountChecks(rows: readonly BotLiveComparisonRow[]): AccountLiveCheck[] {
  const byAccount = new Map<number, BotLiveComparisonRow[]>();
  for (const row of rows)
    byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  return [...byAccount].map(([accountId, own]) => {
    const weights = own.map((row) => new Decimal(row.tradeAmount));
    const total = weights.reduce((sum, w) => sum.plus(w), new Decimal(0));
    const mean = (pick: (row: BotLiveComparisonRow) => number) =>
      total.isZero()
        ? 0
        : own
            .reduce((sum, row, i) => sum.plus(weights[i]!.times(pick(row))), new Decimal(0))
            .dividedBy(total)
            .toNumber();
    return {
      accountId,
      liveDays: Math.max(...own.map((row) => row.liveDays)),
      deltaPct: mean((row) => row.deltaPct),
      liveReturnPct: mean((row) => row.liveReturnPct),
      backtestReturnPct: mean((row) => row.backtestReturnPct),
    };
  });
}

/**
 * Live against backtest for bots: on request for one bot (its owner's screen), and hourly for
 * every bot that has been live, kept in bot_live_comparisons and handed to the square.
 */
export function createLiveChecks(deps: LiveChecksDeps) {
  /** The strategy the bot runs, compiled as the bot engine compiles it. */
  async function compiledStrategyOf(bot: BotRow): Promise<CompiledStrategy> {
    try {
      if (bot.strategyType.startsWith('custom:')) {
        if (!deps.customStrategies) throw new Error('no user strategies');
        return await deps.customStrategies.compiledFor(bot.userId, bot.strategyType);
      }
      return compileStrategyOrThrow(bot.strategyType, bot.strategyParameters);
    } catch {
      throw new BadRequest(BOT_ERROR_CODES.strategyUnavailable, BOT_MESSAGES.strategyUnavailable);
    }
  }

  async function compare({ bot, account }: BotWithAccount): Promise<LiveVsBacktest> {
    const [trades, positions] = await Promise.all([
      deps.repo.tradesOf(bot.id),
      deps.positions.openPositionsOf([{ kind: 'bot', id: bot.id }]),
    ]);
    return compareBotWithBacktest({
      bot,
      account,
      strategy: await compiledStrategyOf(bot),
      trades,
      openPosition: positions.find(
        (position) => position.owner.id === bot.id && Number(position.size) !== 0,
      ),
      feed: deps.feed,
      now: deps.clock.now(),
      slippageBps: deps.slippageBps,
    });
  }

  /** Compares every bot that has been live, one at a time; answers how many were compared. */
  async function refreshAll(): Promise<number> {
    let compared = 0;
    for (const item of await deps.repo.everLive()) {
      try {
        const answer = await compare(item);
        if (answer.period === null) {
          await deps.repo.deleteComparison(item.bot.id);
          continue;
        }
        await deps.repo.saveComparison({
          botId: item.bot.id,
          accountId: item.account.id,
          liveDays: answer.period.days,
          deltaPct: answer.delta_pct,
          liveReturnPct: answer.live.return_pct,
          backtestReturnPct: answer.backtest.return_pct,
          tradeAmount: item.bot.tradeAmount,
          answer,
          computedAt: deps.clock.now(),
        });
        compared++;
      } catch (error) {
        // One bot's feed or strategy failing leaves its last comparison; the others go on.
        deps.log?.error({ err: error, botId: item.bot.id }, 'live-vs-backtest check failed');
      }
    }
    await deps.publish?.(accountChecks(await deps.repo.comparisons()));
    return compared;
  }

  /** The stored comparisons of an account's bots, as the strategy page shows them. */
  async function ofAccount(accountId: number): Promise<StrategyLiveCheck | null> {
    const rows = await deps.repo.comparisonsOfAccount(accountId);
    const [check] = accountChecks(rows);
    if (!check) return null;
    return {
      live_days: check.liveDays,
      delta_pct: check.deltaPct,
      live_return_pct: check.liveReturnPct,
      backtest_return_pct: check.backtestReturnPct,
      computed_at: rows
        .reduce((max, row) => (row.computedAt > max ? row.computedAt : max), rows[0]!.computedAt)
        .toISOString(),
      bots: rows.map((row) => ({
        symbol: row.answer.symbol,
        timeframe: row.answer.timeframe,
        strategy_type: row.answer.strategy_type,
        live_days: row.liveDays,
        delta_pct: row.deltaPct,
        live_return_pct: row.liveReturnPct,
        backtest_return_pct: row.backtestReturnPct,
        matched: row.answer.matched_trades.length,
        missed: row.answer.missed_signals.length,
        extra: row.answer.extra_trades.length,
        fee_diff: row.answer.fee_diff,
        slippage_diff: row.answer.slippage_diff,
        live_curve: row.answer.live.equity_curve,
        backtest_curve: row.answer.backtest.equity_curve,
      })),
    };
  }

  const job: ScheduledJob = {
    name: 'bot-live-checks',
    nextSlotAfter: (at) =>
      new Date(
        Math.floor((at.getTime() - LIVE_CHECKS_SLOT_OFFSET_MS) / HOUR_MS) * HOUR_MS +
          HOUR_MS +
          LIVE_CHECKS_SLOT_OFFSET_MS,
      ),
    run: async () => {
      await refreshAll();
    },
  };

  return { compare, refreshAll, ofAccount, job };
}
export type LiveChecks = ReturnType<typeof createLiveChecks>;
