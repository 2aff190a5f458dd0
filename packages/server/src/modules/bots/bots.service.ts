import {
  BOT_ERROR_CODES,
  BOT_MESSAGES,
  type Bot,
  type BotAction,
  type BotActionResponse,
  type BotCreateRequest,
  type BotList,
  customStrategyId,
  FIELD_ERROR_CODES,
  type LiveVsBacktest,
  type OperationLogEvent,
  USER_STRATEGY_ERROR_CODES,
} from '@quantsquare/contracts';
import { compileStrategy, strategyById } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import {
  BadRequest,
  Conflict,
  FieldErrorList,
  NotFound,
  ValidationFailed,
  VipRequired,
} from '../../common/errors.js';
import type { BotRow } from '../../db/schema/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import { toBot } from './bots.mappers.js';
import type { BotWithAccount } from './bots.repository.js';
import { BOT_ANSWERS, BotAlreadyExists, type BotsServiceDeps } from './bots.service.deps.js';

export {
  BOT_ANSWERS,
  BotAlreadyExists,
  type BotPositions,
  type BotsServiceDeps,
  type BotWrites,
} from './bots.service.deps.js';

const errorText = (error: unknown): string =>
  error instanceof Error && error.message !== '' ? error.message : String(error);

const positionsOf = (deps: BotsServiceDeps, botIds: readonly number[]) =>
  deps.positions.openPositionsOf(botIds.map((id) => ({ kind: 'bot' as const, id })));

/**
 * A built-in by catalogue id, or the user's own rule set (its catalogue id is offset, see
 * CUSTOM_STRATEGY_ID_OFFSET), which runs in bots for VIP users only.
 */
async function strategyFor(
  deps: BotsServiceDeps,
  userId: number,
  id: number,
): Promise<{ type: string; defaults: Record<string, number> } | undefined> {
  const builtIn = strategyById(id);
  if (builtIn) return { type: builtIn.type, defaults: { ...builtIn.defaults } };
  const custom = await deps.customStrategies?.ownedByCatalogId(userId, id);
  if (!custom) return undefined;
  if (!(await canStart(deps, userId))) {
    throw new VipRequired(
      BOT_MESSAGES.customStrategyVipRequired,
      USER_STRATEGY_ERROR_CODES.vipRequired,
    );
  }
  return { type: custom.type, defaults: {} };
}

/**
 * The parameters a new bot runs with: the strategy's defaults, or the given ones checked by
 * the engine (`parameters.<name>` field errors); a rule set takes none.
 */
function parametersOf(
  strategy: { type: string; defaults: Record<string, number> },
  given: Record<string, number> | undefined,
  errors: FieldErrorList,
): Record<string, number> | undefined {
  if (given === undefined || Object.keys(given).length === 0) return { ...strategy.defaults };
  if (customStrategyId(strategy.type) !== null) {
    errors.add('parameters', BOT_MESSAGES.ruleSetParameters, FIELD_ERROR_CODES.unknownParameter);
    return undefined;
  }
  const compiled = compileStrategy(strategy.type, given);
  if (compiled.ok) return { ...compiled.strategy.parameters };
  for (const [name, messages] of Object.entries(compiled.fields)) {
    for (const message of messages) {
      errors.add(`parameters.${name}`, message, FIELD_ERROR_CODES.invalid);
    }
  }
  return undefined;
}

async function canStart(deps: BotsServiceDeps, userId: number): Promise<boolean> {
  const vip = await deps.repo.vipOf(userId);
  return vip?.isVip === true && vip.vipExpiresAt !== null && vip.vipExpiresAt > deps.clock.now();
}

async function dataFresh(
  deps: BotsServiceDeps,
  row: BotRow,
  exchange: BotWithAccount['account']['exchange'],
) {
  try {
    return (await deps.feed.freshness(exchange, row.symbol, row.timeframe)).is_fresh;
  } catch {
    return false;
  }
}

async function latestPrice(
  deps: BotsServiceDeps,
  exchange: BotWithAccount['account']['exchange'],
  symbol: string,
) {
  try {
    const series = await deps.feed.series({ exchange, symbol, timeframe: '1m', closedCount: 1 });
    return series.forming?.close ?? series.closed.at(-1)?.close;
  } catch {
    return undefined;
  }
}

