// The composition root: every service of the process is built here, once, from explicit
// dependencies (STYLE 8), in the stages of composition.stages.ts
// (the platform) and composition.features.ts. The app (routes) and the workers
// (bot engine, scheduled jobs) receive the same instances. A new module adds its service to a
// stage (one line) and its routes in app.ts.

import path from 'node:path';
import type { ServiceLogger } from './common/logger.js';
import { createSecretBox } from './common/secret-box.js';
import type { ServiceDeps } from './composition.deps.js';
import {
  accountsStage,
  coinsStage,
  driversStage,
  schedulerStage,
  socialStage,
  supportStage,
} from './composition.features.js';
import {
  clusterStage,
  deliveryStage,
  executionStage,
  identityStage,
  marketStage,
} from './composition.stages.js';
import { createInProcessEventBus } from './events/index.js';
import { createImageStore } from './uploads/image-store.js';

export type { ServiceDeps } from './composition.deps.js';
export { defaultExchangeClientFactory } from './exchange-client-wiring.js';
/** The logger the services write to (Fastify's pino logger fits). */
export type { ServiceLogger };

export async function createServices(deps: ServiceDeps) {
  const { config, clock, log } = deps;
  const events = deps.eventBus ?? createInProcessEventBus({ clock, log });
  const secretBox = createSecretBox(config.secretKey);
  const images =
    deps.imageStore ?? createImageStore({ uploadsDir: path.join(config.dataDir, 'uploads') });
  const delivery = deliveryStage(deps);
  const identity = identityStage(deps, { ...delivery, secretBox, images });
  const market = marketStage(deps);
  const core = executionStage(deps, { secretBox, marketFeed: market.marketFeed, events });
  const cluster = clusterStage(deps, {
    eventOutbox: core.eventOutbox,
    events,
    jobNames: () => scheduler?.names() ?? [],
  });
  const shared = { ...market, ...core, ...cluster, events, stepUp: identity.stepUp };
  const drivers = driversStage(deps, shared);
  const accounts = accountsStage(deps, {
    ...shared,
    ...drivers,
    secretBox,
    endCopiesOnAccount: (accountId) => social.copyTrading.service.endOnAccount(accountId),
    publishLiveChecks: (checks) => social.square.applyLiveChecks(checks),
  });
  const coins = await coinsStage(deps, shared);
  const social = socialStage(deps, {
    ...shared,
    ...accounts,
    balances: identity.balances,
    ledger: coins.ledger,
  });
  const support = supportStage(deps, { ...shared, images, mailer: delivery.mailer });
  const scheduler = schedulerStage(deps, { ...shared, ...accounts, ...support, ...social });

  return {
    config,
    clock,
    events,
    secretBox,
    images,
    outbox: delivery.outbox,
    outboxChannels: delivery.outboxChannels,
    codes: identity.codes,
    tokens: identity.tokens,
    totp: identity.totp,
    auth: identity.auth,
    authentication: identity.authentication,
    marketFeed: market.marketFeed,
    trading: market.trading,
    userStrategies: market.userStrategies,
    optimisations: market.optimisations,
    operationLog: market.operationLog,
    accountServices: accounts.accountServices,
    execution: core.execution,
    bots: accounts.bots,
    liveChecks: accounts.liveChecks,
    profile: identity.profile,
    ledger: coins.ledger,
    wallet: coins.wallet,
    invitations: coins.invitations,
    staff: coins.staff,
    square: social.square,
    copyTrading: social.copyTrading,
    help: support.help,
    webhooks: drivers.webhooks,
    risk: support.risk,
    notifications: support.notifications,
    membership: cluster.membership,
    eventOutbox: core.eventOutbox,
    workers: {
      outboxRelay: cluster.outboxRelay,
      singletons: cluster.singletons,
      botEngine: deps.runsWorkers ? drivers.botEngine : undefined,
      scheduler,
      copyEngine: deps.runsWorkers ? social.copyTrading.engine : undefined,
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
