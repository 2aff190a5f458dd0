// The composition root's feature stages (the platform's are in composition.stages.ts): the
// drivers, accounts, coins, the square and copy trading, support and the scheduled jobs.

import { Decimal } from 'decimal.js';
import type { CoinBalanceReader } from './common/coin-balances.js';
import { createScheduler } from './common/scheduler.js';
import type { SecretBox } from './common/secret-box.js';
import type { ServiceDeps } from './composition.deps.js';
import type { clusterStage, executionStage, marketStage } from './composition.stages.js';
import { unitOfWork } from './db/unit-of-work.js';
import type { Mailer } from './delivery/delivery.adapters.js';
import type { EventBus } from './events/index.js';
import type { Outbox } from './events/outbox.js';
import { feedPriceSource } from './exchange/paper/price-source.js';
import {
  createAccountServices,
  EXCHANGE_CALL_TIMEOUT_MS,
} from './modules/accounts/account-services.js';
import { accountBalance } from './modules/accounts/balance-snapshots.service.js';
import type { AccountCopies } from './modules/accounts/exchange-account-deletion.js';
import type { StepUp } from './modules/auth/step-up.js';
import { createBotsRepository } from './modules/bots/bots.repository.js';
import { createBotsService } from './modules/bots/bots.service.js';
import type { AccountLiveCheck } from './modules/bots/live-checks.js';
import { createLiveChecks } from './modules/bots/live-checks.js';
import { publishedStrategiesOf } from './modules/bots/published-strategies.js';
import {
  createCopyFiguresReader,
  createCopyingCheck,
  createCopyTradingModule,
} from './modules/copy-trading/copy-trading.module.js';
import { createHelpRepository } from './modules/help/help.repository.js';
import { createHelpService } from './modules/help/help.service.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { createOperationLogRepository } from './modules/operation-log/operation-log.repository.js';
import { createOperationLog } from './modules/operation-log/operation-log.service.js';
import { createRiskService } from './modules/risk/risk.service.js';
import { createRiskMonitorJob } from './modules/risk/risk-monitor.job.js';
import { createSquareMetricsJob, createSquareModule } from './modules/square/square.module.js';
import { createStaffService } from './modules/staff/staff.service.js';
import { createDepositNetworks } from './modules/wallet/deposit-networks.js';
import { createInvitationsService } from './modules/wallet/invitations.service.js';
import type { Ledger } from './modules/wallet/ledger.js';
import { createLedger } from './modules/wallet/ledger.js';
import { createWalletService } from './modules/wallet/wallet.service.js';
import { createWebhooksModule } from './modules/webhooks/webhooks.module.js';
import type { ImageStore } from './uploads/image-store.js';
import { createBotEngine } from './workers/bot-engine/index.js';

type Market = ReturnType<typeof marketStage>;
type Executing = ReturnType<typeof executionStage>;
type Cluster = ReturnType<typeof clusterStage>;

/** The drivers the accounts need: the bot engine (or its stop seam) and webhook trading. */
export function driversStage(
  deps: ServiceDeps,
  parts: Pick<Market, 'marketFeed' | 'userStrategies' | 'operationLog'> &
    Pick<Executing, 'execution' | 'eventOutbox'> &
    Pick<Cluster, 'leasesOf'> & { stepUp: StepUp; events: EventBus },
) {
  const { config, db, clock, log } = deps;
  const { marketFeed, execution, leasesOf, operationLog, eventOutbox } = parts;
  // An api process keeps an engine for the bots' stop and close commands only (it drives none).
  const botEngine =
    deps.runsWorkers || deps.joinsCluster
      ? createBotEngine({
          db,
          clock,
          feed: marketFeed,
          execution,
          leases: leasesOf(),
          ruleSets: parts.userStrategies,
          outbox: eventOutbox,
          writeLog: (entry) => operationLog.record(entry),
          logger: log,
          controlOnly: !deps.runsWorkers,
        })
      : undefined;
  const botControl = deps.botControl ?? botEngine;
  // TradingView webhook trading: its executor runs where the workers run (main.ts starts it).
  const webhooks = createWebhooksModule({
    db,
    clock,
    execution,
    prices: feedPriceSource(marketFeed),
    feed: marketFeed,
    operationLog,
    log,
    signalsPerMinute: config.webhookSignalsPerMinute,
    leases: leasesOf(),
    stepUp: parts.stepUp,
    outbox: eventOutbox,
    events: parts.events,
  });
  return { botEngine, botControl, webhooks };
}

