import type { Clock } from '../../common/clock.js';
import type { SecretBox } from '../../common/secret-box.js';
import { EXCHANGE_CHECK_TIMEOUT_MS } from '../../config.js';
import type { Database } from '../../db/database.js';
import { createBalanceSnapshotter } from '../../workers/balance-snapshotter.js';
import type { BotControl } from '../bots/bot-control.js';
import { createAccountClients } from '../exchange-accounts/account-clients.js';
import { createExchangeAccountsRepository } from '../exchange-accounts/exchange-accounts.repository.js';
import {
  createExchangeAccountsService,
  type ExchangeAccountsLogger,
} from '../exchange-accounts/exchange-accounts.service.js';
import type { ExchangeClientFactory } from '../exchange-accounts/exchange-client-factory.js';
import { createOperationLogRepository } from '../operation-log/operation-log.repository.js';
import {
  createOperationLog,
  type OperationLogWriter,
} from '../operation-log/operation-log.service.js';
import { createAccountsService } from './accounts.service.js';
import { createBalanceSnapshotsRepository } from './balance-snapshots.repository.js';
import { createBalanceSnapshotsService } from './balance-snapshots.service.js';

/** One exchange call of a worker (a balance snapshot) answers within this time. */
export const EXCHANGE_CALL_TIMEOUT_MS = 15_000;

/** One account of the overview loads within this time, or shows its own error. */
export const ACCOUNT_OVERVIEW_TIMEOUT_MS = 10_000;

/** The exchange-account services wired together (the app and the workers build the same). */
export function createAccountServices(deps: {
  db: Database;
  clock: Clock;
  secretBox: SecretBox;
  factory: ExchangeClientFactory;
  log: ExchangeAccountsLogger;
  exchangeTimeoutMs?: number;
  /** Bound of a user's check (test connection, validate, balance). */
  checkTimeoutMs?: number;
  accountTimeoutMs?: number;
  /** Records the user's account actions (create, update, delete) in the operation log. */
  operationLog?: OperationLogWriter;
  /** Closes a deleted account's stopped bots' positions (the app passes the bot engine). */
  botControl?: BotControl;
}) {
  const repo = createExchangeAccountsRepository(deps.db);
  const clientFor = createAccountClients({ secretBox: deps.secretBox, factory: deps.factory });
  const exchangeTimeoutMs = deps.exchangeTimeoutMs ?? EXCHANGE_CALL_TIMEOUT_MS;
  const snapshots = createBalanceSnapshotsService({
    repo: createBalanceSnapshotsRepository(deps.db),
    clientFor,
    exchangeTimeoutMs,
  });
  return {
    exchangeAccounts: createExchangeAccountsService({
      repo,
      secretBox: deps.secretBox,
      clientFor,
      snapshots,
      clock: deps.clock,
      exchangeTimeoutMs: deps.checkTimeoutMs ?? EXCHANGE_CHECK_TIMEOUT_MS,
      log: deps.log,
      operationLog: deps.operationLog,
      // The delete's log entries are written on its transaction, so both commit or neither.
      operationLogIn: deps.operationLog
        ? (tx) => createOperationLog({ repo: createOperationLogRepository(tx), clock: deps.clock })
        : undefined,
      botControl: deps.botControl,
    }),
    accounts: createAccountsService({
      accounts: repo,
      clientFor,
      snapshots,
      clock: deps.clock,
      accountTimeoutMs: deps.accountTimeoutMs ?? ACCOUNT_OVERVIEW_TIMEOUT_MS,
    }),
    snapshotter: createBalanceSnapshotter({ accounts: repo, snapshots, log: deps.log }),
  };
}
export type AccountServices = ReturnType<typeof createAccountServices>;
