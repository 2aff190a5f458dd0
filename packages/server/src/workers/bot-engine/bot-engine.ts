// The bot runner, a driver of the execution core. Bots are grouped per feed (exchange, symbol,
// timeframe): each poll reads a feed once for all its bots. On a candle close every bot of the
// group first learns whether its protective orders filled (the exchange — live or paper —
// triggers them), then evaluates its strategy on the closed candles (the backtest's function,
// via bot-decision.ts) and acts at once — the poll comes right after the close, so the market
// order fills at the new candle's open, as the backtest's next-open fill (see README.md).
import { customStrategyId } from '@quantsquare/contracts';
import { type Candles, candlesFromRows, TIMEFRAME_MS } from '@quantsquare/engine';
import { createKeyedQueue } from '../../common/keyed-queue.js';
import { botLease, LEASE_RENEW_MS } from '../../common/leases.js';
import { adoptLegacyBotRows, ExecutionError } from '../../execution/index.js';
import type { MarketCandle } from '../../market/market.types.js';
import { decide, latestSignal, type SignalMemo } from './bot-decision.js';
import { createBotEngineRepository } from './bot-engine.repository.js';
import type { BotEngine, BotEngineDeps, RunningBot } from './bot-engine.types.js';
import { errorFacts, exchangeCause, riskRefusalOf } from './bot-failures.js';
import { toRunningBot } from './bot-loading.js';
import { recordBotSettlement } from './bot-settlement.js';
import { createStatusRecorder } from './bot-status.js';
import { BotFailure, createBotTrader } from './bot-trader.js';

/** 10 s, 30 s, 1 min, 2 min, 5 min, then 5 min more: about 13.5 minutes of tries in all. */
export const DEFAULT_RESUME_RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 300_000];

export const DEFAULT_CANDLE_LIMIT = 500;
export const DEFAULT_BOT_POLL_INTERVAL_MS = 2000;

interface FeedGroup {
  readonly exchange: RunningBot['exchange'];
  readonly symbol: string;
  readonly timeframe: RunningBot['timeframe'];
  readonly bots: Map<number, RunningBot>;
  running: Promise<void> | null;
}

const groupKey = (bot: Pick<RunningBot, 'exchange' | 'symbol' | 'timeframe'>) =>
  `${bot.exchange}|${bot.symbol}|${bot.timeframe}`;

