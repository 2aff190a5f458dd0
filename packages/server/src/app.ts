import { readFileSync } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { bearerAuthentication, type StaffCheck } from './common/bearer-auth.js';
import { type Clock, systemClock } from './common/clock.js';
import { registerErrorHandling } from './common/error-handler.js';
import { RateLimited } from './common/errors.js';
import { refuseHostileInput } from './common/hostile-input.js';
import { type LoggerOptions, loggerOptions } from './common/logger.js';
import { createSecretBox } from './common/secret-box.js';
import { registerSecurityHeaders } from './common/security-headers.js';
import { type Config, SERVER_PACKAGE_JSON } from './config.js';
import type { Database, DatabaseKind } from './db/database.js';
import {
  createOutboxMailer,
  createOutboxSmsProvider,
  createSmtpMailer,
  type Mailer,
  type SmsProvider,
} from './delivery/delivery.adapters.js';
import { createTwilioSmsProvider } from './delivery/twilio-sms.js';
import { createInProcessEventBus, type EventBus } from './events/index.js';
import { createCcxtExchangeClient } from './exchange/ccxt/ccxt-exchange-client.js';
import { feedPriceSource } from './exchange/paper/price-source.js';
import { createCandlesRepository } from './market/candles.repository.js';
import type { MarketFeed } from './market/market.types.js';
import { createMarketFeed } from './market/market-feed.js';
import { createAccountServices } from './modules/accounts/account-services.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { createAttemptGuard } from './modules/auth/attempt-guard.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createCodesService } from './modules/auth/codes.service.js';
import { createTokensService } from './modules/auth/tokens.service.js';
import { createTotpService } from './modules/auth/totp.service.js';
import type { BotControl } from './modules/bots/bot-control.js';
import { createBotsRepository } from './modules/bots/bots.repository.js';
import { botsRoutes } from './modules/bots/bots.routes.js';
import { createBotsService } from './modules/bots/bots.service.js';
import { exchangeAccountsRoutes } from './modules/exchange-accounts/exchange-accounts.routes.js';
import {
  createExchangeClientFactory,
  type ExchangeClientFactory,
} from './modules/exchange-accounts/exchange-client-factory.js';
import { experienceAccountForNewUsers } from './modules/exchange-accounts/experience-account.js';
import { announcementsSocketRoutes } from './modules/help/announcements.socket.js';
import { createHelpRepository } from './modules/help/help.repository.js';
import { helpRoutes } from './modules/help/help.routes.js';
import { createHelpService } from './modules/help/help.service.js';
import { createOperationLogRepository } from './modules/operation-log/operation-log.repository.js';
import { operationLogRoutes } from './modules/operation-log/operation-log.routes.js';
import { createOperationLog } from './modules/operation-log/operation-log.service.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { createProfileService } from './modules/profile/profile.service.js';
import { createSquareModule, createSquareSocialStats } from './modules/square/square.module.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { createStaffService } from './modules/staff/staff.service.js';
import { createOutboxRepository } from './modules/system/outbox.repository.js';
import { devOutboxRoutes, healthRoutes } from './modules/system/system.routes.js';
import { tradingRoutes } from './modules/trading/trading.routes.js';
import { createTradingService } from './modules/trading/trading.service.js';
import { createDepositNetworks } from './modules/wallet/deposit-networks.js';
import { createInvitationsService } from './modules/wallet/invitations.service.js';
import { createLedger } from './modules/wallet/ledger.js';
import { walletRoutes } from './modules/wallet/wallet.routes.js';
import { createWalletService } from './modules/wallet/wallet.service.js';
import { createImageStore, type ImageStore } from './uploads/image-store.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { registerWebApp } from './web/web-app.plugin.js';

