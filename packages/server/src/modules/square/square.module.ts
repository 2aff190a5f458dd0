import type { PublishedStrategy, StrategyLiveCheck } from '@quantsquare/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { Clock } from '../../common/clock.js';
import type { CoinBalanceReader } from '../../common/coin-balances.js';
import type { Database } from '../../db/database.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import { createStrategyHub } from '../../realtime/strategy-hub.js';
import { strategySocketRoutes } from '../../realtime/strategy-socket.routes.js';
import { createListingRepository } from './listing.repository.js';
import { createListingService } from './listing.service.js';
import { createMetricsRepository } from './metrics.repository.js';
import { type CopyFiguresSource, createMetricsService } from './metrics.service.js';
import {
  createMetricsJob,
  createMetricsRefresher,
  createWalletMarker,
  type MetricsWorkerLogger,
} from './metrics.worker.js';
import { createReadModelProjector } from './read-model.projector.js';
import { createReadModelRepository } from './read-model.repository.js';
import { createSharingRepository } from './sharing.repository.js';
import { createSharingService } from './sharing.service.js';
import { createSocialRepository } from './social.repository.js';
import { socialRoutes } from './social.routes.js';
import { createSocialService, createSocialStats } from './social.service.js';
import { squareRoutes } from './square.routes.js';

export interface SquareModuleDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly events: EventBus;
  /** The event outbox the read model catches up from after a restart. */
  readonly eventOutbox?: Outbox;
  /** Marks open positions (the market feed's last price). */
  readonly prices: PriceSource;
  /** The wallet's coin balances: one's own public profile shows it. */
  readonly balances: CoinBalanceReader;
  readonly log: MetricsWorkerLogger;
  /** Waits between a fill or snapshot and the recomputation of the account's figures. */
  readonly metricsDebounceMs?: number;
  /** Whether a viewer copies a strategy (copy trading answers; false without it). */
  readonly isCopying?: (viewerId: number, accountId: number) => Promise<boolean>;
  /** Copiers' P&L and copy efficiency per strategy (copy trading answers; 0 without it). */
  readonly copyFigures?: CopyFiguresSource;
  /**
   * The accounts' exchange clients: with them a public strategy's wallet is marked after its
   * fills, so its figures and curve follow them between the hourly snapshots.
   */
  readonly clientFor?: AccountClients;
  readonly exchangeTimeoutMs?: number;
  /** An account's bots live against their backtests (the bots module's stored comparisons). */
  readonly liveChecks?: (accountId: number) => Promise<StrategyLiveCheck | null>;
  /** An account's bots' strategies for its page (the bots module; none without it). */
  readonly strategiesOf?: (accountId: number, withRules: boolean) => Promise<PublishedStrategy[]>;
}

/** How long a live wallet mark may wait for the exchange when none is given. */
const DEFAULT_MARK_TIMEOUT_MS = 10_000;

/**
 * The strategy square wired together: share settings, the read model of fills and positions
 * (from the event bus), the metrics, the public reads, the social layer and the live hub.
 * `start` subscribes to the bus; `stop` unsubscribes and waits for work in flight.
 */