/** Exchange accounts, live-against-backtest checks and the bots' API. */
export function accountsStage(
  deps: ServiceDeps,
  parts: Pick<Market, 'marketFeed' | 'userStrategies' | 'operationLog'> &
    Pick<Executing, 'execution' | 'accountClients'> &
    Pick<ReturnType<typeof driversStage>, 'botControl' | 'webhooks'> & {
      secretBox: SecretBox;
      stepUp: StepUp;
      events: EventBus;
      /** Copy trading is built later; a deletion asks it only once requests run. */
      endCopiesOnAccount: AccountCopies['endOnAccount'];
      /** The square is built later; the hourly checks reach it only once the jobs run. */
      publishLiveChecks: (checks: readonly AccountLiveCheck[]) => Promise<void>;
    },
) {
  const { config, db, clock, log } = deps;
  const { marketFeed, execution, botControl, operationLog, userStrategies, events } = parts;
  const accountServices = createAccountServices({
    db,
    clock,
    secretBox: parts.secretBox,
    clientFor: parts.accountClients,
    log,
    operationLog,
    events,
    checkTimeoutMs: config.exchangeCheckTimeoutMs,
    stepUp: parts.stepUp,
    ...(botControl ? { botControl } : {}),
    ownerPositions: {
      closeOnAccount: (accountId) => parts.webhooks.closePositionsOnAccount(accountId),
    },
    copies: { endOnAccount: parts.endCopiesOnAccount },
  });
  // Live against backtest: on request for a bot's owner, and hourly for every bot that has been
  // live, handed to the square (its live_delta sort and honest tag).
  const liveChecks = createLiveChecks({
    repo: createBotsRepository(db),
    positions: execution,
    feed: marketFeed,
    clock,
    customStrategies: userStrategies,
    slippageBps: config.paperSlippageBps,
    publish: parts.publishLiveChecks,
    log,
  });
  const bots = botControl
    ? createBotsService({
        repo: createBotsRepository(db),
        writes: unitOfWork(db, (tx) => ({
          bots: createBotsRepository(tx),
          operationLog: createOperationLog({ repo: createOperationLogRepository(tx), clock }),
        })),
        positions: execution,
        events,
        feed: marketFeed,
        control: botControl,
        clock,
        customStrategies: userStrategies,
        liveChecks,
      })
    : undefined;
  return { accountServices, liveChecks, bots };
}

/** Platform coins: the ledger alone changes balances (and announces CoinBalanceChanged). */
export async function coinsStage(
  deps: ServiceDeps,
  parts: { events: EventBus; eventOutbox: Outbox; stepUp: StepUp },
) {
  const { config, db, clock, log } = deps;
  const ledger = createLedger({ db, clock, events: parts.events, log, outbox: parts.eventOutbox });
  const wallet = createWalletService({
    db,
    clock,
    ledger,
    networks: await createDepositNetworks(config.depositNetworks),
    stepUp: parts.stepUp,
  });
  const invitations = createInvitationsService({ db, clock });
  const staff = createStaffService({ db, clock, ledger });
  return { ledger, wallet, invitations, staff };
}

/**
 * The strategy square (its read model and live hub follow the event bus once started), and copy
 * trading: relations and fees (API) and the copy engine on the execution core (main.ts starts the
 * engine: leader events and the reconcile timer).
 */
