// The bot runner, a driver of the execution core. Bots are grouped per feed (exchange, symbol,
// timeframe): each poll reads a feed once for all its bots. On a candle close every bot of the
// group first learns whether its protective orders filled (the exchange — live or paper —
// triggers them), then evaluates its strategy on the closed candles (the backtest's function,
// via bot-decision.ts) and acts at once — the poll comes right after the close, so the market
// order fills at the new candle's open, as the backtest's next-open fill (see README.md).
// The parts: bot-engine-context.ts (shared state, failure), bot-joining.ts (join, leave),
// bot-feed-poll.ts (a poll); here the lease upkeep and the engine's commands.
import { createKeyedQueue } from '../../common/keyed-queue.js';
import { botLease, LEASE_RENEW_MS } from '../../common/leases.js';
import { adoptLegacyBotRows } from '../../execution/index.js';
import { createBotEngineRepository } from './bot-engine.repository.js';
import type { BotEngine, BotEngineDeps } from './bot-engine.types.js';
import { type BotEngineContext, detach, fail, formingOpenMs } from './bot-engine-context.js';
import { tickOnce } from './bot-feed-poll.js';
import { cancelRetry, join, loadAny, stopHere } from './bot-joining.js';
import { recordBotSettlement } from './bot-settlement.js';
import { createStatusRecorder } from './bot-status.js';
import { createBotTrader } from './bot-trader.js';

/** 10 s, 30 s, 1 min, 2 min, 5 min, then 5 min more: about 13.5 minutes of tries in all. */
export const DEFAULT_RESUME_RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 300_000];

export const DEFAULT_CANDLE_LIMIT = 500;
export const DEFAULT_BOT_POLL_INTERVAL_MS = 2000;

/**
 * Every LEASE_RENEW_MS: keep this worker's leases; bots whose lease was lost leave (another
 * worker drives them now); running bots with no live lease (a dead worker's) are taken over
 * and resumed; bots stopped elsewhere are stopped here (their position closed).
 */
async function maintainLeases(ctx: BotEngineContext): Promise<void> {
  const { leases, bots } = ctx;
  for (const lost of await leases.renew()) {
    const bot = bots.get(Number(lost.slice('bot:'.length)));
    if (bot) detach(ctx, bot);
  }
  const running = new Set(await ctx.repo.runningBotIds());
  const mine = leases.held().map((resource) => Number(resource.slice('bot:'.length)));
  for (const id of mine) if (!running.has(id)) await stopHere(ctx, id);
  const free = [...running].filter((id) => !leases.isHeld(botLease(id)));
  await leases.acquire(free.map(botLease));
  for (const id of running) {
    if (!bots.has(id) && !ctx.retries.has(id) && leases.isHeld(botLease(id))) {
      await join(ctx, id, true);
    }
  }
}

function keepLeases(ctx: BotEngineContext): void {
  if (ctx.leaseTimer) return;
  ctx.leaseTimer = setInterval(() => {
    ctx.maintaining ??= maintainLeases(ctx)
      .catch((error: unknown) => ctx.deps.logger?.error({ err: error }, 'lease upkeep failed'))
      .finally(() => {
        ctx.maintaining = null;
      });
  }, ctx.deps.leaseRenewMs ?? LEASE_RENEW_MS);
  ctx.leaseTimer.unref();
}

async function start(ctx: BotEngineContext): Promise<void> {
  const { deps, leases } = ctx;
  ctx.stopped = false;
  // Bots of the version before the execution core: their rows move into the core's book.
  await adoptLegacyBotRows(deps.db);
  keepLeases(ctx);
  const running = await ctx.repo.runningBotIds();
  await leases.acquire(running.map(botLease));
  for (const id of running) await join(ctx, id, true);
  if (ctx.stopped) return; // stop() came while resuming: no polling after it
  if (!ctx.timer) {
    ctx.timer = setInterval(() => {
      if (!ctx.ticking) {
        ctx.ticking = tickOnce(ctx).finally(() => {
          ctx.ticking = null;
        });
      }
    }, deps.pollIntervalMs ?? DEFAULT_BOT_POLL_INTERVAL_MS);
    ctx.timer.unref();
  }
  deps.logger?.info({ bots: ctx.bots.size, feeds: ctx.groups.size }, 'bot engine started');
}

