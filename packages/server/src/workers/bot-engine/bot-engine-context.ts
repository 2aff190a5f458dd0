import type { Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
// What the bot engine's parts share: its dependencies, the running bots grouped per feed, the
// per-bot work queue and the timers' state. The membership of a bot (attach, detach) and its
// failure (error or a risk stop) live here, as every other part of the engine ends in them.
import type { KeyedQueue } from '../../common/keyed-queue.js';
import { botLease, type Leases } from '../../common/leases.js';
import { type ExecutionCore, ExecutionError } from '../../execution/index.js';
import type { BotEngineRepository } from './bot-engine.repository.js';
import type { BotEngineDeps, RunningBot } from './bot-engine.types.js';
import { errorFacts, riskRefusalOf } from './bot-failures.js';
import type { createStatusRecorder } from './bot-status.js';
import { BotFailure, type BotTrader } from './bot-trader.js';

export interface FeedGroup {
  readonly exchange: RunningBot['exchange'];
  readonly symbol: string;
  readonly timeframe: RunningBot['timeframe'];
  readonly bots: Map<number, RunningBot>;
  running: Promise<void> | null;
}

export const groupKey = (bot: Pick<RunningBot, 'exchange' | 'symbol' | 'timeframe'>) =>
  `${bot.exchange}|${bot.symbol}|${bot.timeframe}`;

/** One bot engine: built once by createBotEngine, passed to each of its functions. */
export interface BotEngineContext {
  readonly deps: BotEngineDeps;
  readonly repo: BotEngineRepository;
  readonly candleLimit: number;
  readonly writeLog: BotEngineDeps['writeLog'];
  /** The process's one execution core, from the composition root. */
  readonly core: ExecutionCore;
  readonly trader: BotTrader;
  /** A bot is driven by the one worker holding its lease (see common/leases.ts). */
  readonly leases: Leases;
  readonly groups: Map<string, FeedGroup>;
  readonly bots: Map<number, RunningBot>;
  readonly resumeRetryDelays: readonly number[];
  /** Pending resume tries, by bot. */
  readonly retries: Map<number, NodeJS.Timeout>;
  /** Resume tries under way (their timer fired): a stop waits for them. */
  readonly retrying: Set<Promise<void>>;
  /** Each bot's work one at a time, in order (by bot id, across reloads of the bot). */
  readonly botWork: KeyedQueue<number>;
  readonly recordStatus: ReturnType<typeof createStatusRecorder>;
  leaseTimer: NodeJS.Timeout | undefined;
  maintaining: Promise<void> | null;
  stopped: boolean;
  timer: NodeJS.Timeout | undefined;
  ticking: Promise<void> | null;
}

/** Runs `work` after the bot's earlier work; a failure puts this bot (only) in error. */
export function enqueue(
  ctx: BotEngineContext,
  bot: RunningBot,
  work: () => Promise<void>,
): Promise<void> {
  return ctx.botWork.run(bot.id, async () => {
    if (bot.isRemoved) return;
    try {
      await work();
    } catch (error) {
      await fail(ctx, bot, error);
    }
  });
}

export async function fail(ctx: BotEngineContext, bot: RunningBot, error: unknown): Promise<void> {
  const { deps, leases } = ctx;
  const message = error instanceof Error ? error.message : String(error);
  detach(ctx, bot);
  // The bot's lease is another worker's now (this one froze past it): that worker drives it;
  // nothing is written here.
  if (error instanceof ExecutionError && error.kind === 'fenced') {
    deps.logger?.error({ botId: bot.id, err: error }, 'bot lease lost; let go');
    return;
  }
  const refusal = riskRefusalOf(error);
  if (refusal) {
    await stopForRisk(ctx, bot, refusal);
    return;
  }
  deps.logger?.error({ botId: bot.id, err: error }, 'bot failed');
  try {
    const at = deps.clock.now();
    await ctx.recordStatus(bot, 'error', message, at, (target) =>
      target.markError(bot.id, message, at),
    );
    await ctx.writeLog({
      userId: bot.userId,
      botId: bot.id,
      botSymbol: bot.symbol,
      type: 'error',
      event: 'bot_failed',
      message,
      details: { kind: error instanceof BotFailure ? 'order' : 'engine', ...errorFacts(error) },
    });
  } catch (writeError) {
    deps.logger?.error({ botId: bot.id, err: writeError }, 'could not record a bot failure');
  }
  await leases.release([botLease(bot.id)]).catch(() => undefined);
}

/** The account's risk gate refused an opening: the bot stops with that reason. */
async function stopForRisk(
  ctx: BotEngineContext,
  bot: RunningBot,
  refusal: ExecutionError,
): Promise<void> {
  const { deps } = ctx;
  const message = refusal.message;
  try {
    const at = deps.clock.now();
    await ctx.recordStatus(bot, 'stopped', message, at, (target) =>
      target.markStoppedFor(bot.id, message, at),
    );
    await ctx.writeLog({
      userId: bot.userId,
      botId: bot.id,
      botSymbol: bot.symbol,
      type: 'system',
      event: 'bot_stopped',
      message: `Bot stopped: ${message}`,
      details: { reason: refusal.kind, risk_reason: refusal.reason },
    });
  } catch (writeError) {
    deps.logger?.error({ botId: bot.id, err: writeError }, 'could not record a bot stop');
  }
  await ctx.leases.release([botLease(bot.id)]).catch(() => undefined);
}

export function detach(ctx: BotEngineContext, bot: RunningBot): void {
  const { bots, groups } = ctx;
  bot.isRemoved = true;
  bots.delete(bot.id);
  const group = groups.get(groupKey(bot));
  group?.bots.delete(bot.id);
  if (group && group.bots.size === 0) groups.delete(groupKey(bot));
}

export function attach(ctx: BotEngineContext, bot: RunningBot): void {
  const { bots, groups } = ctx;
  bots.set(bot.id, bot);
  const key = groupKey(bot);
  let group = groups.get(key);
  if (!group) {
    group = {
      exchange: bot.exchange,
      symbol: bot.symbol,
      timeframe: bot.timeframe,
      bots: new Map(),
      running: null,
    };
    groups.set(key, group);
  }
  group.bots.set(bot.id, bot);
}

/** When the candle forming now opened: a manual close is keyed by it. */
export function formingOpenMs(ctx: BotEngineContext, timeframe: Timeframe): number {
  const step = TIMEFRAME_MS[timeframe];
  return Math.floor(ctx.deps.clock.now().getTime() / step) * step;
}
