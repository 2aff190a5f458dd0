import type { Clock } from '../../common/clock.js';
import type { SecretBox } from '../../common/secret-box.js';
import { EXCHANGE_CHECK_TIMEOUT_MS } from '../../config.js';
import type { Database } from '../../db/database.js';
import { unitOfWork } from '../../db/unit-of-work.js';
import type { EventBus } from '../../events/index.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import type { StepUp } from '../auth/step-up.js';
import type { BotControl } from '../bots/bot-control.js';
import { type OperationLogWriter, operationLogOn } from '../operation-log/operation-log.service.js';
import { createAccountsService } from './accounts.service.js';
import { createBalanceSnapshotter } from './balance-snapshots.job.js';
import { createBalanceSnapshotsRepository } from './balance-snapshots.repository.js';
import { createBalanceSnapshotsService } from './balance-snapshots.service.js';
import type { AccountCopies, AccountOwnerPositions } from './exchange-account-deletion.js';
import { createExchangeAccountsRepository } from './exchange-accounts.repository.js';
import {
  createExchangeAccountsService,
  type ExchangeAccountsLogger,
} from './exchange-accounts.service.js';

/** One exchange call of a worker (a balance snapshot) answers within this time. */
export const EXCHANGE_CALL_TIMEOUT_MS = 15_000;

/** One account of the overview loads within this time, or shows its own error. */
export const ACCOUNT_OVERVIEW_TIMEOUT_MS = 10_000;

/** The exchange-account services wired together (the app and the workers build the same). */
export interface AccountServicesDeps {
  db: Database;
  clock: Clock;
  secretBox: SecretBox;
  /** Accounts' clients (the composition root's cache, shared with the execution core). */
  clientFor: AccountClients;
  log: ExchangeAccountsLogger;
  exchangeTimeoutMs?: number;
  /** Bound of a user's check (test connection, validate, balance). */
  checkTimeoutMs?: number;
  accountTimeoutMs?: number;
  /** Records the user's account actions (create, update, delete) in the operation log. */
  operationLog?: OperationLogWriter;
  /** Closes a deleted account's stopped bots' positions (the app passes the bot engine). */
  botControl?: BotControl;
  /** Closes webhook configurations' positions on a deleted account (the webhook module). */
  ownerPositions?: AccountOwnerPositions;
  /** Ends the copies a deleted account drives, as follower or leader (copy trading). */
  copies?: AccountCopies;
  /** Where balance snapshots are told (BalanceChanged). */
  events: EventBus;
  /** The authenticator check for adding or changing a live key (the app passes it). */
  stepUp?: StepUp;
}

export function createAccountServices(deps: AccountServicesDeps) {
  const repo = createExchangeAccountsRepository(deps.db);
  const { clientFor } = deps;
  const exchangeTimeoutMs = deps.exchangeTimeoutMs ?? EXCHANGE_CALL_TIMEOUT_MS;
  const snapshots = createBalanceSnapshotsService({
    repo: createBalanceSnapshotsRepository(deps.db),
    clientFor,
    exchangeTimeoutMs,
  });
  return {
    exchangeAccounts: createExchangeAccountsService({
      repo,
      writes: unitOfWork(deps.db, (tx) => ({
        accounts: createExchangeAccountsRepository(tx),
        operationLog: deps.operationLog && operationLogOn(tx, deps.clock),
      })),
      secretBox: deps.secretBox,
      clientFor,
      snapshots,
      clock: deps.clock,
      exchangeTimeoutMs: deps.checkTimeoutMs ?? EXCHANGE_CHECK_TIMEOUT_MS,
      log: deps.log,
      botControl: deps.botControl,
      ownerPositions: deps.ownerPositions,
      copies: deps.copies,
      stepUp: deps.stepUp,
    }),
    accounts: createAccountsService({
      accounts: repo,
      clientFor,
      snapshots,
      clock: deps.clock,
      accountTimeoutMs: deps.accountTimeoutMs ?? ACCOUNT_OVERVIEW_TIMEOUT_MS,
    }),
    /** Recorded equity (the copy simulator's leader equity at a period's start). */
    snapshots,
    snapshotter: createBalanceSnapshotter({
      accounts: repo,
      snapshots,
      events: deps.events,
      log: deps.log,
    }),
  };
}
export type AccountServices = ReturnType<typeof createAccountServices>;