export function createBotEngine(deps: BotEngineDeps): BotEngine {
  const repo = createBotEngineRepository(deps.db);
  const candleLimit = deps.candleLimit ?? DEFAULT_CANDLE_LIMIT;
  const writeLog = deps.writeLog;
  // The process's one execution core and lease holder, from the composition root.
  const core = deps.execution;
  // A fill that closes a bot's position writes its trade row with the fill, in one transaction.
  core.useSettlementHook('bot', recordBotSettlement);
  const trader = createBotTrader({
    core,
    log: writeLog,
    fenceOf: (botId) => leases.fenceOf(botLease(botId)),
  });
  // A bot is driven by the one worker holding its lease (see common/leases.ts).
  const leases = deps.leases;
  let leaseTimer: NodeJS.Timeout | undefined;
  let maintaining: Promise<void> | null = null;
  const groups = new Map<string, FeedGroup>();
  const bots = new Map<number, RunningBot>();
  const resumeRetryDelays = deps.resumeRetryDelaysMs ?? DEFAULT_RESUME_RETRY_DELAYS_MS;
  /** Pending resume tries, by bot. */
  const retries = new Map<number, NodeJS.Timeout>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;

  /** Each bot's work one at a time, in order (by bot id, across reloads of the bot). */
  const botWork = createKeyedQueue<number>();

  /** Runs `work` after the bot's earlier work; a failure puts this bot (only) in error. */
  function enqueue(bot: RunningBot, work: () => Promise<void>): Promise<void> {
    return botWork.run(bot.id, async () => {
      if (bot.isRemoved) return;
      try {
        await work();
      } catch (error) {
        await fail(bot, error);
      }
    });
  }

  const recordStatus = createStatusRecorder({ ...deps, events: core.events, repo });

  async function fail(bot: RunningBot, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    detach(bot);
    // The bot's lease is another worker's now (this one froze past it): that worker drives it;
    // nothing is written here.
    if (error instanceof ExecutionError && error.kind === 'fenced') {
      deps.logger?.error({ botId: bot.id, err: error }, 'bot lease lost; let go');
      return;
    }
    const refusal = riskRefusalOf(error);
    if (refusal) {
      await stopForRisk(bot, refusal);
      return;
    }
    deps.logger?.error({ botId: bot.id, err: error }, 'bot failed');
    try {
      const at = deps.clock.now();
      await recordStatus(bot, 'error', message, at, (target) =>
        target.markError(bot.id, message, at),
      );
      await writeLog({
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
  async function stopForRisk(bot: RunningBot, refusal: ExecutionError): Promise<void> {
    const message = refusal.message;
    try {
      const at = deps.clock.now();
      await recordStatus(bot, 'stopped', message, at, (target) =>
        target.markStoppedFor(bot.id, message, at),
      );
      await writeLog({
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
    await leases.release([botLease(bot.id)]).catch(() => undefined);
  }

  function detach(bot: RunningBot): void {
    bot.isRemoved = true;
    bots.delete(bot.id);
    const group = groups.get(groupKey(bot));
    group?.bots.delete(bot.id);
    if (group && group.bots.size === 0) groups.delete(groupKey(bot));
  }

  async function latestClosedTime(bot: RunningBot): Promise<number> {
    const series = await deps.feed.series({
      exchange: bot.exchange,
      symbol: bot.symbol,
      timeframe: bot.timeframe,
      closedCount: 1,
    });
    return series.closed.at(-1)?.timestamp ?? 0;
  }

  async function load(botId: number): Promise<RunningBot | undefined> {
    const found = await repo.botWithAccount(botId);
    if (found?.bot.status !== 'running') return undefined;
    const custom =
      customStrategyId(found.bot.strategyType) !== null
        ? await deps.ruleSets.compiledForBot(found.bot.strategyType)
        : undefined;
    return toRunningBot(found.bot, found.account, true, custom);
  }

  /** A bot whatever its status (stopBot is called after the service marked it stopped). */
  async function loadAny(botId: number): Promise<RunningBot | undefined> {
    const found = await repo.botWithAccount(botId);
    return found ? toRunningBot(found.bot, found.account, false) : undefined;
  }

  function attach(bot: RunningBot): void {
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

  function cancelRetry(botId: number): void {
    clearTimeout(retries.get(botId));
    retries.delete(botId);
  }

  /**
   * Joins the bot to its feed; it decides only on candles that close after this moment. A bot
   * resumed at start-up whose exchange cannot be reached yet is tried again later (reconciling
   * is idempotent); it stays `running` meanwhile and a user's stop ends the tries.
   */
  async function join(botId: number, isResume: boolean, attempt = 0): Promise<void> {
    cancelRetry(botId);
    if (bots.has(botId) || !leases.isHeld(botLease(botId))) return;
    const bot = await load(botId);
    if (!bot) return;
    try {
      if (!bot.compiled) throw new Error(`invalid strategy ${bot.strategy.strategyType}`);
      await trader.refresh(bot);
      if (isResume) await trader.reconcile(bot);
      bot.lastCandleTimeMs = Math.max(bot.lastCandleTimeMs, await latestClosedTime(bot));
      await repo.setLastCandle(bot.id, bot.lastCandleTimeMs);
      attach(bot);
    } catch (error) {
      const delay = resumeRetryDelays[attempt];
      if (isResume && exchangeCause(error)?.isRetryable) {
        // Stopping meanwhile leaves the bot running for the next start to resume.
        if (stopped) return;
        if (delay !== undefined) return retryLater(bot, error, attempt, delay);
      }
      await fail(bot, error);
    }
  }

  async function retryLater(
    bot: RunningBot,
    error: unknown,
    attempt: number,
    delayMs: number,
  ): Promise<void> {
    const timer = setTimeout(() => {
      retries.delete(bot.id);
      join(bot.id, true, attempt + 1).catch((joinError: unknown) =>
        deps.logger?.error({ botId: bot.id, err: joinError }, 'bot resume failed'),
      );
    }, delayMs);
    timer.unref();
    retries.set(bot.id, timer);
    const seconds = Math.round(delayMs / 1000);
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger?.info({ botId: bot.id, attempt: attempt + 1, err: error }, 'bot resume deferred');
    // The next try is set before the entry is written: a failing write must not end the tries
    // (nor, at start-up, the resuming of the other bots).
    try {
      await writeLog({
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

  /** One bot on a poll of its feed: on a new closed candle, protective fills, then the signal. */
  async function onPoll(
    bot: RunningBot,
    closed: readonly MarketCandle[],
    forming: MarketCandle | null,
    candles: () => Candles,
    memo: SignalMemo,
  ): Promise<void> {
    const newest = closed.at(-1);
    if (!newest || newest.timestamp <= bot.lastCandleTimeMs) return;
    // Not renewed in time (a stalled process): another worker may drive the bot now.
    if (!leases.isHeld(botLease(bot.id))) return;
    // An order still on its way: this candle is decided once the venue has answered.
    if (await trader.awaitsOrder(bot, newest.timestamp)) return;
    if (bot.position) await trader.watchProtective(bot, newest.timestamp);
    const intents = decide(
      bot.compiled ? latestSignal(candles(), bot.compiled, memo) : null,
      heldPosition(bot),
    );
    const price = forming?.open ?? newest.close;
    for (const intent of intents) {
      if (intent.kind === 'close') await trader.close(bot, 'signal', newest.timestamp);
      else await trader.open(bot, intent.side, newest.timestamp, price);
    }
    // A position held through this candle: its trailing stop follows the candle's best price.
    if (intents.length === 0) await trader.trail(bot, newest, price, newest.timestamp);
    bot.lastCandleTimeMs = newest.timestamp;
    await repo.setLastCandle(bot.id, newest.timestamp);
  }

  function heldPosition(bot: RunningBot) {
    const p = bot.position;
    if (!p) return null;
    return {
      side: Number(p.size) < 0 ? ('short' as const) : ('long' as const),
      stopLoss: p.stopLoss === null ? null : Number(p.stopLoss),
      takeProfit: p.takeProfit === null ? null : Number(p.takeProfit),
    };
  }

  async function pollGroup(group: FeedGroup): Promise<void> {
    const series = await deps.feed.series({
      exchange: group.exchange,
      symbol: group.symbol,
      timeframe: group.timeframe,
      closedCount: candleLimit,
    });
    const window = series.closed.slice(-candleLimit);
    let columnar: Candles | undefined;
    const candles = () => {
      columnar ??= candlesFromRows(window);
      return columnar;
    };
    const memo: SignalMemo = new Map();
    await Promise.all(
      [...group.bots.values()].map((bot) =>
        enqueue(bot, () => onPoll(bot, window, series.forming, candles, memo)),
      ),
    );
  }

  async function tickOnce(): Promise<void> {
    await Promise.all(
      [...groups.values()].map(async (group) => {
        if (group.running) return group.running;
        group.running = pollGroup(group)
          .catch((error: unknown) =>
            deps.logger?.error(
              { err: error, symbol: group.symbol, timeframe: group.timeframe },
              'feed poll failed',
            ),
          )
          .finally(() => {
            group.running = null;
          });
        return group.running;
      }),
    );
  }

  /** Closes a bot's position here (the bot is no longer running) and lets its lease go. */
  async function stopHere(botId: number): Promise<void> {
    cancelRetry(botId);
    const loaded = bots.get(botId) ?? (await loadAny(botId));
    if (!loaded) return;
    // Out of the group first, so no poll queues new work; then let work in flight finish.
    detach(loaded);
    await botWork.run(botId, async () => {});
    await trader.refresh(loaded);
    if (loaded.position) {
      const formingOpen =
        Math.floor(deps.clock.now().getTime() / TIMEFRAME_MS[loaded.timeframe]) *
        TIMEFRAME_MS[loaded.timeframe];
      try {
        await trader.close(loaded, 'manual', formingOpen);
      } catch (error) {
        loaded.isRemoved = false;
        await fail(loaded, error);
        return;
      }
    }
    await leases.release([botLease(botId)]);
  }

  /**
   * Every LEASE_RENEW_MS: keep this worker's leases; bots whose lease was lost leave (another
   * worker drives them now); running bots with no live lease (a dead worker's) are taken over
   * and resumed; bots stopped elsewhere are stopped here (their position closed).
   */
  async function maintainLeases(): Promise<void> {
    for (const lost of await leases.renew()) {
      const bot = bots.get(Number(lost.slice('bot:'.length)));
      if (bot) detach(bot);
    }
    const running = new Set(await repo.runningBotIds());
    const mine = leases.held().map((resource) => Number(resource.slice('bot:'.length)));
    for (const id of mine) if (!running.has(id)) await stopHere(id);
    const free = [...running].filter((id) => !leases.isHeld(botLease(id)));
    await leases.acquire(free.map(botLease));
    for (const id of running) {
      if (!bots.has(id) && !retries.has(id) && leases.isHeld(botLease(id))) await join(id, true);
    }
  }

  function keepLeases(): void {
    if (leaseTimer) return;
    leaseTimer = setInterval(() => {
      maintaining ??= maintainLeases()
        .catch((error: unknown) => deps.logger?.error({ err: error }, 'lease upkeep failed'))
        .finally(() => {
          maintaining = null;
        });
    }, deps.leaseRenewMs ?? LEASE_RENEW_MS);
    leaseTimer.unref();
  }

  return {
    async start() {
      stopped = false;
      // Bots of the version before the execution core: their rows move into the core's book.
      await adoptLegacyBotRows(deps.db);
      keepLeases();
      const running = await repo.runningBotIds();
      await leases.acquire(running.map(botLease));
      for (const id of running) await join(id, true);
      if (stopped) return; // stop() came while resuming: no polling after it
      if (!timer) {
        timer = setInterval(() => {
          if (!ticking) {
            ticking = tickOnce().finally(() => {
              ticking = null;
            });
          }
        }, deps.pollIntervalMs ?? DEFAULT_BOT_POLL_INTERVAL_MS);
        timer.unref();
      }
      deps.logger?.info({ bots: bots.size, feeds: groups.size }, 'bot engine started');
    },
    async stop() {
      stopped = true;
      for (const id of [...retries.keys()]) cancelRetry(id);
      if (timer) clearInterval(timer);
      timer = undefined;
      if (leaseTimer) clearInterval(leaseTimer);
      leaseTimer = undefined;
      await ticking;
      await maintaining;
      await botWork.idle();
      // The core is the composition root's to close (its live orders settle first).
      await core.idle();
      // Positions stay; the next worker (or this one restarted) resumes the bots at once. Only
      // the bots' leases: the process's copy relations are the copy engine's to let go.
      await leases.release(leases.held());
    },
    async tick() {
      await tickOnce();
    },
    runningBotIds() {
      return [...bots.keys()];
    },
    async startBot(botId) {
      // An api process drives nothing: a worker's lease upkeep joins the running bot.
      if (deps.controlOnly) return;
      keepLeases();
      // Held elsewhere (a stop there not finished yet): that worker's upkeep joins it.
      await leases.acquire([botLease(botId)]);
      await join(botId, false);
    },
    async stopBot(botId) {
      // A bot another worker drives is stopped there: its upkeep sees the status and closes.
      if (
        !bots.has(botId) &&
        (await leases.acquire([botLease(botId)], { force: true })).length === 0
      ) {
        return;
      }
      await stopHere(botId);
    },
    /**
     * A bot that is not running: its position is closed at market with the same close path as
     * stopBot (the fill logged); a failure is recorded on the bot (status error) and rethrown.
     */
    async closePosition(botId) {
      if (bots.has(botId) || retries.has(botId)) {
        throw new Error(`bot ${botId} is running: stop it before closing its position`);
      }
      // One worker at a time acts on a bot, stopped or not.
      if ((await leases.acquire([botLease(botId)], { force: true })).length === 0) {
        throw new Error(`bot ${botId} is being handled by another worker`);
      }
      try {
        const loaded = await loadAny(botId);
        if (!loaded) return;
        await trader.refresh(loaded);
        if (!loaded.position) return;
        const formingOpen =
          Math.floor(deps.clock.now().getTime() / TIMEFRAME_MS[loaded.timeframe]) *
          TIMEFRAME_MS[loaded.timeframe];
        try {
          await trader.close(loaded, 'manual', formingOpen);
        } catch (error) {
          await fail(loaded, error);
          throw error;
        }
      } finally {
        await leases.release([botLease(botId)]);
      }
    },
  };
}
