import {
  BOT_ERROR_CODES,
  BOT_MESSAGES,
  type Bot,
  type BotAction,
  type BotActionResponse,
  type BotCreateRequest,
  type BotList,
  customStrategyId,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  type LiveVsBacktest,
  type OperationLogEvent,
  USER_STRATEGY_ERROR_CODES,
} from '@quantsquare/contracts';
import { compileStrategy, strategyById } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import {
  BadRequest,
  Conflict,
  DomainError,
  FieldErrorList,
  NotFound,
  ValidationFailed,
  VipRequired,
} from '../../common/errors.js';
import type { BotRow } from '../../db/schema/index.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { EventBus } from '../../events/index.js';
import type { OrderOwner, OwnerPosition } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { BotControl } from './bot-control.js';
import { toBot } from './bots.mappers.js';
import type { BotsRepository, BotWithAccount } from './bots.repository.js';
import type { LiveChecks } from './live-checks.js';

export const BOT_ANSWERS = {
  created: 'Bot created successfully!',
  started: 'Bot started successfully',
  alreadyRunning: 'Bot is already running',
  stopped: 'Bot stopped successfully',
  restarted: 'Bot restarted successfully',
  notRunning: 'Bot is not running',
  deleted: 'Bot deleted successfully',
  notFound: 'Bot not found',
  accountInactive: 'Exchange account is inactive',
  engineFailed: 'The bot engine failed',
} as const;

/** A second bot on the same exchange account and symbol (HTTP 409, contracts botExistsError). */
export class BotAlreadyExists extends DomainError {
  constructor(existing: Pick<BotRow, 'id' | 'status'>) {
    super(409, ERROR_CODES.conflict, BOT_MESSAGES.alreadyExists, undefined, {
      success: false,
      details: BOT_MESSAGES.alreadyExistsDetails,
      suggestion: BOT_MESSAGES.alreadyExistsSuggestion,
      existing_bot: { id: existing.id, status: existing.status },
    });
  }
}

/** The bots' positions, from the execution core's book. */
export interface BotPositions {
  openPositionsOf(owners: readonly OrderOwner[]): Promise<OwnerPosition[]>;
}

/** What a bot's change writes: its row and its log entry, in one transaction. */
export interface BotWrites {
  readonly bots: BotsRepository;
  readonly operationLog: OperationLogWriter;
}

export interface BotsServiceDeps {
  /** Reads (and the engine-failure write made outside any other change). */
  readonly repo: BotsRepository;
  readonly writes: UnitOfWork<BotWrites>;
  readonly positions: BotPositions;
  readonly feed: MarketFeed;
  readonly control: BotControl;
  /** BotStatusChanged goes here (the websocket hub and the square listen). */
  readonly events: EventBus;
  readonly clock: Clock;
  /** Users' own strategies (the user-strategies service), chosen by catalogue id. */
  readonly customStrategies?: {
    ownedByCatalogId(
      userId: number,
      catalogId: number,
    ): Promise<{ type: string; name: string } | undefined>;
    /** The owner's rule sets, to name a bot that runs one. */
    catalogFor(userId: number): Promise<readonly { type: string; name: string }[]>;
  };
  /** Live against backtest (compares on request; the hourly pass keeps the square's). */
  readonly liveChecks?: Pick<LiveChecks, 'compare'>;
}

const errorText = (error: unknown): string =>
  error instanceof Error && error.message !== '' ? error.message : String(error);

/**
 * A user's trading bots: the rules of creating, starting, stopping and deleting. The engine
 * trades (through BotControl); this service records the status and the user's actions.
 */
