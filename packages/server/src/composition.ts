// The composition root: every service of the process is built here, once, from explicit
// dependencies (STYLE 8). The app (routes) and the workers (bot engine, scheduled jobs) receive
// the same instances. A new module adds its service here (one line) and its routes in app.ts.

import path from 'node:path';
import { Decimal } from 'decimal.js';
import { bearerAuthentication, type StaffCheck } from './common/bearer-auth.js';
import { createClusterMembership } from './common/cluster.js';
import { createLeases, workerHolderId } from './common/leases.js';
import type { ServiceLogger } from './common/logger.js';
import { createScheduler } from './common/scheduler.js';
import { createSecretBox } from './common/secret-box.js';
import { createSingletons, OUTBOX_RELAY_JOB, type Singletons } from './common/singletons.js';
import type { ServiceDeps } from './composition.deps.js';
import { unitOfWork } from './db/unit-of-work.js';
import {
  createOutboxMailer,
  createOutboxSmsProvider,
  createSmtpMailer,
} from './delivery/delivery.adapters.js';
import { createTwilioSmsProvider } from './delivery/twilio-sms.js';
import { createInProcessEventBus } from './events/index.js';
import { createOutbox, createOutboxRelay } from './events/outbox.js';
import { feedPriceSource } from './exchange/paper/price-source.js';
import { defaultExchangeClientFactory } from './exchange-client-wiring.js';
import { createAccountClientCache, createExecutionCore } from './execution/index.js';
import { createCandlesRepository } from './market/candles.repository.js';
import { createFundingRatesRepository } from './market/funding-rates.repository.js';
import { createMarketFeed } from './market/market-feed.js';
import { feedQuotes } from './market/venue-quotes.js';
import {
  createAccountServices,
  EXCHANGE_CALL_TIMEOUT_MS,
} from './modules/accounts/account-services.js';
import { accountBalance } from './modules/accounts/balance-snapshots.service.js';
import { experienceAccountForNewUsers } from './modules/accounts/experience-account.js';
import { createAttemptGuard } from './modules/auth/attempt-guard.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createCodesService } from './modules/auth/codes.service.js';
import { createStepUp } from './modules/auth/step-up.js';
import { createTokensService } from './modules/auth/tokens.service.js';
import { createTotpService } from './modules/auth/totp.service.js';
import { botLanes } from './modules/bots/bot-lanes.js';
import { createBotsRepository } from './modules/bots/bots.repository.js';
import { createBotsService } from './modules/bots/bots.service.js';
import { createLiveChecks } from './modules/bots/live-checks.js';
import { publishedStrategiesOf } from './modules/bots/published-strategies.js';
import { copyLanes } from './modules/copy-trading/copy-lanes.js';
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
import { createOptimisationPool } from './modules/optimisations/optimisation-pool.js';
import { createOptimisationsRepository } from './modules/optimisations/optimisations.repository.js';
import { createOptimisationsService } from './modules/optimisations/optimisations.service.js';
import { createProfileService } from './modules/profile/profile.service.js';
import { createRiskService } from './modules/risk/risk.service.js';
import { createRiskMonitorJob } from './modules/risk/risk-monitor.job.js';
import {
  createSquareMetricsJob,
  createSquareModule,
  createSquareSocialStats,
} from './modules/square/square.module.js';
import { createStaffService } from './modules/staff/staff.service.js';
import { createOutboxRepository } from './modules/system/outbox.repository.js';
import { createTradingService } from './modules/trading/trading.service.js';
import { createUserStrategiesRepository } from './modules/user-strategies/user-strategies.repository.js';
import { createUserStrategiesService } from './modules/user-strategies/user-strategies.service.js';
import { coinBalances } from './modules/wallet/coin-balances.js';
import { createDepositNetworks } from './modules/wallet/deposit-networks.js';
import { createInvitationsService } from './modules/wallet/invitations.service.js';
import { createLedger } from './modules/wallet/ledger.js';
import { createWalletService } from './modules/wallet/wallet.service.js';
import { webhookLanes } from './modules/webhooks/webhook-lanes.js';
import { createWebhooksModule } from './modules/webhooks/webhooks.module.js';
import { createImageStore } from './uploads/image-store.js';
import { createBotEngine } from './workers/bot-engine/index.js';

export type { ServiceDeps } from './composition.deps.js';
export { defaultExchangeClientFactory } from './exchange-client-wiring.js';
/** The logger the services write to (Fastify's pino logger fits). */
export type { ServiceLogger };

