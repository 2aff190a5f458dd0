import type {
  Candle,
  DataFreshness,
  Exchange,
  MarketDataSource,
  Timeframe,
} from '@quantsquare/contracts';

/** A candle as the feed serves it: `timestamp` is the UTC open time in milliseconds. */
export type MarketCandle = Candle;

/**
 * The candles of one (exchange, symbol, timeframe), oldest first. `closed` never changes once
 * served (new closed candles are appended); `forming` is the current, still moving candle.
 * `revision` changes whenever anything in the series changes, so answers built from a series
 * can be cached per revision.
 */
export interface CandleSeries {
  readonly source: MarketDataSource;
  readonly closed: readonly MarketCandle[];
  readonly forming: MarketCandle | null;
  readonly revision: number;
  /** Until when (ms) the data is known to be complete: the basis of the freshness delay. */
  readonly coveredUntilMs: number;
}

export interface SymbolList {
  readonly source: MarketDataSource;
  readonly symbols: readonly string[];
}

export interface SeriesRequest {
  readonly exchange: Exchange;
  readonly symbol: string;
  readonly timeframe: Timeframe;
  /** How many closed candles the caller needs at least (≤ CANDLE_LIMIT_MAX). */
  readonly closedCount: number;
}

/**
 * Funding settlements of a perpetual in a time range, oldest first (the engine's FundingSeries):
 * the venue's own rates when the market data is live, a deterministic series when simulated.
 */
export interface FundingHistory {
  readonly source: MarketDataSource;
  /** Settlement times, UTC ms, ascending. */
  readonly time: Float64Array;
  /** Rates paid by longs at those times (0.0001 = 0.01%). */
  readonly rate: Float64Array;
  /**
   * Null when the whole range was read; otherwise why settlements may be missing (the venue
   * could not be reached and only the stored rates are answered).
   */
  readonly missing: string | null;
}

export interface FeedLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** The market data the services use; live, simulated or auto (live with simulated fallback). */
export interface MarketFeed {
  /** Starts background work (reachability probes, periodic live retries). */
  start(log?: FeedLogger): void;
  /** auto: tries exchanges that fell back to simulated data live again (the timer calls it). */
  retryFallenBack(): void;
  stop(): Promise<void>;
  symbols(exchange: Exchange): Promise<SymbolList>;
  series(request: SeriesRequest): Promise<CandleSeries>;
  freshness(exchange: Exchange, symbol: string, timeframe: Timeframe): Promise<DataFreshness>;
  /**
   * Funding settlements of `symbol` with fromMs ≤ time ≤ toMs, from the same source as its
   * candles: simulated when the feed serves the exchange simulated, else the venue's history
   * (ccxt fetchFundingRateHistory), stored and read from the venue only where not stored yet.
   */
  fundingHistory(
    exchange: Exchange,
    symbol: string,
    fromMs: number,
    toMs: number,
  ): Promise<FundingHistory>;
}
