// What the composition root is built from: composition.ts builds every service from these.

import type { Clock } from './common/clock.js';
import type { ServiceLogger } from './common/logger.js';
import type { Config } from './config.js';
import type { Database, DatabaseKind } from './db/database.js';
import type { Mailer, SmsProvider } from './delivery/delivery.adapters.js';
import type { EventBus } from './events/index.js';
import type { ExchangeClientFactory } from './exchange/exchange-client-factory.js';
import type { VenueBudget } from './exchange/venue-budget.js';
import type { ExecutionCore } from './execution/index.js';
import type { MarketFeed } from './market/market.types.js';
import type { BotControl } from './modules/bots/bot-control.js';
import type { ImageStore } from './uploads/image-store.js';

export interface ServiceDeps {
  readonly config: Config;
  readonly db: Database;
  readonly databaseKind: DatabaseKind;
  readonly clock: Clock;
  readonly log: ServiceLogger;
  readonly mailer?: Mailer | undefined;
  readonly smsProvider?: SmsProvider | undefined;
  /** The market feed; by default one for config.marketData (exchanges probed lazily). */
  readonly marketFeed?: MarketFeed | undefined;
  /** Builds an account's exchange client; defaults to paper for paper accounts, ccxt otherwise. */
  readonly exchangeClientFactory?: ExchangeClientFactory | undefined;
  /** The venues' per-address request budgets (main.ts: on Redis when REDIS_URL is set). */
  readonly venueBudget?: VenueBudget | undefined;
  /** The platform's events; in-process by default (main.ts: Redis when REDIS_URL is set). */
  readonly eventBus?: EventBus | undefined;
  readonly imageStore?: ImageStore | undefined;
  readonly execution?: ExecutionCore | undefined;
  /**
   * The bots' start/stop seam. Without it, a process that `runsWorkers` uses its own bot engine;
   * one that does neither serves no bot routes (a bot could be marked running while nothing
   * trades).
   */
  readonly botControl?: BotControl | undefined;
  /** This process drives bots (the bot engine, under leases) and runs the scheduled jobs. */
  readonly runsWorkers?: boolean;
  /**
   * This process is a member of a cluster (main.ts): it beats in `cluster_members`, and its
   * leases go to the lanes it prefers among the live workers (common/cluster.ts). Without it (the
   * tests' services), a process takes every free lease.
   */
  readonly joinsCluster?: boolean;
}