export function createBotsService(deps: BotsServiceDeps) {
  const { repo, feed, control, clock, writes } = deps;
  const positionsOf = (botIds: readonly number[]) =>
    deps.positions.openPositionsOf(botIds.map((id) => ({ kind: 'bot' as const, id })));

  /**
   * A built-in by catalogue id, or the user's own rule set (its catalogue id is offset, see
   * CUSTOM_STRATEGY_ID_OFFSET), which runs in bots for VIP users only.
   */
  async function strategyFor(
    userId: number,
    id: number,
  ): Promise<{ type: string; defaults: Record<string, number> } | undefined> {
    const builtIn = strategyById(id);
    if (builtIn) return { type: builtIn.type, defaults: { ...builtIn.defaults } };
    const custom = await deps.customStrategies?.ownedByCatalogId(userId, id);
    if (!custom) return undefined;
    if (!(await canStart(userId))) {
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

  async function canStart(userId: number): Promise<boolean> {
    const vip = await repo.vipOf(userId);
    return vip?.isVip === true && vip.vipExpiresAt !== null && vip.vipExpiresAt > clock.now();
  }

  async function dataFresh(row: BotRow, exchange: BotWithAccount['account']['exchange']) {
    try {
      return (await feed.freshness(exchange, row.symbol, row.timeframe)).is_fresh;
    } catch {
      return false;
    }
  }

  async function latestPrice(exchange: BotWithAccount['account']['exchange'], symbol: string) {
    try {
      const series = await feed.series({ exchange, symbol, timeframe: '1m', closedCount: 1 });
      return series.forming?.close ?? series.closed.at(-1)?.close;
    } catch {
      return undefined;
    }
  }

  async function present(items: readonly BotWithAccount[], userId: number): Promise<Bot[]> {
    const isVipActive = await canStart(userId);
    const positions = await positionsOf(items.map((item) => item.bot.id));
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
          dataFresh: await dataFresh(bot, account.exchange),
          positions: own,
          price: own.length > 0 ? await latestPrice(account.exchange, bot.symbol) : undefined,
        });
      }),
    );
  }

  async function owned(userId: number, id: number): Promise<BotWithAccount> {
    const found = await repo.findOwned(userId, id);
    if (!found) throw new NotFound(BOT_ANSWERS.notFound);
    return found;
  }

  async function presentOne(userId: number, id: number): Promise<Bot> {
    const [bot] = await present([await owned(userId, id)], userId);
    if (!bot) throw new NotFound(BOT_ANSWERS.notFound);
    return bot;
  }

  /** Tells the bus a bot's new status (a lost event is only a late screen: never fail for it). */
  async function announce(bot: BotRow, status: BotRow['status'], error: string | null) {
    const at = clock.now().getTime();
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
    userId: number,
    bot: BotRow,
    work: () => Promise<void>,
    code: string,
  ): Promise<void> {
    try {
      await work();
    } catch (error) {
      const message = errorText(error);
      await writes(async (tx) => {
        await tx.bots.markError(bot.id, message, clock.now());
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
      await announce(bot, 'error', message);
      throw new BadRequest(code, message);
    }
    const after = await repo.findOwned(userId, bot.id);
    if (after?.bot.status === 'error') {
      throw new BadRequest(code, after.bot.lastError ?? BOT_ANSWERS.engineFailed);
    }
  }

  /** What starting needs besides the bot: an active VIP and an active exchange account. */
  async function assertStartable(userId: number, account: { isActive: boolean }) {
    if (!(await canStart(userId))) throw new VipRequired(BOT_MESSAGES.vipRequired);
    if (!account.isActive)
      throw ValidationFailed.field(
        'exchange_api',
        BOT_ANSWERS.accountInactive,
        FIELD_ERROR_CODES.accountInactive,
      );
  }

  async function start(userId: number, id: number): Promise<BotActionResponse> {
    const { bot, account } = await owned(userId, id);
    await assertStartable(userId, account);
    const now = clock.now();
    // Conditional: of two concurrent starts only one reaches the engine.
    const marked = await writes(async (tx) => {
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
        bot: await presentOne(userId, id),
      };
    }
    await announce(bot, 'running', null);
    await runEngine(userId, bot, () => control.startBot(id), BOT_ERROR_CODES.startFailed);
    return { success: true, message: BOT_ANSWERS.started, bot: await presentOne(userId, id) };
  }

  async function stop(userId: number, id: number): Promise<BotActionResponse> {
    const { bot } = await owned(userId, id);
    // Stopped first, so the engine never resumes the bot; then the engine closes its position.
    const isStopped = await writes(async (tx) => {
      if (!(await tx.bots.markStopped(id, clock.now()))) return false;
      await logUserAction(tx.operationLog, bot, 'bot_stopped', `Stopped bot ${bot.symbol}`);
      return true;
    });
    if (!isStopped) {
      return { success: true, message: BOT_ANSWERS.notRunning, bot: await presentOne(userId, id) };
    }
    await announce(bot, 'stopped', null);
    await runEngine(userId, bot, () => control.stopBot(id), BOT_ERROR_CODES.stopFailed);
    return { success: true, message: BOT_ANSWERS.stopped, bot: await presentOne(userId, id) };
  }

  /**
   * Stop (a running bot closes its position, as stop does), then start. What starting needs is
   * checked first, so a bot that could not start again is never stopped by a restart.
   */
  async function restart(userId: number, id: number): Promise<BotActionResponse> {
    const { account } = await owned(userId, id);
    await assertStartable(userId, account);
    await stop(userId, id);
    const started = await start(userId, id);
    return { ...started, message: BOT_ANSWERS.restarted };
  }

  const actions: Record<BotAction, (userId: number, id: number) => Promise<BotActionResponse>> = {
    start,
    stop,
    restart,
  };

  return {
    async list(userId: number): Promise<BotList> {
      const results = await present(await repo.listForUser(userId), userId);
      return { results, count: results.length };
    },

    get: presentOne,

    /** The bot's live period against the backtest of its strategy on the same closed candles. */
    async liveVsBacktest(userId: number, id: number): Promise<LiveVsBacktest> {
      const found = await owned(userId, id);
      if (!deps.liveChecks) throw new NotFound(BOT_ANSWERS.notFound);
      return deps.liveChecks.compare(found);
    },

    async create(userId: number, input: BotCreateRequest): Promise<BotActionResponse> {
      const errors = new FieldErrorList();
      const account = await repo.findOwnedAccount(userId, input.exchange_api);
      if (!account) {
        errors.add('exchange_api', BOT_MESSAGES.unknownAccount, FIELD_ERROR_CODES.unknownAccount);
      } else if (!account.isActive) {
        errors.add('exchange_api', BOT_ANSWERS.accountInactive, FIELD_ERROR_CODES.accountInactive);
      }
      const strategy = await strategyFor(userId, input.strategy);
      if (!strategy) {
        errors.add('strategy', BOT_MESSAGES.unknownStrategy, FIELD_ERROR_CODES.unknownStrategy);
      }
      if (account) {
        const listed = await feed.symbols(account.exchange);
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
      const existing = await repo.findByAccountSymbol(account.id, input.symbol);
      if (existing) throw new BotAlreadyExists(existing);
      const now = clock.now();
      const percent = (value: number | null | undefined) =>
        value === null || value === undefined ? null : new Decimal(value).toString();
      // The bot and its log entry: one transaction.
      const row = await writes(async (tx) => {
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
        const winner = await repo.findByAccountSymbol(account.id, input.symbol);
        if (winner) throw new BotAlreadyExists(winner);
        throw new Conflict(BOT_MESSAGES.alreadyExists);
      }
      return { success: true, message: BOT_ANSWERS.created, bot: await presentOne(userId, row.id) };
    },

    /** start from created, stopped or error (Restart); a running bot answers success as is. */
    start,

    /** stop a running bot (the engine closes its position); any other status answers as is. */
    stop,

    /** restart: stop, then start (checked as start is before anything stops). */
    restart,

    async act(userId: number, id: number, action: BotAction): Promise<BotActionResponse> {
      return actions[action](userId, id);
    },

    async remove(userId: number, id: number): Promise<{ success: boolean; message: string }> {
      const { bot } = await owned(userId, id);
      // A stopped bot in error may still hold a position: the engine closes it (and cancels its
      // protective orders) first, so deleting never leaves an unwatched position behind.
      if (bot.status !== 'running' && (await positionsOf([id])).length > 0) {
        await control.stopBot(id);
        if ((await positionsOf([id])).length > 0) {
          const after = await repo.findOwned(userId, id);
          throw new BadRequest(
            BOT_ERROR_CODES.stopFailed,
            after?.bot.lastError ?? 'The open position could not be closed',
          );
        }
      }
      // The bot row goes with its log entry (which keeps the bot's id in details only).
      const isDeleted =
        bot.status !== 'running' &&
        (await writes(async (tx) => {
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
        if (bot.status === 'running' || (await repo.findOwned(userId, id))) {
          throw new BadRequest(BOT_ERROR_CODES.stopBeforeDelete, BOT_MESSAGES.stopBeforeDelete);
        }
        throw new NotFound(BOT_ANSWERS.notFound);
      }
      return { success: true, message: BOT_ANSWERS.deleted };
    },
  };
}
export type BotsService = ReturnType<typeof createBotsService>;
