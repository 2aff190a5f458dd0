import type { Exchange, Timeframe } from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { BotPositionRow, ExchangeAccountRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { ExchangeClient } from '../../exchange/exchange-client.js';
import type { MarketFeed } from '../../market/market.types.js';
import type { BotControl } from '../../modules/bots/bot-control.js';
import type { BotStrategy, CompiledStrategy } from './bot-decision.js';
import type { OperationLogEntry } from './bot-engine.repository.js';

/**
 * A bot account's client. `paperFillPrice` pins the price a paper market order fills at (before
 * slippage): the paper stop-loss/take-profit closes at the touched level, as the backtest does.
 * Live clients ignore it.
 */
export type BotClients = (account: ExchangeAccountRow, paperFillPrice?: number) => ExchangeClient;

export interface BotEngineLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BotEngineDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly feed: MarketFeed;
  readonly clients: BotClients;
  /** The operation-log writer; by default the engine's own repository writes the row. */
  readonly writeLog?: (entry: OperationLogEntry) => Promise<void>;
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
  /** Where fills are published (OrderFilled, PositionChanged); none when omitted. */
  readonly events?: EventBus;
}

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
  readonly account: ExchangeAccountRow;
  lastCandleTimeMs: number;
  position: BotPositionRow | null;
  /** Work on one bot runs one at a time, in order. */
  queue: Promise<void>;
  isRemoved: boolean;
}
