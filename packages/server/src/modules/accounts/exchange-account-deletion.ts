import { BOT_MESSAGES, ERROR_CODES, type ExchangeApiDeleteResponse } from '@quantsquare/contracts';
import { BadRequest, NotFound } from '../../common/errors.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { BotControl } from '../bots/bot-control.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { AccountBot } from './exchange-accounts.repository.js';
import type { AccountWrites } from './exchange-accounts.service.js';
import { exchangeErrorKind, exchangeErrorMessage } from './exchange-call.js';

export const DELETION_MESSAGES = {
  notFound: 'Exchange API not found',
  deleted: 'API deleted',
  positionNotClosed: 'The open position could not be closed',
  stillOpen:
    'The account still holds a position or an order in flight; nothing was deleted, try again',
  noEngine: 'Open positions can only be closed while the bot engine runs',
} as const;

type BotRef = { readonly id: number; readonly symbol: string };

/** Owners other than bots that hold positions on an account (webhook configurations). */
export interface AccountOwnerPositions {
  /** Closes them all through the execution core; throws when one cannot be closed. */
  closeOnAccount(accountId: number): Promise<{ config_id: number; symbol: string }[]>;
}

/** Copy trading: the copies an account drives, as follower or as leader, end with it. */
export interface AccountCopies {
  /** Stops them and closes their copied positions; throws when a follower's close fails. */
  endOnAccount(accountId: number): Promise<{ relation_id: number; symbol: string }[]>;
}

const refuseRunning = (running: readonly BotRef[]) =>
  new BadRequest(ERROR_CODES.botRunning, BOT_MESSAGES.stopBeforeDelete, {
    running_bots: running.map((bot) => ({ id: bot.id, symbol: bot.symbol })),
  });

/** `close`'s answer; a failure refuses the deletion with the exchange's reason. */
async function closing<T>(close: () => Promise<T>): Promise<T> {
  try {
    return await close();
  } catch (error) {
    throw new BadRequest(
      ERROR_CODES.positionCloseFailed,
      `${DELETION_MESSAGES.positionNotClosed}: ${exchangeErrorMessage(error)}`,
      { error_kind: exchangeErrorKind(error) },
    );
  }
}

/** The deletion's log entries: each bot deleted with the account, then the account. */
async function logDeletion(
  writer: OperationLogWriter | undefined,
  userId: number,
  account: ExchangeAccountRow,
  deletedBots: readonly BotRef[],
): Promise<void> {
  for (const bot of deletedBots) {
    await writer?.record({
      userId,
      botId: bot.id,
      botSymbol: bot.symbol,
      type: 'user_action',
      event: 'bot_deleted',
      message: `Deleted bot ${bot.symbol} with exchange API ${account.name}`,
      details: { bot_id: bot.id, exchange_api: account.id, reason: 'api_deleted' },
    });
  }
  await writer?.record({
    userId,
    type: 'user_action',
    event: 'api_deleted',
    message: `Deleted exchange API ${account.name}`,
    details: {
      exchange_api: account.id,
      name: account.name,
      exchange: account.exchange,
      deleted_bots: deletedBots.map((bot) => bot.id),
    },
  });
}

/**
 * Deleting an exchange account with its bots: refused while one of them runs (the bot delete's
 * own rule and message); the positions of its stopped bots are closed through the bot engine
 * first (which logs each close); then the account and its bots go in one transaction with a
 * `bot_deleted` entry per bot and the `api_deleted` entry.
 */
export function createAccountDeletion(deps: {
  /** The account's rows and its log entries, written in one transaction. */
  readonly writes: UnitOfWork<AccountWrites>;
  readonly botControl: BotControl | undefined;
  /** Closes the positions other owners (webhook configurations) hold on the account. */
  readonly ownerPositions?: AccountOwnerPositions | undefined;
  /** Ends the copies the account drives (their positions closed). */
  readonly copies?: AccountCopies | undefined;
}) {
  async function closeStoppedPositions(accountBots: readonly AccountBot[]) {
    const holding = accountBots.filter((bot) => bot.has_open_position);
    if (holding.length === 0) return [];
    const control = deps.botControl;
    if (!control) {
      throw new BadRequest(ERROR_CODES.positionCloseFailed, DELETION_MESSAGES.noEngine);
    }
    const closed: { bot_id: number; symbol: string }[] = [];
    for (const bot of holding) {
      try {
        await control.closePosition(bot.id);
      } catch (error) {
        throw new BadRequest(
          ERROR_CODES.positionCloseFailed,
          `${DELETION_MESSAGES.positionNotClosed} (${bot.symbol}): ${exchangeErrorMessage(error)}`,
          { error_kind: exchangeErrorKind(error) },
        );
      }
      closed.push({ bot_id: bot.id, symbol: bot.symbol });
    }
    return closed;
  }

  return {
    /** `account` is the user's own (checked by the caller); `accountBots` its bots. */
    async remove(
      userId: number,
      account: ExchangeAccountRow,
      accountBots: readonly AccountBot[],
    ): Promise<ExchangeApiDeleteResponse> {
      const running = accountBots.filter((bot) => bot.status === 'running');
      if (running.length > 0) throw refuseRunning(running);
      const closed = await closeStoppedPositions(accountBots);
      const ownerPositions = deps.ownerPositions;
      const closedWebhook = ownerPositions
        ? await closing(() => ownerPositions.closeOnAccount(account.id))
        : [];
      const copies = deps.copies;
      const closedCopy = copies ? await closing(() => copies.endOnAccount(account.id)) : [];
      const deletion = await deps.writes((scope) =>
        scope.accounts.deleteOwnedWithBots(userId, account.id, (_tx, deleted) =>
          logDeletion(scope.operationLog, userId, account, deleted),
        ),
      );
      switch (deletion.outcome) {
        case 'missing':
          throw new NotFound(DELETION_MESSAGES.notFound);
        // A bot started, or opened a position, while the positions were being closed.
        case 'running':
          throw refuseRunning(deletion.bots);
        // Or a signal or a copy traded after its owner's positions were closed: nothing went,
        // and the next try closes what it opened.
        case 'open_positions':
          throw new BadRequest(
            ERROR_CODES.positionCloseFailed,
            `${DELETION_MESSAGES.stillOpen} (${deletion.symbols.join(', ')})`,
            { open_symbols: [...deletion.symbols] },
          );
        case 'deleted':
          return {
            success: true,
            message: DELETION_MESSAGES.deleted,
            deleted_bots: [...deletion.bots],
            closed_positions: closed,
            ...(closedWebhook.length > 0 ? { closed_webhook_positions: closedWebhook } : {}),
            ...(closedCopy.length > 0 ? { closed_copy_positions: closedCopy } : {}),
          };
      }
    },
  };
}
