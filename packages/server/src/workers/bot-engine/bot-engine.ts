// The bot runner. Bots are grouped per feed (exchange, symbol, timeframe): each poll reads a
// feed once for all its bots. On a candle close every bot of the group evaluates its strategy on
// the closed candles (the backtest's function, via bot-decision.ts) and acts at once — the poll
// comes right after the close, so the market order fills at the new candle's open, as the
// backtest's next-open fill. Between closes, paper bots check stop-loss/take-profit against the
// forming candle's high/low and close at the touched level (see README.md).
import { type Candles, candlesFromRows, TIMEFRAME_MS } from '@quantsquare/engine';
import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import type { MarketCandle } from '../../market/market.types.js';
import {
  type BotStrategy,
  type CompiledStrategy,
  compileStrategy,
  decide,
  latestSignal,
  protectiveHit,
  type SignalMemo,
} from './bot-decision.js';
import { createBotEngineRepository } from './bot-engine.repository.js';
import type { BotEngine, BotEngineDeps, RunningBot } from './bot-engine.types.js';
import { BotFailure, createBotTrader } from './bot-trader.js';

/** The exchange error behind a failure, following `cause` (a BotFailure wraps one). */
function exchangeCause(error: unknown): ExchangeAdapterError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof ExchangeAdapterError) return cause;
    cause = cause.cause;
  }
  return undefined;
}

/** An exchange error's kind goes into the log entry, so the web can say it in any language. */
function errorFacts(error: unknown): { error_kind?: string } {
  const cause = exchangeCause(error);
  return cause ? { error_kind: cause.kind } : {};
}

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

function compileOrNull(strategy: BotStrategy): CompiledStrategy | null {
  try {
    return compileStrategy(strategy);
  } catch {
    return null;
  }
}

const groupKey = (bot: Pick<RunningBot, 'exchange' | 'symbol' | 'timeframe'>) =>
  `${bot.exchange}|${bot.symbol}|${bot.timeframe}`;

