// The composition root's stages: composition.ts builds the process's services from these, in
// order, each from explicit dependencies (STYLE 8). A stage names what it takes from the earlier
// ones; the few that need a later service take a callback the root binds once it exists.

import { bearerAuthentication, type StaffCheck } from './common/bearer-auth.js';
import { createClusterMembership } from './common/cluster.js';
import { createLeases, workerHolderId } from './common/leases.js';
import type { SecretBox } from './common/secret-box.js';
import { createSingletons, OUTBOX_RELAY_JOB, type Singletons } from './common/singletons.js';
import type { ServiceDeps } from './composition.deps.js';
import {
  createOutboxMailer,
  createOutboxSmsProvider,
  createSmtpMailer,
} from './delivery/delivery.adapters.js';
import { createTwilioSmsProvider } from './delivery/twilio-sms.js';
import type { EventBus } from './events/index.js';
import type { Outbox } from './events/outbox.js';
import { createOutbox, createOutboxRelay } from './events/outbox.js';
import { createLocalVenueBudget } from './exchange/venue-budget.js';
import { defaultExchangeClientFactory } from './exchange-client-wiring.js';
import {
  createAccountClientCache,
  createAccountLanes,
  createExecutionCore,
} from './execution/index.js';
import { createCandlesRepository } from './market/candles.repository.js';
import { ccxtMarketSources } from './market/ccxt-source.js';
import { createFundingRatesRepository } from './market/funding-rates.repository.js';
import type { MarketFeed } from './market/market.types.js';
import { createMarketFeed } from './market/market-feed.js';
import { feedQuotes } from './market/venue-quotes.js';
import { experienceAccountForNewUsers } from './modules/accounts/experience-account.js';
import { createAttemptGuard } from './modules/auth/attempt-guard.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createCodesService } from './modules/auth/codes.service.js';
import { createStepUp } from './modules/auth/step-up.js';
import { createTokensService } from './modules/auth/tokens.service.js';
import { createTotpService } from './modules/auth/totp.service.js';
import { botLanes } from './modules/bots/bot-lanes.js';
import { copyLanes } from './modules/copy-trading/copy-lanes.js';
import { createOperationLogRepository } from './modules/operation-log/operation-log.repository.js';
import { createOperationLog } from './modules/operation-log/operation-log.service.js';
import { createOptimisationPool } from './modules/optimisations/optimisation-pool.js';
import { createOptimisationsRepository } from './modules/optimisations/optimisations.repository.js';
import { createOptimisationsService } from './modules/optimisations/optimisations.service.js';
import { createProfileService } from './modules/profile/profile.service.js';
import { createSquareSocialStats } from './modules/square/square.module.js';
import { createOutboxRepository } from './modules/system/outbox.repository.js';
import { createTradingService } from './modules/trading/trading.service.js';
import { createUserStrategiesRepository } from './modules/user-strategies/user-strategies.repository.js';
import { createUserStrategiesService } from './modules/user-strategies/user-strategies.service.js';
import { coinBalances } from './modules/wallet/coin-balances.js';
import { webhookLanes } from './modules/webhooks/webhook-lanes.js';
import type { ImageStore } from './uploads/image-store.js';

/** Where codes and messages go: real channels when configured, else the outbox. */
export function deliveryStage(deps: ServiceDeps) {
  const { config, db, clock, log } = deps;
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
  return { outbox, mailer, smsProvider, outboxChannels };
}

/** Sign-in, sessions, 2FA, the profile, and bearer authentication for the routes. */
export function identityStage(
  deps: ServiceDeps,
  parts: Pick<ReturnType<typeof deliveryStage>, 'mailer' | 'smsProvider'> & {
    secretBox: SecretBox;
    images: ImageStore;
  },
) {
  const { config, db, clock, log } = deps;
  const { secretBox, images } = parts;
  const authRepo = createAuthRepository(db);
  const codes = createCodesService({
    repo: authRepo,
    clock,
    secretKey: config.secretKey,
    mailer: parts.mailer,
    smsProvider: parts.smsProvider,
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
  return { codes, tokens, totp, stepUp, balances, profile, auth, authentication };
}

/** Market data, rule sets, backtests and optimisations, and the operation log. */
export function marketStage(deps: ServiceDeps) {
  const { config, db, clock, log } = deps;
  const marketFeed =
    deps.marketFeed ??
    createMarketFeed({
      mode: config.marketData,
      clock,
      candles: createCandlesRepository(db),
      fundingRates: createFundingRatesRepository(db),
      ...(config.marketData === 'simulated' ? {} : { liveSources: ccxtMarketSources() }),
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
  return { marketFeed, userStrategies, trading, operationLog, optimisations };
}

/** The accounts' exchange clients, the event outbox and the execution core. */
export function executionStage(
  deps: ServiceDeps,
  parts: { secretBox: SecretBox; marketFeed: MarketFeed; events: EventBus },
) {
  const { config, db, clock, log } = deps;
  const { marketFeed } = parts;
  const factory =
    deps.exchangeClientFactory ??
    defaultExchangeClientFactory({
      config,
      db,
      clock,
      marketFeed,
      // A process alone paces its requests with a budget of its own.
      venueBudget: deps.venueBudget ?? createLocalVenueBudget(),
    });
  // One client per account version, shared by the account screens and the execution core.
  const accountClients = createAccountClientCache({ secretBox: parts.secretBox, factory });
  // Events written with the state they describe; the relay publishes what a crash left unsent.
  const eventOutbox = createOutbox({ db, clock, log });
  const execution =
    deps.execution ??
    createExecutionCore({
      db,
      clock,
      clients: accountClients,
      events: parts.events,
      outbox: eventOutbox,
      lanes: createAccountLanes(),
      log,
      quotes: feedQuotes(marketFeed, clock),
    });
  return { accountClients, eventOutbox, execution };
}

/**
 * This process in the cluster: its lease holder and membership, and the singletons that run each
 * scheduled job and the outbox relay in one process at a time.
 */
export function clusterStage(
  deps: ServiceDeps,
  parts: { eventOutbox: Outbox; events: EventBus; jobNames: () => string[] },
) {
  const { config, db, clock, log } = deps;
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
        names: (): string[] => [...parts.jobNames(), OUTBOX_RELAY_JOB],
        log,
      })
    : undefined;
  const outboxRelay = deps.runsWorkers
    ? createOutboxRelay({
        outbox: parts.eventOutbox,
        events: parts.events,
        log,
        isActive: () => singletons?.holds(OUTBOX_RELAY_JOB) ?? true,
      })
    : undefined;
  return { membership, leasesOf, singletons, outboxRelay };
}