export async function createServices(deps: ServiceDeps) {
  const { config, db, clock, log } = deps;
  const events = deps.eventBus ?? createInProcessEventBus({ clock, log });
  const secretBox = createSecretBox(config.secretKey);
  const images =
    deps.imageStore ?? createImageStore({ uploadsDir: path.join(config.dataDir, 'uploads') });

  const outbox = createOutboxRepository(db, clock);
  const mailer =
    deps.mailer ??
    (config.smtpUrl ? createSmtpMailer(config.smtpUrl) : createOutboxMailer(outbox, log));
  const smsProvider =
    deps.smsProvider ??
    (config.sms ? createTwilioSmsProvider(config.sms) : createOutboxSmsProvider(outbox, log));
  // Channels without a real delivery write their codes to the outbox (the app says so loudly).
  const outboxChannels = [
    ...(config.smtpUrl || deps.mailer ? [] : ['e-mail (set SMTP_URL)']),
    ...(config.sms || deps.smsProvider
      ? []
      : ['SMS (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)']),
  ];

  const authRepo = createAuthRepository(db);
  const codes = createCodesService({
    repo: authRepo,
    clock,
    secretKey: config.secretKey,
    mailer,
    smsProvider,
    log,
    cooldownSeconds: config.codeCooldownSeconds,
  });
  const tokens = createTokensService({ repo: authRepo, clock, jwtSecret: config.jwtSecret });
  // One account lock for every check of a secret (login, 2FA disable, password change).
  const guard = createAttemptGuard({ repo: authRepo, clock });
  const totp = createTotpService({ repo: authRepo, clock, secretBox, guard });
  // Money and keys (withdrawal, exchange keys, webhook keys) ask a 2FA user for a code.
  const stepUp = createStepUp({ repo: authRepo, totp, guard });
  // The coin balance is the wallet's; sign-in answers and profiles show it.
  const balances = coinBalances(db);
  const profile = createProfileService({
    db,
    clock,
    images,
    balances,
    // The profile's counts come from the strategy square's follows and sharing.
    socialStats: createSquareSocialStats(db),
  });
  const auth = createAuthService({
    repo: authRepo,
    clock,
    codes,
    tokens,
    totp,
    guard,
    profileEditor: profile,
    balances,
    withNewUser: experienceAccountForNewUsers(clock),
  });
  // Bearer authentication for the route modules (visitors, users and staff-only routes).
  const isStaff: StaffCheck = async (userId) =>
    (await authRepo.findUserById(userId))?.isStaff === true;
  const authentication = bearerAuthentication(tokens, isStaff);

  const marketFeed =
    deps.marketFeed ??
    createMarketFeed({
      mode: config.marketData,
      clock,
      candles: createCandlesRepository(db),
      fundingRates: createFundingRatesRepository(db),
      log,
    });
  const userStrategies = createUserStrategiesService({
    repo: createUserStrategiesRepository(db),
    clock,
  });
  const trading = createTradingService({
    feed: marketFeed,
    clock,
    customStrategies: userStrategies,
  });
  const operationLog = createOperationLog({ repo: createOperationLogRepository(db), clock });
  // Walk-forward optimisations: backtests in worker threads, started on first use.
  const optimisations = createOptimisationsService({
    repo: createOptimisationsRepository(db),
    feed: marketFeed,
    clock,
    runner: createOptimisationPool(),
    ruleStrategies: userStrategies,
    log,
  });

  const factory =
    deps.exchangeClientFactory ??
    defaultExchangeClientFactory({
      config,
      db,
      clock,
      marketFeed,
      ...(deps.venueBudget ? { venueBudget: deps.venueBudget } : {}),
    });
  // One client per account version, shared by the account screens and the execution core.
  const accountClients = createAccountClientCache({ secretBox, factory });
  // Events written with the state they describe; the relay publishes what a crash left unsent.
  const eventOutbox = createOutbox({ db, clock, log });
  const execution =
    deps.execution ??
    createExecutionCore({
      db,
      clock,
      clients: accountClients,
      events,
      outbox: eventOutbox,
      log,
      quotes: feedQuotes(marketFeed, clock),
    });
  // One lease holder per process: a bot and a copy relation are each driven by one process.
  // The bot engine and the copy engine keep their leases apart (each renews and releases its own).
  // In a cluster the holder is a member, and each takes the lanes (exchange accounts) it prefers.
  const leaseHolder = workerHolderId(deps.databaseKind);
  const membership = deps.joinsCluster
    ? createClusterMembership({
        db,
        clock,
        id: leaseHolder,
        role: config.role,
        lanes: [() => botLanes(db), () => copyLanes(db), () => webhookLanes(db)],
        log,
      })
    : undefined;
  const leasesOf = () => createLeases({ db, holderId: leaseHolder, preference: membership });
  // Scheduled jobs and the outbox relay: each run by one process of the cluster at a time.
  const singletons: Singletons | undefined = deps.runsWorkers
    ? createSingletons({
        leases: leasesOf(),
        names: (): string[] => [...(scheduler?.names() ?? []), OUTBOX_RELAY_JOB],
        log,
      })
    : undefined;
  const outboxRelay = deps.runsWorkers
    ? createOutboxRelay({
        outbox: eventOutbox,
        events,
        log,
        isActive: () => singletons?.holds(OUTBOX_RELAY_JOB) ?? true,
      })
    : undefined;
  // An api process keeps an engine for the bots' stop and close commands only (it drives none).
  const botEngine =
    deps.runsWorkers || deps.joinsCluster
      ? createBotEngine({
          db,
          clock,
          feed: marketFeed,
          execution,
          leases: leasesOf(),
          ruleSets: userStrategies,
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
    stepUp,
    outbox: eventOutbox,
    events,
  });
  const accountServices = createAccountServices({
    db,
    clock,
    secretBox,
    clientFor: accountClients,
    log,
    operationLog,
    events,
    checkTimeoutMs: config.exchangeCheckTimeoutMs,
    stepUp,
    ...(botControl ? { botControl } : {}),
    ownerPositions: { closeOnAccount: (accountId) => webhooks.closePositionsOnAccount(accountId) },
    // Copy trading is built below (the square it needs comes after the accounts); a deletion
    // asks it only once requests run.
    copies: { endOnAccount: (accountId) => copyTrading.service.endOnAccount(accountId) },
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
    publish: (checks) => square.applyLiveChecks(checks),
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

  // Platform coins: the ledger alone changes balances (and announces CoinBalanceChanged).
  const ledger = createLedger({ db, clock, events, log, outbox: eventOutbox });
  const wallet = createWalletService({
    db,
    clock,
    ledger,
    networks: await createDepositNetworks(config.depositNetworks),
    stepUp,
  });
  const invitations = createInvitationsService({ db, clock });
  const staff = createStaffService({ db, clock, ledger });

  // The strategy square: its read model and live hub follow the event bus once started. Copy
  // trading's relations reach its figures through copy trading's own reads.
  const copyFigures = createCopyFiguresReader(db);
  const square = createSquareModule({
    db,
    clock,
    events,
    eventOutbox,
    prices: feedPriceSource(marketFeed),
    balances,
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

  // Copy trading: relations and fees (API) and the copy engine on the execution core (main.ts
  // starts the engine: leader events and the reconcile timer).
  const copyTrading = createCopyTradingModule({
    db,
    clock,
    ledger,
    execution,
    events,
    operationLog,
    sharing: square.sharing,
    log,
    leases: leasesOf(),
    outbox: eventOutbox,
    equityAt: (accountId, at, maxAgeMs) =>
      accountServices.snapshots.equityAt(accountId, at, maxAgeMs),
    slippageBps: config.paperSlippageBps,
  });

  const help = createHelpService({
    repo: createHelpRepository(db),
    clock,
    images,
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
    execution,
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
    mailer,
    telegram: config.telegram,
    leases: leasesOf(),
    log,
  });

  // Scheduled jobs: hourly balance snapshots (the 16:00 UTC one opens the UTC+8 day), then the
  // square's wallet marks and metrics.
  const scheduler = deps.runsWorkers
    ? createScheduler({
        clock,
        log,
        ...(singletons ? { runsJob: (name: string) => singletons.holds(name) } : {}),
      })
    : undefined;
  scheduler?.add(accountServices.snapshotter);
  scheduler?.add(createRiskMonitorJob(risk));
  scheduler?.add(liveChecks.job);
  scheduler?.add(
    createSquareMetricsJob({
      db,
      clock,
      events,
      clientFor: accountClients,
      log,
      exchangeTimeoutMs: EXCHANGE_CALL_TIMEOUT_MS,
      copyFigures,
    }),
  );

  return {
    config,
    clock,
    events,
    secretBox,
    images,
    outbox,
    outboxChannels,
    codes,
    tokens,
    totp,
    auth,
    authentication,
    marketFeed,
    trading,
    userStrategies,
    optimisations,
    operationLog,
    accountServices,
    execution,
    bots,
    liveChecks,
    profile,
    ledger,
    wallet,
    invitations,
    staff,
    square,
    copyTrading,
    help,
    webhooks,
    risk,
    notifications,
    membership,
    eventOutbox,
    workers: {
      outboxRelay,
      singletons,
      botEngine: deps.runsWorkers ? botEngine : undefined,
      scheduler,
      copyEngine: deps.runsWorkers ? copyTrading.engine : undefined,
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
