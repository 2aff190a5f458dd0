import { createBatcher } from '../../common/batcher.js';
import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { ServiceLogger } from '../../common/logger.js';
import type { Database } from '../../db/database.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import type { ExecutionCore } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { StepUp } from '../auth/step-up.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import { createWebhookExecutor, ownerOf, type TrailLog } from './webhook-executor.js';
import { createWebhookReceiver } from './webhook-receiver.js';
import { createWebhooksRepository, type WebhooksRepository } from './webhooks.repository.js';
import { createWebhooksService } from './webhooks.service.js';

/**
 * The webhook trail's writer. Lines written while a batch is being written share the next insert
 * (a burst of alerts writes a few statements, not one per line).
 */
function trailLogOn(repo: WebhooksRepository, clock: Clock, log: ServiceLogger): TrailLog {
  const trailLines = createBatcher(
    async (rows: readonly Parameters<WebhooksRepository['insertLog']>[0][]) => {
      await repo.insertLogs(rows);
      return rows.map(() => undefined);
    },
    { maxSize: 500 },
  );
  return async (entry) => {
    try {
      await trailLines.run({
        userId: entry.config?.userId ?? entry.userId ?? null,
        configId: entry.config?.id ?? null,
        configName: entry.config?.name ?? null,
        signalId: entry.signalId,
        level: entry.level,
        event: entry.event,
        message: entry.message,
        sourceIp: entry.sourceIp ?? null,
        createdAt: clock.now(),
      });
    } catch (error) {
      log.warn({ err: error }, 'webhook log entry failed');
    }
  };
}

/**
 * Before an exchange account is deleted: every webhook configuration's open position on it
 * is closed through the execution core (reduce-only where the account allows). Answers what
 * was closed; throws when a close fails (nothing is deleted then).
 */
async function closePositionsOnAccount(
  repo: WebhooksRepository,
  execution: ExecutionCore,
  clock: Clock,
  accountId: number,
) {
  const configIds = await repo.configIdsOnAccount(accountId);
  if (configIds.length === 0) return [];
  // No new signal trades on the account while it goes.
  await repo.disableOnAccount(accountId, clock.now());
  const positions = (await execution.openPositionsOf(configIds.map(ownerOf))).filter(
    (p) => p.accountId === accountId && Number(p.size) !== 0,
  );
  const closed: { config_id: number; symbol: string }[] = [];
  for (const position of positions) {
    await execution.submit({
      accountId,
      symbol: position.symbol,
      owner: position.owner,
      key: `account-deleted:${position.id}:${position.openedAt?.getTime() ?? 0}`,
      size: { kind: 'close' },
      action: 'close_on_account_delete',
    });
    closed.push({ config_id: position.owner.id, symbol: position.symbol });
  }
  return closed;
}

/** What the webhooks module is built from. */
export interface WebhooksModuleDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly prices: PriceSource;
  readonly feed: MarketFeed;
  readonly operationLog: OperationLogWriter;
  readonly log: ServiceLogger;
  readonly pollIntervalMs?: number;
  readonly signalsPerMinute?: number;
  /** With more than one process: a configuration's signals run where its lease is held. */
  readonly leases?: Leases;
  /** A new webhook key of a user with 2FA on needs an authenticator code. */
  readonly stepUp?: StepUp;
  /** Failed and refused signals are written to the outbox (WebhookSignalFailed) with them. */
  readonly outbox?: Outbox;
  readonly events?: EventBus;
}

/**
 * TradingView webhook trading: configurations, the receiver, the background executor (started
 * by main.ts, or by the app that built it) and the trail. Orders go through the execution core
 * with the configuration as owner.
 */
export function createWebhooksModule(deps: WebhooksModuleDeps) {
  const repo = createWebhooksRepository(deps.db);
  const { clock, log } = deps;
  const trail = trailLogOn(repo, clock, log);
  const executor = createWebhookExecutor({
    repo,
    execution: deps.execution,
    prices: deps.prices,
    clock,
    log,
    trail,
    operationLog: deps.operationLog,
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
    ...(deps.leases === undefined ? {} : { leases: deps.leases }),
    ...(deps.events === undefined ? {} : { events: deps.events }),
    ...(deps.outbox && deps.events
      ? {
          failures: {
            inTransaction: <T>(work: (txRepo: WebhooksRepository, tx: Database) => Promise<T>) =>
              deps.db.transaction((tx) => work(createWebhooksRepository(tx), tx)),
            outbox: deps.outbox,
            events: deps.events,
          },
        }
      : {}),
  });
  // An accepted signal is announced on the bus: the executor holding its configuration (in this
  // process or another: an api process runs no executor) wakes and runs it. Without a bus, this
  // process's executor is woken directly.
  const events = deps.events;
  const announce = events
    ? (signalId: number, configId: number) => {
        events
          .publish('WebhookSignalAccepted', { signalId, configId }, `webhook-accepted:${signalId}`)
          .catch((error: unknown) =>
            log.warn({ err: error, signalId }, 'webhook wake-up not published (the poll runs it)'),
          );
      }
    : (_signalId: number, configId: number) => executor.wake(configId);
  const receiver = createWebhookReceiver({
    repo,
    clock,
    announce,
    trail,
    log,
    ...(deps.signalsPerMinute === undefined ? {} : { signalsPerMinute: deps.signalsPerMinute }),
  });
  const service = createWebhooksService({
    repo,
    clock,
    execution: deps.execution,
    prices: deps.prices,
    feed: deps.feed,
    trail,
    stepUp: deps.stepUp,
  });

  return {
    service,
    receiver,
    executor,
    start: () => executor.start(),
    stop: () => executor.stop(),

    /** Before an exchange account is deleted: see closePositionsOnAccount. */
    closePositionsOnAccount: (accountId: number) =>
      closePositionsOnAccount(repo, deps.execution, clock, accountId),
  };
}
export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