async function stop(ctx: BotEngineContext): Promise<void> {
  ctx.stopped = true;
  for (const id of [...ctx.retries.keys()]) cancelRetry(ctx, id);
  // A try whose timer already fired may be reading the exchange: it ends before the stop does.
  await Promise.all(ctx.retrying);
  if (ctx.timer) clearInterval(ctx.timer);
  ctx.timer = undefined;
  if (ctx.leaseTimer) clearInterval(ctx.leaseTimer);
  ctx.leaseTimer = undefined;
  await ctx.ticking;
  await ctx.maintaining;
  await ctx.botWork.idle();
  // The core is the composition root's to close (its live orders settle first).
  await ctx.core.idle();
  // Positions stay; the next worker (or this one restarted) resumes the bots at once. Only
  // the bots' leases: the process's copy relations are the copy engine's to let go.
  await ctx.leases.release(ctx.leases.held());
}

async function startBot(ctx: BotEngineContext, botId: number): Promise<void> {
  // An api process drives nothing: a worker's lease upkeep joins the running bot.
  if (ctx.deps.controlOnly) return;
  keepLeases(ctx);
  // Held elsewhere (a stop there not finished yet): that worker's upkeep joins it.
  await ctx.leases.acquire([botLease(botId)]);
  await join(ctx, botId, false);
}

async function stopBot(ctx: BotEngineContext, botId: number): Promise<void> {
  // A bot another worker drives is stopped there: its upkeep sees the status and closes.
  if (
    !ctx.bots.has(botId) &&
    (await ctx.leases.acquire([botLease(botId)], { force: true })).length === 0
  ) {
    return;
  }
  await stopHere(ctx, botId);
}

/**
 * A bot that is not running: its position is closed at market with the same close path as
 * stopBot (the fill logged); a failure is recorded on the bot (status error) and rethrown.
 */
async function closePosition(ctx: BotEngineContext, botId: number): Promise<void> {
  const { leases, trader } = ctx;
  if (ctx.bots.has(botId) || ctx.retries.has(botId)) {
    throw new Error(`bot ${botId} is running: stop it before closing its position`);
  }
  // One worker at a time acts on a bot, stopped or not.
  if ((await leases.acquire([botLease(botId)], { force: true })).length === 0) {
    throw new Error(`bot ${botId} is being handled by another worker`);
  }
  try {
    const loaded = await loadAny(ctx, botId);
    if (!loaded) return;
    await trader.refresh(loaded);
    if (!loaded.position) return;
    const formingOpen = formingOpenMs(ctx, loaded.timeframe);
    try {
      await trader.close(loaded, 'manual', formingOpen);
    } catch (error) {
      await fail(ctx, loaded, error);
      throw error;
    }
  } finally {
    await leases.release([botLease(botId)]);
  }
}

export function createBotEngine(deps: BotEngineDeps): BotEngine {
  const repo = createBotEngineRepository(deps.db);
  // The process's one execution core and lease holder, from the composition root.
  const core = deps.execution;
  const leases = deps.leases;
  // A fill that closes a bot's position writes its trade row with the fill, in one transaction.
  core.useSettlementHook('bot', recordBotSettlement);
  const trader = createBotTrader({
    core,
    log: deps.writeLog,
    fenceOf: (botId) => leases.fenceOf(botLease(botId)),
  });
  const ctx: BotEngineContext = {
    deps,
    repo,
    candleLimit: deps.candleLimit ?? DEFAULT_CANDLE_LIMIT,
    writeLog: deps.writeLog,
    core,
    trader,
    leases,
    groups: new Map(),
    bots: new Map(),
    resumeRetryDelays: deps.resumeRetryDelaysMs ?? DEFAULT_RESUME_RETRY_DELAYS_MS,
    retries: new Map(),
    retrying: new Set(),
    botWork: createKeyedQueue<number>(),
    recordStatus: createStatusRecorder({ ...deps, events: core.events, repo }),
    leaseTimer: undefined,
    maintaining: null,
    stopped: false,
    timer: undefined,
    ticking: null,
  };
  return {
    start: () => start(ctx),
    stop: () => stop(ctx),
    tick: () => tickOnce(ctx),
    runningBotIds: () => [...ctx.bots.keys()],
    startBot: (botId) => startBot(ctx, botId),
    stopBot: (botId) => stopBot(ctx, botId),
    closePosition: (botId) => closePosition(ctx, botId),
  };
}
