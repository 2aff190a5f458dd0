import { buildApp } from './app.js';
import { startAdminSocket } from './cli/admin-socket.js';
import { systemClock } from './common/clock.js';
import { createServices, type ServiceLogger } from './composition.js';
import { loadConfigFromEnvironment } from './config.js';
import { openDatabase } from './db/client.js';
import { OWNER_ONLY_UMASK, secureDataDir } from './db/data-dir.js';
import { acquireDataDirLock, type DataDirLock } from './db/lock.js';
import { createEventBus, DEFAULT_EVENT_PREFIX } from './events/index.js';
import { createLocalVenueBudget, createRedisVenueBudget } from './exchange/venue-budget.js';
import { createAdminService } from './modules/admin/admin.service.js';

type Services = Awaited<ReturnType<typeof createServices>>;

/** Starts the process's work in order: cluster, feeds, read models, then the drivers. */
async function startWork(
  services: Services,
  log: Parameters<Services['marketFeed']['start']>[0],
  runsWorkers: boolean,
): Promise<void> {
  const { marketFeed, square } = services;
  const { botEngine, scheduler, copyEngine, outboxRelay, singletons } = services.workers;
  const { membership } = services;
  // Joins the cluster first: the live workers decide which lanes each drives.
  await membership?.start();
  await singletons?.start();
  // Probes the exchanges in the background (auto falls back to simulated data per exchange).
  marketFeed.start(log);
  // The square's read model and live strategy pages follow the bus from here on.
  square.start();
  // Notifications follow the outbox (catching up first); their sender and Telegram poller run.
  services.notifications.start();
  // Events a crash left written but unpublished go out (at least once; readers drop repeats).
  outboxRelay?.start();
  scheduler?.start();
  // Running bots resume (under their leases): pending orders are reconciled by client id
  // before any new decision.
  await botEngine?.start();
  // Webhook signals left in flight are reconciled and completed; new ones run as they come.
  if (runsWorkers) await services.webhooks.start();
  // Copy trading follows the leaders' changes and reconciles every relation on a timer (the
  // first pass heals what changed while the process was down).
  copyEngine?.start();
}

/** Stops the process's work in the reverse order: drivers, then what they publish to. */
async function stopWork(services: Services): Promise<void> {
  const { marketFeed, square, membership } = services;
  const { botEngine, scheduler, copyEngine, outboxRelay, singletons } = services.workers;
  await scheduler?.stop();
  await botEngine?.stop();
  await services.webhooks.stop();
  await copyEngine?.stop();
  await services.execution.close();
  await outboxRelay?.stop();
  await services.eventOutbox.marked();
  await singletons?.stop();
  await membership?.stop();
  await square.stop();
  await services.notifications.stop();
  await services.optimisations.close();
  await marketFeed.stop();
}

async function main(): Promise<void> {
  // Files the server creates (database, secret key, uploads, sockets) are the owner's only.
  process.umask(OWNER_ONLY_UMASK);
  const config = loadConfigFromEnvironment();
  secureDataDir(config.dataDir);
  // The lock guards the embedded database; PostgreSQL handles concurrency itself.
  const lock: DataDirLock | undefined = config.databaseUrl
    ? undefined
    : acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    // The app's logger exists once buildApp returned; services log only after start-up.
    let appLog: ServiceLogger | undefined;
    const log: ServiceLogger = {
      info: (details, message) => appLog?.info(details, message),
      warn: (details, message) => appLog?.warn(details, message),
      error: (details, message) => appLog?.error(details, message),
    };
    // One bus for the app and the workers: on Redis (across processes) when REDIS_URL is set.
    const eventBus = await createEventBus({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      clock: systemClock,
      log,
    });
    // The venues' per-address budgets: shared by every process of the deployment on Redis.
    const venueBudget = config.redisUrl
      ? await createRedisVenueBudget({
          url: config.redisUrl,
          prefix: config.redisPrefix ?? DEFAULT_EVENT_PREFIX,
        })
      : createLocalVenueBudget();
    // Every service once, shared by the app and this process's workers.
    const services = await createServices({
      config,
      db: database.db,
      databaseKind: database.kind,
      clock: systemClock,
      log,
      eventBus,
      venueBudget,
      // ROLE=api serves HTTP only; `worker` and `all` drive bots, copies, webhooks and jobs.
      runsWorkers: config.role !== 'api',
      joinsCluster: true,
    });
    const app = await buildApp({
      config,
      db: database.db,
      databaseKind: database.kind,
      services,
    });
    appLog = app.log;
    await startWork(services, app.log, config.role !== 'api');
    // With the embedded database the admin CLI cannot open it while we run: it asks us instead.
    const admin = createAdminService({
      db: database.db,
      clock: systemClock,
      log: app.log,
      secretKeys: { current: config.secretKey, old: config.oldSecretKey },
      events: eventBus,
    });
    const adminSocket =
      database.kind === 'pglite'
        ? await startAdminSocket(config.dataDir, admin, app.log)
        : undefined;

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      try {
        await adminSocket?.close();
        await stopWork(services);
        await app.close();
        await eventBus.close();
        await venueBudget.close();
        await database.close();
      } finally {
        lock?.release();
        process.exit(0);
      }
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ host: '0.0.0.0', port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    app.log.info(
      {
        database: database.kind,
        role: config.role,
        dataDir: config.dataDir,
        webDistDir: config.webDistDir,
        app: `http://localhost:${port}/`,
        docs: `http://localhost:${port}/api/docs`,
      },
      'QuantSquare server started',
    );
  } catch (error) {
    lock?.release();
    throw error;
  }
}

main().catch((error: unknown) => {
  // No logger exists yet when config, lock or database fail: the reason goes to stderr.
  process.stderr.write(
    `QuantSquare failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
