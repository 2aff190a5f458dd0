import { buildApp, defaultExchangeClientFactory } from './app.js';
import { startAdminSocket } from './cli/admin-socket.js';
import { systemClock } from './common/clock.js';
import { createSecretBox } from './common/secret-box.js';
import { loadConfigFromEnvironment } from './config.js';
import { openDatabase } from './db/client.js';
import { OWNER_ONLY_UMASK, secureDataDir } from './db/data-dir.js';
import { acquireDataDirLock, type DataDirLock } from './db/lock.js';
import { createInProcessEventBus } from './events/index.js';
import { createCandlesRepository } from './market/candles.repository.js';
import { createMarketFeed } from './market/market-feed.js';
import {
  createAccountServices,
  EXCHANGE_CALL_TIMEOUT_MS,
} from './modules/accounts/account-services.js';
import { createAdminService } from './modules/admin/admin.service.js';
import { createAccountClients } from './modules/exchange-accounts/account-clients.js';
import { createOperationLogRepository } from './modules/operation-log/operation-log.repository.js';
import { createOperationLog } from './modules/operation-log/operation-log.service.js';
import { createSquareMetricsJob } from './modules/square/square.module.js';
import { createBotClients, createBotEngine } from './workers/bot-engine/index.js';
import { createScheduler } from './workers/scheduler.js';

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
    // One bus for the app and the workers (Redis across processes is the execution core's).
    const eventBus = createInProcessEventBus({
      clock: systemClock,
      log: { error: (details, message) => app.log.error(details, message) },
    });
    const marketFeed = createMarketFeed({
      mode: config.marketData,
      clock: systemClock,
      candles: createCandlesRepository(database.db),
    });
    const exchangeClientFactory = defaultExchangeClientFactory({
      config,
      db: database.db,
      clock: systemClock,
      marketFeed,
    });
    const operationLog = createOperationLog({
      repo: createOperationLogRepository(database.db),
      clock: systemClock,
    });
    const botEngine = createBotEngine({
      db: database.db,
      clock: systemClock,
      feed: marketFeed,
      clients: createBotClients({
        db: database.db,
        clock: systemClock,
        secretBox: createSecretBox(config.secretKey),
        factory: exchangeClientFactory,
        paperSlippageBps: config.paperSlippageBps,
      }),
      writeLog: (entry) => operationLog.record(entry),
      events: eventBus,
      // The app's logger exists once buildApp returned; the engine logs only after start().
      logger: {
        info: (details, message) => app.log.info(details, message),
        error: (details, message) => app.log.error(details, message),
      },
    });
    const app = await buildApp({
      config,
      db: database.db,
      databaseKind: database.kind,
      marketFeed,
      exchangeClientFactory,
      botControl: botEngine,
      eventBus,
    });
    // Probes the exchanges in the background (auto falls back to simulated data per exchange).
    marketFeed.start(app.log);
    // Workers: hourly balance snapshots (the 16:00 UTC one opens the UTC+8 day).
    const scheduler = createScheduler({ clock: systemClock, log: app.log });
    scheduler.add(
      createAccountServices({
        db: database.db,
        clock: systemClock,
        secretBox: createSecretBox(config.secretKey),
        factory: exchangeClientFactory,
        log: app.log,
      }).snapshotter,
    );
    // The square's hourly wallet marks and metrics, a little after the snapshots.
    scheduler.add(
      createSquareMetricsJob({
        db: database.db,
        clock: systemClock,
        events: eventBus,
        clientFor: createAccountClients({
          secretBox: createSecretBox(config.secretKey),
          factory: exchangeClientFactory,
        }),
        log: app.log,
        exchangeTimeoutMs: EXCHANGE_CALL_TIMEOUT_MS,
      }),
    );
    scheduler.start();
    // Running bots resume: pending orders are reconciled by client id before any new decision.
    await botEngine.start();
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
        await scheduler.stop();
        await botEngine.stop();
        await marketFeed.stop();
        await app.close();
        await eventBus.close();
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