async function present(
  deps: BotsServiceDeps,
  items: readonly BotWithAccount[],
  userId: number,
): Promise<Bot[]> {
  const isVipActive = await canStart(deps, userId);
  const positions = await positionsOf(
    deps,
    items.map((item) => item.bot.id),
  );
  // A bot on one of the user's rule sets is named by it, not by its `custom:<id>` type.
  const runsRuleSet = items.some(({ bot }) => customStrategyId(bot.strategyType) !== null);
  const ruleSetNames = new Map(
    runsRuleSet && deps.customStrategies
      ? (await deps.customStrategies.catalogFor(userId)).map((s) => [s.type, s.name])
      : [],
  );
  return Promise.all(
    items.map(async ({ bot, account }) => {
      const own = positions.filter((position) => position.owner.id === bot.id);
      return toBot(bot, account, {
        canStart: isVipActive,
        strategyName: ruleSetNames.get(bot.strategyType),
        dataFresh: await dataFresh(deps, bot, account.exchange),
        positions: own,
        price: own.length > 0 ? await latestPrice(deps, account.exchange, bot.symbol) : undefined,
      });
    }),
  );
}

async function owned(deps: BotsServiceDeps, userId: number, id: number): Promise<BotWithAccount> {
  const found = await deps.repo.findOwned(userId, id);
  if (!found) throw new NotFound(BOT_ANSWERS.notFound);
  return found;
}

async function presentOne(deps: BotsServiceDeps, userId: number, id: number): Promise<Bot> {
  const [bot] = await present(deps, [await owned(deps, userId, id)], userId);
  if (!bot) throw new NotFound(BOT_ANSWERS.notFound);
  return bot;
}

/** Tells the bus a bot's new status (a lost event is only a late screen: never fail for it). */
async function announce(
  deps: BotsServiceDeps,
  bot: BotRow,
  status: BotRow['status'],
  error: string | null,
) {
  const at = deps.clock.now().getTime();
  await deps.events
    .publish(
      'BotStatusChanged',
      { botId: bot.id, userId: bot.userId, status, error },
      `bot:${bot.id}:${status}:${at}`,
    )
    .catch(() => undefined);
}

const logUserAction = (
  operationLog: OperationLogWriter,
  bot: BotRow,
  event: OperationLogEvent,
  message: string,
  details: Record<string, unknown> = {},
) =>
  operationLog.record({
    userId: bot.userId,
    botId: bot.id,
    type: 'user_action',
    botSymbol: bot.symbol,
    event,
    message,
    details: { bot_id: bot.id, ...details },
  });

/**
 * Runs an engine call. The engine records its own failures (status error, last_error, an error
 * log entry) or throws; either way the caller answers 400 with the engine's message.
 */
async function runEngine(
  deps: BotsServiceDeps,
  userId: number,
  bot: BotRow,
  work: () => Promise<void>,
  code: string,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const message = errorText(error);
    await deps.writes(async (tx) => {
      await tx.bots.markError(bot.id, message, deps.clock.now());
      await tx.operationLog.record({
        userId,
        botId: bot.id,
        type: 'error',
        botSymbol: bot.symbol,
        event: 'bot_failed',
        message,
        details: { bot_id: bot.id },
      });
    });
    await announce(deps, bot, 'error', message);
    throw new BadRequest(code, message);
  }
  const after = await deps.repo.findOwned(userId, bot.id);
  if (after?.bot.status === 'error') {
    throw new BadRequest(code, after.bot.lastError ?? BOT_ANSWERS.engineFailed);
  }
}

/** What starting needs besides the bot: an active VIP and an active exchange account. */
async function assertStartable(
  deps: BotsServiceDeps,
  userId: number,
  account: { isActive: boolean },
) {
  if (!(await canStart(deps, userId))) throw new VipRequired(BOT_MESSAGES.vipRequired);
  if (!account.isActive)
    throw ValidationFailed.field(
      'exchange_api',
      BOT_ANSWERS.accountInactive,
      FIELD_ERROR_CODES.accountInactive,
    );
}

