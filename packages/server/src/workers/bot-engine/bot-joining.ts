// A bot joining its feed group (tried again later when its exchange cannot be reached while it
// resumes) and leaving it here: its position closed, its lease let go.
import { customStrategyId } from '@quantsquare/contracts';
import { botLease } from '../../common/leases.js';
import type { RunningBot } from './bot-engine.types.js';
import {
  attach,
  type BotEngineContext,
  detach,
  fail,
  formingOpenMs,
} from './bot-engine-context.js';
import { errorFacts, exchangeCause } from './bot-failures.js';
import { toRunningBot } from './bot-loading.js';

async function latestClosedTime(ctx: BotEngineContext, bot: RunningBot): Promise<number> {
  const series = await ctx.deps.feed.series({
    exchange: bot.exchange,
    symbol: bot.symbol,
    timeframe: bot.timeframe,
    closedCount: 1,
  });
  return series.closed.at(-1)?.timestamp ?? 0;
}

async function load(ctx: BotEngineContext, botId: number): Promise<RunningBot | undefined> {
  const found = await ctx.repo.botWithAccount(botId);
  if (found?.bot.status !== 'running') return undefined;
  const custom =
    customStrategyId(found.bot.strategyType) !== null
      ? await ctx.deps.ruleSets.compiledForBot(found.bot.strategyType)
      : undefined;
  return toRunningBot(found.bot, found.account, true, custom);
}

/** A bot whatever its status (stopBot is called after the service marked it stopped). */
export async function loadAny(
  ctx: BotEngineContext,
  botId: number,
): Promise<RunningBot | undefined> {
  const found = await ctx.repo.botWithAccount(botId);
  return found ? toRunningBot(found.bot, found.account, false) : undefined;
}

export function cancelRetry(ctx: BotEngineContext, botId: number): void {
  clearTimeout(ctx.retries.get(botId));
  ctx.retries.delete(botId);
}

/**
 * Joins the bot to its feed; it decides only on candles that close after this moment. A bot
 * resumed at start-up whose exchange cannot be reached yet is tried again later (reconciling
 * is idempotent); it stays `running` meanwhile and a user's stop ends the tries.
 */
export async function join(
  ctx: BotEngineContext,
  botId: number,
  isResume: boolean,
  attempt = 0,
): Promise<void> {
  const { trader } = ctx;
  cancelRetry(ctx, botId);
  if (ctx.bots.has(botId) || !ctx.leases.isHeld(botLease(botId))) return;
  const bot = await load(ctx, botId);
  if (!bot) return;
  try {
    if (!bot.compiled) throw new Error(`invalid strategy ${bot.strategy.strategyType}`);
    await trader.refresh(bot);
    if (isResume) await trader.reconcile(bot);
    bot.lastCandleTimeMs = Math.max(bot.lastCandleTimeMs, await latestClosedTime(ctx, bot));
    await ctx.repo.setLastCandle(bot.id, bot.lastCandleTimeMs);
    // A try that ends after the engine stopped leaves the bot for the next start to resume.
    if (isResume && ctx.stopped) return;
    attach(ctx, bot);
  } catch (error) {
    const delay = ctx.resumeRetryDelays[attempt];
    if (isResume && exchangeCause(error)?.isRetryable) {
      // Stopping meanwhile leaves the bot running for the next start to resume.
      if (ctx.stopped) return;
      if (delay !== undefined) return retryLater(ctx, bot, error, attempt, delay);
    }
    await fail(ctx, bot, error);
  }
}

async function retryLater(
  ctx: BotEngineContext,
  bot: RunningBot,
  error: unknown,
  attempt: number,
  delayMs: number,
): Promise<void> {
  const { deps } = ctx;
  const timer = setTimeout(() => {
    ctx.retries.delete(bot.id);
    if (ctx.stopped) return;
    const trying = join(ctx, bot.id, true, attempt + 1)
      .catch((joinError: unknown) =>
        deps.logger?.error({ botId: bot.id, err: joinError }, 'bot resume failed'),
      )
      .finally(() => ctx.retrying.delete(trying));
    ctx.retrying.add(trying);
  }, delayMs);
  timer.unref();
  ctx.retries.set(bot.id, timer);
  const seconds = Math.round(delayMs / 1000);
  const reason = error instanceof Error ? error.message : String(error);
  deps.logger?.info({ botId: bot.id, attempt: attempt + 1, err: error }, 'bot resume deferred');
  // The next try is set before the entry is written: a failing write must not end the tries
  // (nor, at start-up, the resuming of the other bots).
  try {
    await ctx.writeLog({
      userId: bot.userId,
      botId: bot.id,
      botSymbol: bot.symbol,
      type: 'system',
      event: 'resume_retry',
      message: `exchange not reachable while resuming (${reason}); next try in ${seconds} s`,
      details: { attempt: attempt + 1, delay_seconds: seconds, ...errorFacts(error) },
    });
  } catch (writeError) {
    deps.logger?.error({ botId: bot.id, err: writeError }, 'could not record a resume retry');
  }
}

/** Closes a bot's position here (the bot is no longer running) and lets its lease go. */
export async function stopHere(ctx: BotEngineContext, botId: number): Promise<void> {
  const { trader } = ctx;
  cancelRetry(ctx, botId);
  const loaded = ctx.bots.get(botId) ?? (await loadAny(ctx, botId));
  if (!loaded) return;
  // Out of the group first, so no poll queues new work; then let work in flight finish.
  detach(ctx, loaded);
  await ctx.botWork.run(botId, async () => {});
  await trader.refresh(loaded);
  if (loaded.position) {
    const formingOpen = formingOpenMs(ctx, loaded.timeframe);
    try {
      await trader.close(loaded, 'manual', formingOpen);
    } catch (error) {
      loaded.isRemoved = false;
      await fail(ctx, loaded, error);
      return;
    }
  }
  await ctx.leases.release([botLease(botId)]);
}
