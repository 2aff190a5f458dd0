// Webhook "processes" for the wake-up tests: each a whole app (HTTP routes, receiver, executor)
// on one shared database and one event bus, built as composition builds it except that its
// executor polls the queue only once an hour and holds its leases under a holder of its own.
// A signal that runs at all in these tests was run on its wake-up, never by the poll.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/common/clock.js';
import { createLeases, type Leases } from '../../src/common/leases.js';
import { createServices } from '../../src/composition.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { EventBus } from '../../src/events/index.js';
import { createOutbox } from '../../src/events/outbox.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createWebhooksModule } from '../../src/modules/webhooks/webhooks.module.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';

/** Far beyond any test: a signal is never run by the slow look at the queue here. */
export const NO_POLL_MS = 3_600_000;

export interface WebhookProcess {
  readonly app: FastifyInstance;
  readonly leases: Leases;
  close(): Promise<void>;
}

export async function startWebhookProcess(
  database: DatabaseHandle,
  events: EventBus,
): Promise<WebhookProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-wake-'));
  const config = Object.freeze({
    ...loadConfig(
      {
        NODE_ENV: 'test',
        SECRET_KEY: TEST_SECRET_KEY,
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
        MARKET_DATA: 'simulated',
      },
      { generateSecret: false },
    ),
    authIpRatePerMinute: 100_000,
    webhookSignalsPerMinute: 100_000,
  });
  const clock = systemClock;
  const log = { info() {}, warn() {}, error() {}, debug() {} } as never;
  const base = await createServices({
    config,
    db: database.db,
    databaseKind: database.kind,
    clock,
    log,
    eventBus: events,
  });
  const leases = createLeases({ db: database.db });
  const webhooks = createWebhooksModule({
    db: database.db,
    clock,
    execution: base.execution,
    prices: feedPriceSource(base.marketFeed),
    feed: base.marketFeed,
    operationLog: base.operationLog,
    log,
    signalsPerMinute: config.webhookSignalsPerMinute,
    leases,
    outbox: createOutbox({ db: database.db, clock }),
    events,
    pollIntervalMs: NO_POLL_MS,
  });
  const app = await buildApp({
    config,
    db: database.db,
    databaseKind: database.kind,
    logger: false,
    services: { ...base, webhooks },
  });
  await app.ready();
  await webhooks.start();
  return {
    app,
    leases,
    async close() {
      await webhooks.stop();
      await app.close();
      await base.copyTrading.engine.stop();
      await base.marketFeed.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