export function createSquareModule(deps: SquareModuleDeps) {
  const metricsRepo = createMetricsRepository(deps.db);
  const metrics = createMetricsService({
    repo: metricsRepo,
    clock: deps.clock,
    events: deps.events,
    ...(deps.copyFigures ? { copyFigures: deps.copyFigures } : {}),
    ...(deps.clientFor
      ? {
          markNow: createWalletMarker({
            repo: metricsRepo,
            clientFor: deps.clientFor,
            exchangeTimeoutMs: deps.exchangeTimeoutMs ?? DEFAULT_MARK_TIMEOUT_MS,
          }),
        }
      : {}),
    log: deps.log,
    onSaved: () => listing.invalidateAggregates(),
  });
  const refresher = createMetricsRefresher({
    metrics,
    events: deps.events,
    log: deps.log,
    debounceMs: deps.metricsDebounceMs,
  });
  const projector = createReadModelProjector({
    repo: createReadModelRepository(deps.db),
    events: deps.events,
    log: deps.log,
    onFill: (accountId) => refresher.refreshSoon(accountId, true),
    ...(deps.eventOutbox ? { outbox: deps.eventOutbox } : {}),
  });
  const socialRepo = createSocialRepository(deps.db);
  const listingRepo = createListingRepository(deps.db);
  const listing = createListingService({
    repo: listingRepo,
    clock: deps.clock,
    prices: deps.prices,
    viewer: {
      isFollowing: (viewerId, userId) => socialRepo.isFollowing(viewerId, userId),
      // Copy trading answers this (its relations); nobody copies without it.
      isCopying: deps.isCopying ?? (async () => false),
    },
    ...(deps.liveChecks ? { liveChecks: deps.liveChecks } : {}),
    ...(deps.strategiesOf ? { strategiesOf: deps.strategiesOf } : {}),
  });
  const sharing = createSharingService({
    repo: createSharingRepository(deps.db),
    repoFor: createSharingRepository,
    clock: deps.clock,
    events: deps.events,
    refreshMetrics: (accountId) => metrics.refreshAccount(accountId, { markWallet: true }),
    onSaved: () => listing.invalidateAggregates(),
  });
  const social = createSocialService({
    repo: socialRepo,
    listing,
    clock: deps.clock,
    balances: deps.balances,
  });
  const eventOutbox = deps.eventOutbox;
  const hub = createStrategyHub({
    events: deps.events,
    log: deps.log,
    access: {
      async visibility(accountId) {
        const row = await listingRepo.strategy(accountId);
        return row
          ? {
              isPublic: row.settings.isPublic,
              showTrades: row.settings.showTrades,
              showPositions: row.settings.showPositions,
            }
          : null;
      },
      positions: (accountId, change) => listing.currentPositions(accountId, change),
      ...(eventOutbox ? { fillsAfter: eventOutbox.fillsAfter } : {}),
    },
  });

  return {
    sharing,
    listing,
    /** The bots' hourly live-vs-backtest figures per account, for the square's sort and tag. */
    async applyLiveChecks(checks: Parameters<typeof metricsRepo.applyLiveChecks>[0]) {
      await metricsRepo.applyLiveChecks(checks);
      listing.invalidateAggregates();
    },
    social,
    metrics,
    refresher,
    hub,
    /** The /api routes (register under the /api prefix). */
    routes:
      (authentication: BearerAuthentication): FastifyPluginAsync =>
      async (api) => {
        await api.register(squareRoutes({ sharing, listing, authentication }));
        await api.register(socialRoutes({ social, authentication }));
      },
    /** /ws/strategies/{id} (register at the root). */
    socketRoutes: strategySocketRoutes({
      hub,
      isPublic: async (accountId) =>
        (await listingRepo.strategy(accountId))?.settings.isPublic === true,
    }),
    start(): void {
      projector.start();
      refresher.start();
    },
    async stop(): Promise<void> {
      hub.close();
      await projector.stop();
      await refresher.stop();
    },
  };
}
export type SquareModule = ReturnType<typeof createSquareModule>;

/** The profile stats of /my/settings (document 2 §2 Profile settings), for the profile module. */
export function createSquareSocialStats(db: Database) {
  return createSocialStats(createSocialRepository(db));
}

/** The hourly wallet marks and full recomputation (main.ts adds it to the scheduler). */
export function createSquareMetricsJob(deps: {
  db: Database;
  clock: Clock;
  events: EventBus;
  clientFor: AccountClients;
  log: MetricsWorkerLogger;
  exchangeTimeoutMs: number;
  copyFigures?: CopyFiguresSource;
}) {
  const repo = createMetricsRepository(deps.db);
  return createMetricsJob({
    metrics: createMetricsService({
      repo,
      clock: deps.clock,
      events: deps.events,
      ...(deps.copyFigures ? { copyFigures: deps.copyFigures } : {}),
    }),
    repo,
    readModel: createReadModelRepository(deps.db),
    clientFor: deps.clientFor,
    log: deps.log,
    exchangeTimeoutMs: deps.exchangeTimeoutMs,
  });
}