async function start(
  deps: BotsServiceDeps,
  userId: number,
  id: number,
): Promise<BotActionResponse> {
  const { bot, account } = await owned(deps, userId, id);
  await assertStartable(deps, userId, account);
  const now = deps.clock.now();
  // Conditional: of two concurrent starts only one reaches the engine.
  const marked = await deps.writes(async (tx) => {
    const row = await tx.bots.markRunning(id, now);
    if (row) {
      await logUserAction(tx.operationLog, bot, 'bot_started', `Started bot ${bot.symbol}`, {
        from_status: bot.status,
      });
    }
    return row;
  });
  if (!marked) {
    return {
      success: true,
      message: BOT_ANSWERS.alreadyRunning,
      bot: await presentOne(deps, userId, id),
    };
  }
  await announce(deps, bot, 'running', null);
  await runEngine(deps, userId, bot, () => deps.control.startBot(id), BOT_ERROR_CODES.startFailed);
  return { success: true, message: BOT_ANSWERS.started, bot: await presentOne(deps, userId, id) };
}

async function stop(deps: BotsServiceDeps, userId: number, id: number): Promise<BotActionResponse> {
  const { bot } = await owned(deps, userId, id);
  // Stopped first, so the engine never resumes the bot; then the engine closes its position.
  const isStopped = await deps.writes(async (tx) => {
    if (!(await tx.bots.markStopped(id, deps.clock.now()))) return false;
    await logUserAction(tx.operationLog, bot, 'bot_stopped', `Stopped bot ${bot.symbol}`);
    return true;
  });
  if (!isStopped) {
    return {
      success: true,
      message: BOT_ANSWERS.notRunning,
      bot: await presentOne(deps, userId, id),
    };
  }
  await announce(deps, bot, 'stopped', null);
  await runEngine(deps, userId, bot, () => deps.control.stopBot(id), BOT_ERROR_CODES.stopFailed);
  return { success: true, message: BOT_ANSWERS.stopped, bot: await presentOne(deps, userId, id) };
}

/**
 * Stop (a running bot closes its position, as stop does), then start. What starting needs is
 * checked first, so a bot that could not start again is never stopped by a restart.
 */
async function restart(
  deps: BotsServiceDeps,
  userId: number,
  id: number,
): Promise<BotActionResponse> {
  const { account } = await owned(deps, userId, id);
  await assertStartable(deps, userId, account);
  await stop(deps, userId, id);
  const started = await start(deps, userId, id);
  return { ...started, message: BOT_ANSWERS.restarted };
}

async function createBot(
  deps: BotsServiceDeps,
  userId: number,
  input: BotCreateRequest,
): Promise<BotActionResponse> {
  const errors = new FieldErrorList();
  const account = await deps.repo.findOwnedAccount(userId, input.exchange_api);
  if (!account) {
    errors.add('exchange_api', BOT_MESSAGES.unknownAccount, FIELD_ERROR_CODES.unknownAccount);
  } else if (!account.isActive) {
    errors.add('exchange_api', BOT_ANSWERS.accountInactive, FIELD_ERROR_CODES.accountInactive);
  }
  const strategy = await strategyFor(deps, userId, input.strategy);
  if (!strategy) {
    errors.add('strategy', BOT_MESSAGES.unknownStrategy, FIELD_ERROR_CODES.unknownStrategy);
  }
  if (account) {
    const listed = await deps.feed.symbols(account.exchange);
    if (!listed.symbols.includes(input.symbol)) {
      errors.add(
        'symbol',
        `Unknown symbol ${input.symbol} on ${account.exchange}`,
        FIELD_ERROR_CODES.unknownSymbol,
      );
    }
  }
  const parameters = strategy && parametersOf(strategy, input.parameters, errors);
  if (!account || !strategy || !parameters || !errors.isEmpty) {
    throw errors.failure('Validation failed');
  }
  const existing = await deps.repo.findByAccountSymbol(account.id, input.symbol);
  if (existing) throw new BotAlreadyExists(existing);
  const now = deps.clock.now();
  const percent = (value: number | null | undefined) =>
    value === null || value === undefined ? null : new Decimal(value).toString();
  // The bot and its log entry: one transaction.
  const row = await deps.writes(async (tx) => {
    const inserted = await tx.bots.insertUnlessTaken({
      userId,
      exchangeAccountId: account.id,
      symbol: input.symbol,
      timeframe: input.timeframe,
      strategyType: strategy.type,
      strategyParameters: parameters,

      tradeAmount: new Decimal(input.trade_amount).toString(),
      stopLossPercentage: percent(input.stop_loss_percentage),
      takeProfitPercentage: percent(input.take_profit_percentage),
      status: 'created',
      createdAt: now,
      updatedAt: now,
    });
    if (inserted) {
      await logUserAction(
        tx.operationLog,
        inserted,
        'bot_created',
        `Created bot ${inserted.symbol}`,
        {
          exchange_api: account.id,
          exchange_api_name: account.name,
          strategy_type: strategy.type,
          timeframe: inserted.timeframe,
          trade_amount: input.trade_amount,
          stop_loss_percentage: input.stop_loss_percentage ?? null,
          take_profit_percentage: input.take_profit_percentage ?? null,
        },
      );
    }
    return inserted;
  });
  if (!row) {
    // Another request created the same (account, symbol) bot in between.
    const winner = await deps.repo.findByAccountSymbol(account.id, input.symbol);
    if (winner) throw new BotAlreadyExists(winner);
    throw new Conflict(BOT_MESSAGES.alreadyExists);
  }
  return {
    success: true,
    message: BOT_ANSWERS.created,
    bot: await presentOne(deps, userId, row.id),
  };
}