export function createBotEngine(deps: BotEngineDeps): BotEngine {
  const repo = createBotEngineRepository(deps.db);
  const candleLimit = deps.candleLimit ?? DEFAULT_CANDLE_LIMIT;
  const writeLog = deps.writeLog ?? ((entry) => repo.writeLog(entry, deps.clock.now()));
  const trader = createBotTrader({
    repo,
    clock: deps.clock,
    clients: deps.clients,
    log: writeLog,
    events: deps.events,
  });
  const groups = new Map<string, FeedGroup>();
  const bots = new Map<number, RunningBot>();
  const resumeRetryDelays = deps.resumeRetryDelaysMs ?? DEFAULT_RESUME_RETRY_DELAYS_MS;
  /** Pending resume tries, by bot. */
  const retries = new Map<number, NodeJS.Timeout>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;

  /** Runs `work` after the bot's earlier work; a failure puts this bot (only) in error. */
  function enqueue(bot: RunningBot, work: () => Promise<void>): Promise<void> {
    const next = bot.queue.then(async () => {
      if (bot.isRemoved) return;
      try {
        await work();
      } catch (error) {
        await fail(bot, error);
      }
    });
    bot.queue = next;
    return next;
  }

  async function fail(bot: RunningBot, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    detach(bot);
    deps.logger?.error({ botId: bot.id, err: error }, 'bot failed');
    try {
      await repo.markError(bot.id, message, deps.clock.now());
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
    const { bot, account } = found;
    const percent = (value: string | null) =>
      value === null || Number(value) === 0 ? null : Number(value);
    return {
      id: bot.id,
      userId: bot.userId,
      symbol: bot.symbol,
      exchange: account.exchange,
      timeframe: bot.timeframe,
      strategy: { strategyType: bot.strategyType, strategyParameters: bot.strategyParameters },
      compiled: compileOrNull({
        strategyType: bot.strategyType,
        strategyParameters: bot.strategyParameters,
      }),
      tradeAmount: Number(bot.tradeAmount),
      stopLossPercent: percent(bot.stopLossPercentage),
      takeProfitPercent: percent(bot.takeProfitPercentage),
      account,
      lastCandleTimeMs: bot.lastCandleTimeMs ?? 0,
      position: (await repo.position(bot.id)) ?? null,
      queue: Promise.resolve(),
      isRemoved: false,
    };
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
    if (bots.has(botId)) return;
    const bot = await load(botId);
    if (!bot) return;
    try {
      if (!bot.compiled) throw new Error(`invalid strategy ${bot.strategy.strategyType}`);
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

  /** One bot on a poll of its feed. */
  async function onPoll(
    bot: RunningBot,
    closed: readonly MarketCandle[],
    forming: MarketCandle | null,
    candles: () => Candles,
    memo: SignalMemo,
  ): Promise<void> {
    const newest = closed.at(-1);
    if (newest && newest.timestamp > bot.lastCandleTimeMs) {
      // Paper SL/TP inside the candles that closed since the last decision, then the signal.
      if (bot.account.isPaper && bot.position) {
        for (const candle of closed) {
          if (candle.timestamp <= bot.lastCandleTimeMs || !bot.position) continue;
          await checkPaperProtection(bot, candle);
        }
      } else if (bot.position) {
        await trader.watchProtective(bot, newest.timestamp);
      }
      const intents = decide(
        bot.compiled ? latestSignal(candles(), bot.compiled, memo) : null,
        heldPosition(bot),
      );
      for (const intent of intents) {
        if (intent.kind === 'close') await trader.close(bot, 'signal', newest.timestamp);
        else await trader.open(bot, intent.side, newest.timestamp, forming?.open ?? newest.close);
      }
      bot.lastCandleTimeMs = newest.timestamp;
      await repo.setLastCandle(bot.id, newest.timestamp);
    }
    if (bot.account.isPaper && bot.position && forming) {
      await checkPaperProtection(bot, forming);
    }
  }

  function heldPosition(bot: RunningBot) {
    const p = bot.position;
    if (!p) return null;
    return {
      side: p.side,
      stopLoss: p.stopLoss === null ? null : Number(p.stopLoss),
      takeProfit: p.takeProfit === null ? null : Number(p.takeProfit),
    };
  }

  async function checkPaperProtection(bot: RunningBot, candle: MarketCandle): Promise<void> {
    const held = heldPosition(bot);
    if (!held || bot.position === null) return;
    // A position opened inside this candle only saw the prices from its entry on.
    if (candle.timestamp + TIMEFRAME_MS[bot.timeframe] <= bot.position.openedAt.getTime()) return;
    const hit = protectiveHit(held, candle);
    if (hit) await trader.close(bot, hit.reason, candle.timestamp, hit.price);
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

  return {
    async start() {
      stopped = false;
      for (const id of await repo.runningBotIds()) await join(id, true);
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
      await ticking;
      await Promise.all([...bots.values()].map((bot) => bot.queue));
    },
    async tick() {
      await tickOnce();
    },
    runningBotIds() {
      return [...bots.keys()];
    },
    async startBot(botId) {
      await join(botId, false);
    },
    async stopBot(botId) {
      cancelRetry(botId);
      const loaded = bots.get(botId) ?? (await loadAny(botId));
      if (!loaded) return;
      // Out of the group first, so no poll queues new work; then let work in flight finish.
      detach(loaded);
      await loaded.queue;
      if (!loaded.position) return;
      const formingOpen =
        Math.floor(deps.clock.now().getTime() / TIMEFRAME_MS[loaded.timeframe]) *
        TIMEFRAME_MS[loaded.timeframe];
      try {
        await trader.close(loaded, 'manual', formingOpen);
      } catch (error) {
        loaded.isRemoved = false;
        await fail(loaded, error);
      }
    },
    /**
     * A bot that is not running: its position is closed at market with the same close path as
     * stopBot (the fill logged); a failure is recorded on the bot (status error) and rethrown.
     */
    async closePosition(botId) {
      if (bots.has(botId) || retries.has(botId)) {
        throw new Error(`bot ${botId} is running: stop it before closing its position`);
      }
      const loaded = await loadAny(botId);
      if (!loaded?.position) return;
      const formingOpen =
        Math.floor(deps.clock.now().getTime() / TIMEFRAME_MS[loaded.timeframe]) *
        TIMEFRAME_MS[loaded.timeframe];
      try {
        await trader.close(loaded, 'manual', formingOpen);
      } catch (error) {
        await fail(loaded, error);
        throw error;
      }
    },
  };

  /** A bot whatever its status (stopBot is called after the service marked it stopped). */
  async function loadAny(botId: number): Promise<RunningBot | undefined> {
    const found = await repo.botWithAccount(botId);
    if (!found) return undefined;
    const { bot, account } = found;
    return {
      id: bot.id,
      userId: bot.userId,
      symbol: bot.symbol,
      exchange: account.exchange,
      timeframe: bot.timeframe,
      strategy: { strategyType: bot.strategyType, strategyParameters: bot.strategyParameters },
      compiled: null,
      tradeAmount: Number(bot.tradeAmount),
      stopLossPercent: null,
      takeProfitPercent: null,
      account,
      lastCandleTimeMs: bot.lastCandleTimeMs ?? 0,
      position: (await repo.position(bot.id)) ?? null,
      queue: Promise.resolve(),
      isRemoved: false,
    };
  }
}
