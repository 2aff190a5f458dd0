import { readFileSync } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { ERROR_CODES } from '@quantsquare/contracts';
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
import { BadRequest, RateLimited } from './common/errors.js';
import { type LoggerOptions, loggerOptions } from './common/logger.js';
import { createSecretBox } from './common/secret-box.js';
import { type Config, SERVER_PACKAGE_JSON } from './config.js';
import type { Database, DatabaseKind } from './db/database.js';
import {
  createOutboxMailer,
  createOutboxSmsProvider,
  createSmtpMailer,
  type Mailer,
  type SmsProvider,
} from './delivery/delivery.adapters.js';
import { createInProcessEventBus, type EventBus } from './events/index.js';
import { createCcxtExchangeClient } from './exchange/ccxt/ccxt-exchange-client.js';
import { feedPriceSource } from './exchange/paper/price-source.js';
import { createCandlesRepository } from './market/candles.repository.js';
import type { MarketFeed } from './market/market.types.js';
import { createMarketFeed } from './market/market-feed.js';
import { createAccountServices } from './modules/accounts/account-services.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
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
import { createOperationLogRepository } from './modules/operation-log/operation-log.repository.js';
import { operationLogRoutes } from './modules/operation-log/operation-log.routes.js';
import { createOperationLog } from './modules/operation-log/operation-log.service.js';
import { createSquareModule } from './modules/square/square.module.js';
import { createOutboxRepository } from './modules/system/outbox.repository.js';
import { devOutboxRoutes, healthRoutes } from './modules/system/system.routes.js';
import { tradingRoutes } from './modules/trading/trading.routes.js';
import { createTradingService } from './modules/trading/trading.service.js';
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

  // Our own JSON parser: an empty body is "no body" (POSTs without payload), bad JSON is our 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new BadRequest(ERROR_CODES.invalidJson, 'Malformed JSON body'), undefined);
    }
  });

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
  const smsProvider = deps.smsProvider ?? createOutboxSmsProvider(outbox, app.log);

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
  const totp = createTotpService({ repo, clock, secretBox });
  const auth = createAuthService({ repo, clock, codes, tokens, totp });
  // Bearer authentication for the route modules (visitors, users and staff-only routes).
  const isStaff: StaffCheck = async (userId) => (await repo.findUserById(userId))?.isStaff === true;
  const authentication = bearerAuthentication(tokens, isStaff);

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
      await api.register(square.routes(authentication));
      if (!config.isProduction) await api.register(devOutboxRoutes({ outbox }));
    },
    { prefix: '/api' },
  );

  await app.register(square.socketRoutes);

  await registerWebApp(app, { webDistDir: config.webDistDir });
  return app;
}