export function socialStage(
  deps: ServiceDeps,
  parts: Pick<Market, 'marketFeed' | 'userStrategies' | 'operationLog'> &
    Pick<Executing, 'execution' | 'accountClients' | 'eventOutbox'> &
    Pick<Cluster, 'leasesOf'> &
    Pick<ReturnType<typeof accountsStage>, 'liveChecks' | 'accountServices'> & {
      events: EventBus;
      balances: CoinBalanceReader;
      ledger: Ledger;
    },
) {
  const { config, db, clock, log } = deps;
  const { events, eventOutbox, accountClients, userStrategies, liveChecks } = parts;
  // Copy trading's relations reach the square's figures through copy trading's own reads.
  const copyFigures = createCopyFiguresReader(db);
  const square = createSquareModule({
    db,
    clock,
    events,
    eventOutbox,
    prices: feedPriceSource(parts.marketFeed),
    balances: parts.balances,
    log,
    isCopying: createCopyingCheck(db),
    copyFigures,
    clientFor: accountClients,
    exchangeTimeoutMs: EXCHANGE_CALL_TIMEOUT_MS,
    liveChecks: (accountId) => liveChecks.ofAccount(accountId),
    strategiesOf: (accountId, withRules) =>
      publishedStrategiesOf(
        { repo: createBotsRepository(db), ruleSets: userStrategies },
        accountId,
        withRules,
      ),
  });
  const copyTrading = createCopyTradingModule({
    db,
    clock,
    ledger: parts.ledger,
    execution: parts.execution,
    events,
    operationLog: parts.operationLog,
    sharing: square.sharing,
    log,
    leases: parts.leasesOf(),
    outbox: eventOutbox,
    equityAt: (accountId, at, maxAgeMs) =>
      parts.accountServices.snapshots.equityAt(accountId, at, maxAgeMs),
    slippageBps: config.paperSlippageBps,
  });
  return { copyFigures, square, copyTrading };
}

/** Help and announcements, the risk gate's settings and monitor, and notifications. */
export function supportStage(
  deps: ServiceDeps,
  parts: Pick<Executing, 'execution' | 'accountClients' | 'eventOutbox'> &
    Pick<Cluster, 'leasesOf'> & { events: EventBus; images: ImageStore; mailer: Mailer },
) {
  const { config, db, clock, log } = deps;
  const { events, eventOutbox, accountClients } = parts;
  const help = createHelpService({
    repo: createHelpRepository(db),
    clock,
    images: parts.images,
    eventBus: events,
    readerSecret: config.secretKey,
    contact: config.contact,
    log,
    publications: {
      inTransaction: (work) => db.transaction((tx) => work(createHelpRepository(tx), tx)),
      outbox: eventOutbox,
    },
  });
  // The risk gate per exchange account: settings, kill switch, and the loss-limit monitor.
  const risk = createRiskService({
    db,
    clock,
    outbox: eventOutbox,
    events,
    execution: parts.execution,
    equityOf: async (account) =>
      new Decimal((await accountBalance(accountClients, account, EXCHANGE_CALL_TIMEOUT_MS)).total),
    log,
  });
  // Notifications from the outbox's events: in-app, e-mail, and Telegram with a bot token.
  const notifications = createNotificationsModule({
    db,
    clock,
    events,
    outbox: eventOutbox,
    mailer: parts.mailer,
    telegram: config.telegram,
    leases: parts.leasesOf(),
    log,
  });
  return { help, risk, notifications };
}

/**
 * Scheduled jobs, in a process that runs the workers: hourly balance snapshots (the 16:00 UTC one
 * opens the UTC+8 day), the risk monitor, live checks, then the square's wallet marks and metrics.
 */
export function schedulerStage(
  deps: ServiceDeps,
  parts: Pick<Cluster, 'singletons'> &
    Pick<Executing, 'accountClients'> &
    Pick<ReturnType<typeof accountsStage>, 'accountServices' | 'liveChecks'> &
    Pick<ReturnType<typeof supportStage>, 'risk'> &
    Pick<ReturnType<typeof socialStage>, 'copyFigures'> & { events: EventBus },
) {
  const { db, clock, log } = deps;
  if (!deps.runsWorkers) return undefined;
  const { singletons } = parts;
  const scheduler = createScheduler({
    clock,
    log,
    ...(singletons ? { runsJob: (name: string) => singletons.holds(name) } : {}),
  });
  scheduler.add(parts.accountServices.snapshotter);
  scheduler.add(createRiskMonitorJob(parts.risk));
  scheduler.add(parts.liveChecks.job);
  scheduler.add(
    createSquareMetricsJob({
      db,
      clock,
      events: parts.events,
      clientFor: parts.accountClients,
      log,
      exchangeTimeoutMs: EXCHANGE_CALL_TIMEOUT_MS,
      copyFigures: parts.copyFigures,
    }),
  );
  return scheduler;
}
