import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/common/clock.js';
import type { LoggerOptions } from '../../src/common/logger.js';
import { createServices, type ServiceDeps, type ServiceLogger } from '../../src/composition.js';

/** What a standalone app is built from: the composition root's inputs, and the app's logger. */
export type StandaloneAppDeps = Omit<ServiceDeps, 'clock' | 'log' | 'runsWorkers'> & {
  readonly clock?: Clock;
  readonly logger?: LoggerOptions;
};

/**
 * One app on a database of its own, as main.ts wires one for a test or a bench: the services
 * built once by the composition root (without the bot engine or scheduler: no `runsWorkers`),
 * the square, notifications and webhook executor started, and all of it closed with the app.
 */
export async function buildStandaloneApp(deps: StandaloneAppDeps): Promise<FastifyInstance> {
  const { logger, ...rest } = deps;
  const clock = deps.clock ?? systemClock;
  // The app's logger exists once buildApp returned; services log only after start-up.
  let appLog: ServiceLogger | undefined;
  const log: ServiceLogger = {
    info: (details, message) => appLog?.info(details, message),
    warn: (details, message) => appLog?.warn(details, message),
    error: (details, message) => appLog?.error(details, message),
  };
  const services = await createServices({ ...rest, clock, log });
  const app = await buildApp({
    config: deps.config,
    db: deps.db,
    databaseKind: deps.databaseKind,
    services,
    ...(logger !== undefined ? { logger } : {}),
  });
  appLog = app.log;
  services.square.start();
  services.notifications.start();
  await services.webhooks.start();
  app.addHook('onClose', async () => {
    await services.webhooks.stop();
    await services.copyTrading.engine.stop();
    await services.square.stop();
    await services.notifications.stop();
    await services.optimisations.close();
    await services.marketFeed.stop();
    if (!deps.eventBus) await services.events.close();
  });
  return app;
}
