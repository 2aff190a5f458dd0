import type { Exchange, Timeframe } from '@quantsquare/contracts';
import type { CompiledStrategy } from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { AccountClients, ExecutionCore, OwnerPosition } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { BotControl } from '../../modules/bots/bot-control.js';
import type { BotStrategy } from './bot-decision.js';
import type { OperationLogEntry } from './bot-engine.repository.js';

/** A bot account's exchange client (the execution core's). */
export type BotClients = AccountClients;

export interface BotEngineLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export type BotEngineDeps = {
  /** Where the engine's orders go: the process's one execution core (the composition root's). */
  readonly execution: ExecutionCore;
  readonly db: Database;
  readonly clock: Clock;
  readonly feed: MarketFeed;
  /** The operation-log writer (the operation-log service). */
  readonly writeLog: (entry: OperationLogEntry) => Promise<void>;
  readonly logger?: BotEngineLogger;
  /** Closed candles the strategy sees, as the backtest would (default 500). */
  readonly candleLimit?: number;
  /** How often the timer polls the feed (candle closes and paper SL/TP prices); default 2 s. */
  readonly pollIntervalMs?: number;
  /**
   * Waits before each new try to resume a running bot whose exchange could not be reached at
   * start-up (unavailable or rate-limited); when they are used up the bot goes to error.
   */
  readonly resumeRetryDelaysMs?: readonly number[];
  /** The leases of this process (its holder id, shared out in a cluster). */
  readonly leases: Leases;
  /**
   * The users' rule sets (the user-strategies service): a bot on `custom:<id>` runs the rule set
   * as it is stored now, compiled as a backtest compiles it; null when it is gone.
   */
  readonly ruleSets: { compiledForBot(type: string): Promise<CompiledStrategy | null> };
  /** How often leases are renewed and free ones taken (default LEASE_RENEW_MS). */
  readonly leaseRenewMs?: number;
  /**
   * An api process's engine (ROLE=api): it answers the bots' stop and close commands (under the
   * bot's lease) but drives no bot; a started bot is joined by a worker's lease upkeep.
   */
  readonly controlOnly?: boolean;
  /**
   * A bot the engine stops or puts in error has its BotStatusChanged written here, in the
   * transaction of the status (the notifications read it); without it the event is only published.
   */
  readonly outbox?: Outbox;
};

export interface BotEngine extends BotControl {
  /** Resumes running bots (reconciling their pending orders) and starts polling. */
  start(): Promise<void>;
  /** Stops polling and waits for work in flight; positions stay as they are. */
  stop(): Promise<void>;
  /** One poll: every feed group once (the timer calls it; tests call it after moving a clock). */
  tick(): Promise<void>;
  /** Ids of the bots the engine is running. */
  runningBotIds(): number[];
}

export interface RunningBot {
  readonly id: number;
  readonly userId: number;
  readonly symbol: string;
  readonly exchange: Exchange;
  readonly timeframe: Timeframe;
  readonly strategy: BotStrategy;
  /** Validated once at start; bots of a feed with equal keys share one evaluation per close. */
  readonly compiled: CompiledStrategy | null;
  readonly tradeAmount: number;
  readonly stopLossPercent: number | null;
  readonly takeProfitPercent: number | null;
  /** A trailing stop from the bot's rule set: the stop follows the best price since entry. */
  readonly trailingStopPercent: number | null;
  readonly account: ExchangeAccountRow;
  lastCandleTimeMs: number;
  /** The bot's open position in the execution core's book; null while flat. */
  position: OwnerPosition | null;
  isRemoved: boolean;
}