/** Largest uploaded file (avatars, announcement images): the spec's 5 MB. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export interface AppDeps {
  config: Config;
  db: Database;
  databaseKind: DatabaseKind;
  clock?: Clock;
  mailer?: Mailer;
  smsProvider?: SmsProvider;
  /**
   * The market feed (main.ts starts it); without one, a feed for config.marketData is made here
   * that probes exchanges lazily on the first market request.
   */
  marketFeed?: MarketFeed;
  /** Defaults to the config's log level with secret redaction. */
  logger?: LoggerOptions;
  /** Builds an account's exchange client; defaults to paper for paper accounts, ccxt otherwise. */
  exchangeClientFactory?: ExchangeClientFactory;
  /**
   * The bot engine's start/stop (src/workers/bot-engine). The /trading/bots/ routes are served
   * only with one: without an engine a bot could be marked running while nothing trades.
   */
  botControl?: BotControl;
  /** The platform's events; in-process by default (main.ts picks Redis when REDIS_URL is set). */
  eventBus?: EventBus;
  /** Uploaded images; by default stored under DATA_DIR/uploads. */
  imageStore?: ImageStore;
}

/** Paper accounts trade on the market feed's prices; live accounts through ccxt. */
export function defaultExchangeClientFactory(deps: {
  config: Config;
  db: Database;
  clock: Clock;
  marketFeed: MarketFeed;
}): ExchangeClientFactory {
  return createExchangeClientFactory({
    db: deps.db,
    clock: deps.clock,
    prices: feedPriceSource(deps.marketFeed),
    paperSlippageBps: deps.config.paperSlippageBps,
    createLiveClient: createCcxtExchangeClient,
  });
}

function readVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(SERVER_PACKAGE_JSON, 'utf8'));
    if (pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string') {
      return pkg.version;
    }
  } catch {
    // fall through
  }
  return '0.0.0';
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    // The spec's paths end in '/'; a client that drops it still reaches the route.
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  // Our own JSON parser (empty body = no body; bad JSON, NUL characters and prototype keys are
  // 400s) and the same NUL check on every URL.
  refuseHostileInput(app);
  await registerSecurityHeaders(app);

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new RateLimited(
        `Too many requests, try again in ${Math.ceil(context.ttl / 1000)} seconds`,
        context.ttl / 1000,
      ),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'QuantSquare API', version: readVersion() },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  // Uploads: one file per request, never larger than the spec's limit (413 above it).
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12 },
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  const eventBus = deps.eventBus ?? createInProcessEventBus({ clock, log: app.log });
  if (!deps.eventBus) app.addHook('onClose', async () => eventBus.close());
  const images =
    deps.imageStore ?? createImageStore({ uploadsDir: path.join(config.dataDir, 'uploads') });

  const outbox = createOutboxRepository(db, clock);
  const mailer =
    deps.mailer ??
    (config.smtpUrl ? createSmtpMailer(config.smtpUrl) : createOutboxMailer(outbox, app.log));
  const smsProvider =
    deps.smsProvider ??
    (config.sms ? createTwilioSmsProvider(config.sms) : createOutboxSmsProvider(outbox, app.log));
  // Channels without a real delivery write their codes to the outbox: said loudly at start-up.
  const outboxChannels = [
    ...(config.smtpUrl || deps.mailer ? [] : ['e-mail (set SMTP_URL)']),
    ...(config.sms || deps.smsProvider
      ? []
      : ['SMS (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)']),
  ];
  if (outboxChannels.length > 0) {
    app.log.warn(
      { channels: outboxChannels },
      config.isProduction
        ? `SIGN-IN CODES ARE NOT DELIVERED: ${outboxChannels.join(' and ')} codes go to the outbox table only, so users cannot receive them`
        : `SIGN-IN CODES ARE NOT SENT: ${outboxChannels.join(' and ')} codes go to the dev outbox, readable at GET /api/dev/outbox/ from this machine only. Never expose this server like this.`,
    );
  }

  const repo = createAuthRepository(db);
  const secretBox = createSecretBox(config.secretKey);
  const codes = createCodesService({
    repo,
    clock,
    secretKey: config.secretKey,
    mailer,
    smsProvider,
    log: app.log,
  });
  const tokens = createTokensService({ repo, clock, jwtSecret: config.jwtSecret });
  // One account lock for every check of a secret (login, 2FA disable, password change).
  const guard = createAttemptGuard({ repo, clock });
  const totp = createTotpService({ repo, clock, secretBox, guard });
  const profile = createProfileService({
    db,
    clock,
    images,
    // The profile's counts come from the strategy square's follows and sharing.
    socialStats: createSquareSocialStats(db),
  });
  const auth = createAuthService({
    repo,
    clock,
    codes,
    tokens,
    totp,
    guard,
    profileEditor: profile,
    withNewUser: experienceAccountForNewUsers(clock),
  });
  // Bearer authentication for the route modules (visitors, users and staff-only routes).
  const isStaff: StaffCheck = async (userId) => (await repo.findUserById(userId))?.isStaff === true;
  const authentication = bearerAuthentication(tokens, isStaff);

  // Platform coins: the ledger alone changes balances (and announces CoinBalanceChanged).
  const ledger = createLedger({ db, clock, events: eventBus, log: app.log });
  const wallet = createWalletService({
    db,
    clock,
    ledger,
    networks: await createDepositNetworks(config.depositNetworks),
  });
  const invitations = createInvitationsService({ db, clock });
  const staff = createStaffService({ db, clock, ledger });

  const marketFeed =
    deps.marketFeed ??
    createMarketFeed({
      mode: config.marketData,
      clock,
      candles: createCandlesRepository(db),
      log: app.log,
    });
  app.addHook('onClose', async () => marketFeed.stop());
  const trading = createTradingService({ feed: marketFeed, clock });
  // The strategy square: its read model and live hub follow the event bus from here on.
  const square = createSquareModule({
    db,
    clock,
    events: eventBus,
    prices: feedPriceSource(marketFeed),
    log: app.log,
  });
  square.start();
  app.addHook('onClose', async () => square.stop());
  const operationLog = createOperationLog({ repo: createOperationLogRepository(db), clock });
  const accountServices = createAccountServices({
    db,
    clock,
    secretBox,
    factory:
      deps.exchangeClientFactory ?? defaultExchangeClientFactory({ config, db, clock, marketFeed }),
    log: app.log,
    operationLog,
    checkTimeoutMs: config.exchangeCheckTimeoutMs,
    ...(deps.botControl ? { botControl: deps.botControl } : {}),
  });
  const bots = deps.botControl
    ? createBotsService({
        repo: createBotsRepository(db),
        feed: marketFeed,
        control: deps.botControl,
        operationLog,
        clock,
      })
    : undefined;

  const help = createHelpService({
    repo: createHelpRepository(db),
    clock,
    images,
    eventBus,
    readerSecret: config.secretKey,
    contact: config.contact,
    log: app.log,
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes({ databaseKind: deps.databaseKind, version: readVersion() }));
      await api.register(uploadsRoutes({ images }));
      await api.register(
        authRoutes({ auth, codes, tokens, totp, ipRatePerMinute: config.authIpRatePerMinute }),
      );
      await api.register(tradingRoutes({ trading }));
      await api.register(
        exchangeAccountsRoutes({ exchangeAccounts: accountServices.exchangeAccounts, tokens }),
      );
      await api.register(accountsRoutes({ accounts: accountServices.accounts, tokens }));
      await api.register(operationLogRoutes({ operationLog, tokens }));
      if (bots) await api.register(botsRoutes({ bots, tokens }));
      await api.register(helpRoutes({ help, authentication }));
      await api.register(walletRoutes({ wallet, invitations, authentication }));
      await api.register(staffRoutes({ staff, authentication }));
      await api.register(profileRoutes({ profile, authentication }));
      // Only while some channel has no real delivery, and only outside production.
      if (!config.isProduction && outboxChannels.length > 0) {
        await api.register(devOutboxRoutes({ outbox }));
      }
      await api.register(square.routes(authentication));
    },
    { prefix: '/api' },
  );
  await app.register(announcementsSocketRoutes({ eventBus }));

  await app.register(square.socketRoutes);

  await registerWebApp(app, { webDistDir: config.webDistDir });
  return app;
}
