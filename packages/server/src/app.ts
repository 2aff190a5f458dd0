import { readFileSync } from 'node:fs';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { readCluster } from './common/cluster.js';
import { registerErrorHandling } from './common/error-handler.js';
import { RateLimited } from './common/errors.js';
import { refuseHostileInput } from './common/hostile-input.js';
import { type LoggerOptions, loggerOptions } from './common/logger.js';
import { registerSecurityHeaders } from './common/security-headers.js';
import type { Services } from './composition.js';
import { type Config, SERVER_PACKAGE_JSON } from './config.js';
import type { Database, DatabaseKind } from './db/database.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { exchangeAccountsRoutes } from './modules/accounts/exchange-accounts.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { botsRoutes } from './modules/bots/bots.routes.js';
import { copyTradingRoutes } from './modules/copy-trading/copy-trading.routes.js';
import { announcementsSocketRoutes } from './modules/help/announcements.socket.js';
import { helpRoutes } from './modules/help/help.routes.js';
import { operationLogRoutes } from './modules/operation-log/operation-log.routes.js';
import {
  optimisationSocketRoutes,
  optimisationsRoutes,
} from './modules/optimisations/optimisations.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { riskRoutes } from './modules/risk/risk.routes.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { devOutboxRoutes, healthRoutes } from './modules/system/system.routes.js';
import { tradingRoutes } from './modules/trading/trading.routes.js';
import { userStrategiesRoutes } from './modules/user-strategies/user-strategies.routes.js';
import { walletRoutes } from './modules/wallet/wallet.routes.js';
import { webhookHookRoutes, webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { registerWebApp } from './web/web-app.plugin.js';

export { defaultExchangeClientFactory } from './composition.js';

/** Largest uploaded file (avatars, announcement images): the spec's 5 MB. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** What the app is built from: the process's services, built once by the composition root. */
export interface AppDeps {
  readonly config: Config;
  readonly db: Database;
  readonly databaseKind: DatabaseKind;
  readonly services: Services;
  /** Defaults to the config's log level with secret redaction. */
  readonly logger?: LoggerOptions;
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

/** Every API route, under /api. */
function apiRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const { config, services } = deps;
  const { images, auth, codes, tokens, totp, trading, bots, accountServices, operationLog } =
    services;
  const { outbox, outboxChannels, authentication, square } = services;
  return async (api) => {
    await api.register(healthRoutes({ databaseKind: deps.databaseKind, version: readVersion() }));
    await api.register(uploadsRoutes({ images }));
    await api.register(
      authRoutes({ auth, codes, tokens, totp, ipRatePerMinute: config.authIpRatePerMinute }),
    );
    await api.register(tradingRoutes({ trading, authentication }));
    await api.register(
      userStrategiesRoutes({ userStrategies: services.userStrategies, authentication }),
    );
    await api.register(
      optimisationsRoutes({ optimisations: services.optimisations, authentication }),
    );
    await api.register(
      exchangeAccountsRoutes({ exchangeAccounts: accountServices.exchangeAccounts, tokens }),
    );
    await api.register(accountsRoutes({ accounts: accountServices.accounts, tokens }));
    await api.register(operationLogRoutes({ operationLog, tokens }));
    await api.register(riskRoutes({ risk: services.risk, tokens }));
    await api.register(services.notifications.routes(authentication));
    if (bots) await api.register(botsRoutes({ bots, tokens }));
    await api.register(helpRoutes({ help: services.help, authentication }));
    await api.register(
      walletRoutes({
        wallet: services.wallet,
        invitations: services.invitations,
        authentication,
      }),
    );
    await api.register(
      staffRoutes({
        staff: services.staff,
        authentication,
        cluster: async () => ({
          members: (await readCluster(deps.db)).map((member) => ({
            id: member.id,
            role: member.role,
            host: member.host,
            pid: member.pid,
            started_at: member.startedAt.toISOString(),
            last_heartbeat: member.lastHeartbeat.toISOString(),
            is_live: member.isLive,
            leases: member.leases,
          })),
        }),
      }),
    );
    await api.register(profileRoutes({ profile: services.profile, authentication }));
    await api.register(square.routes(authentication));
    await api.register(webhooksRoutes({ service: services.webhooks.service, authentication }));
    await api.register(webhookHookRoutes({ receiver: services.webhooks.receiver }));
    await api.register(
      copyTradingRoutes({
        copyTrading: services.copyTrading.service,
        copySimulation: services.copyTrading.simulation,
        authentication,
      }),
    );
    // Only while some channel has no real delivery, and only outside production.
    if (!config.isProduction && outboxChannels.length > 0) {
      await api.register(devOutboxRoutes({ outbox }));
    }
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy === false ? false : [...config.trustProxy],
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

  const { services } = deps;
  const { tokens, outboxChannels, square } = services;
  if (outboxChannels.length > 0) {
    app.log.warn(
      { channels: outboxChannels },
      config.isProduction
        ? `SIGN-IN CODES ARE NOT DELIVERED: ${outboxChannels.join(' and ')} codes go to the outbox table only, so users cannot receive them`
        : `SIGN-IN CODES ARE NOT SENT: ${outboxChannels.join(' and ')} codes go to the dev outbox, readable at GET /api/dev/outbox/ from this machine only. Never expose this server like this.`,
    );
  }

  await app.register(apiRoutes(deps), { prefix: '/api' });
  await app.register(announcementsSocketRoutes({ eventBus: services.events }));
  await app.register(square.socketRoutes);
  await app.register(services.notifications.socketRoutes(tokens));
  await app.register(
    optimisationSocketRoutes({ optimisations: services.optimisations, tokens: services.tokens }),
  );

  await registerWebApp(app, { webDistDir: config.webDistDir });
  return app;
}