async function removeBot(
  deps: BotsServiceDeps,
  userId: number,
  id: number,
): Promise<{ success: boolean; message: string }> {
  const { bot } = await owned(deps, userId, id);
  // A stopped bot in error may still hold a position: the engine closes it (and cancels its
  // protective orders) first, so deleting never leaves an unwatched position behind.
  if (bot.status !== 'running' && (await positionsOf(deps, [id])).length > 0) {
    await deps.control.stopBot(id);
    if ((await positionsOf(deps, [id])).length > 0) {
      const after = await deps.repo.findOwned(userId, id);
      throw new BadRequest(
        BOT_ERROR_CODES.stopFailed,
        after?.bot.lastError ?? 'The open position could not be closed',
      );
    }
  }
  // The bot row goes with its log entry (which keeps the bot's id in details only).
  const isDeleted =
    bot.status !== 'running' &&
    (await deps.writes(async (tx) => {
      if (!(await tx.bots.deleteUnlessRunning(id))) return false;
      await tx.operationLog.record({
        userId,
        type: 'user_action',
        botSymbol: bot.symbol,
        event: 'bot_deleted',
        message: `Deleted bot ${bot.symbol}`,
        details: { bot_id: bot.id },
      });
      return true;
    }));
  if (!isDeleted) {
    // Deleting missed: the bot started in between, or it is already gone.
    if (bot.status === 'running' || (await deps.repo.findOwned(userId, id))) {
      throw new BadRequest(BOT_ERROR_CODES.stopBeforeDelete, BOT_MESSAGES.stopBeforeDelete);
    }
    throw new NotFound(BOT_ANSWERS.notFound);
  }
  return { success: true, message: BOT_ANSWERS.deleted };
}

/**
 * A user's trading bots: the rules of creating, starting, stopping and deleting. The engine
 * trades (through BotControl); this service records the status and the user's actions.
 */
export function createBotsService(deps: BotsServiceDeps) {
  const actions: Record<BotAction, (userId: number, id: number) => Promise<BotActionResponse>> = {
    start: start.bind(null, deps),
    stop: stop.bind(null, deps),
    restart: restart.bind(null, deps),
  };

  return {
    async list(userId: number): Promise<BotList> {
      const results = await present(deps, await deps.repo.listForUser(userId), userId);
      return { results, count: results.length };
    },

    get: presentOne.bind(null, deps),

    /** The bot's live period against the backtest of its strategy on the same closed candles. */
    async liveVsBacktest(userId: number, id: number): Promise<LiveVsBacktest> {
      const found = await owned(deps, userId, id);
      if (!deps.liveChecks) throw new NotFound(BOT_ANSWERS.notFound);
      return deps.liveChecks.compare(found);
    },

    create: createBot.bind(null, deps),

    /** start from created, stopped or error (Restart); a running bot answers success as is. */
    start: start.bind(null, deps),

    /** stop a running bot (the engine closes its position); any other status answers as is. */
    stop: stop.bind(null, deps),

    /** restart: stop, then start (checked as start is before anything stops). */
    restart: restart.bind(null, deps),

    async act(userId: number, id: number, action: BotAction): Promise<BotActionResponse> {
      return actions[action](userId, id);
    },

    remove: removeBot.bind(null, deps),
  };
}
export type BotsService = ReturnType<typeof createBotsService>;
