import { EXCHANGES, type Exchange, type Timeframe } from '@quantsquare/contracts';
import type { Clock } from '../common/clock.js';
import type { CandlesRepository } from './candles.repository.js';
import type { CcxtMarketSource } from './ccxt-source.js';
import { computeFreshness } from './freshness.js';
import type { FundingRatesRepository } from './funding-rates.repository.js';
import { LiveFundingStore } from './funding-store.js';
import { LiveStore } from './live-store.js';
import { ExchangeUnavailable, unknownSymbol } from './market.errors.js';
import type {
  CandleSeries,
  FeedLogger,
  FundingHistory,
  MarketFeed,
  SeriesRequest,
  SymbolList,
} from './market.types.js';
import { simulatedFunding } from './simulated-funding.js';
import { SIMULATED_SYMBOLS } from './simulated-levels.js';
import { SimulatedStore } from './simulated-store.js';

export type MarketDataMode = 'auto' | 'live' | 'simulated';

export interface MarketFeedOptions {
  readonly mode: MarketDataMode;
  readonly clock: Clock;
  /** Stores live closed candles; without it they live in memory only. */
  readonly candles?: CandlesRepository;
  /** Stores the venues' funding rates (the database's, or a memory one where there is none). */
  readonly fundingRates: FundingRatesRepository;
  readonly log?: FeedLogger;
  /**
   * The live sources, one per exchange (`ccxtMarketSources()`); needed unless `mode` is
   * `simulated`.
   */
  readonly liveSources?: Readonly<Record<Exchange, CcxtMarketSource>>;
  /** auto: how often an exchange that fell back to simulated is tried live again. */
  readonly liveRetryIntervalMs?: number;
  /** How often one series is read again from the exchange at most. */
  readonly liveRefreshIntervalMs?: number;
}

export const DEFAULT_LIVE_RETRY_INTERVAL_MS = 5 * 60_000;
export const DEFAULT_LIVE_REFRESH_INTERVAL_MS = 10_000;

type ExchangeStatus = 'unknown' | 'live' | 'simulated' | 'unreachable';

/**
 * MARKET_DATA: `simulated` serves the simulated store only; `live` serves the exchange and
 * answers ExchangeUnavailable (503) when it cannot be read; `auto` probes each exchange (loading
 * its markets, short timeout), serves live when that works and the simulated store for an
 * exchange that cannot be reached — also when a live read fails later — and tries live again in
 * the background every `liveRetryIntervalMs` without blocking requests.
 */
class DefaultMarketFeed implements MarketFeed {
  private readonly simulated: SimulatedStore;
  private readonly live: LiveStore;
  private readonly funding: LiveFundingStore;
  private readonly sources: Partial<Record<Exchange, CcxtMarketSource>>;
  private readonly status = new Map<Exchange, ExchangeStatus>();
  private readonly probes = new Map<Exchange, Promise<void>>();
  private retryTimer: NodeJS.Timeout | undefined;
  private log: FeedLogger | undefined;

  constructor(private readonly options: MarketFeedOptions) {
    this.log = options.log;
    this.simulated = new SimulatedStore(options.clock);
    this.live = new LiveStore({
      clock: options.clock,
      repository: options.candles,
      refreshIntervalMs: options.liveRefreshIntervalMs ?? DEFAULT_LIVE_REFRESH_INTERVAL_MS,
    });
    this.funding = new LiveFundingStore(options.fundingRates, options.clock);
    if (options.mode !== 'simulated' && !options.liveSources) {
      throw new Error(`A ${options.mode} market feed needs its sources`);
    }
    // A simulated feed reads no venue, whatever sources it was given.
    this.sources = options.mode === 'simulated' ? {} : (options.liveSources ?? {});
  }

  start(log?: FeedLogger): void {
    if (log) this.log = log;
    if (this.options.mode === 'simulated') return;
    for (const exchange of EXCHANGES) void this.probe(exchange);
    if (this.options.mode === 'auto' && !this.retryTimer) {
      this.retryTimer = setInterval(
        () => this.retryFallenBack(),
        this.options.liveRetryIntervalMs ?? DEFAULT_LIVE_RETRY_INTERVAL_MS,
      );
      this.retryTimer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** Background retry of exchanges serving simulated data (auto mode); never awaited by requests. */
  retryFallenBack(): void {
    for (const exchange of EXCHANGES) {
      if (this.status.get(exchange) === 'simulated' && !this.probes.has(exchange)) {
        void this.probe(exchange);
      }
    }
  }

  private probe(exchange: Exchange): Promise<void> {
    const running = this.probes.get(exchange);
    if (running) return running;
    const source = this.sources[exchange];
    if (!source) return Promise.resolve();
    const probe = source
      .symbols()
      .then(
        () => {
          if (this.status.get(exchange) !== 'live') {
            this.log?.info({ exchange }, 'market data: live');
          }
          this.status.set(exchange, 'live');
        },
        (error: unknown) => this.markUnreachable(exchange, error),
      )
      .finally(() => this.probes.delete(exchange));
    this.probes.set(exchange, probe);
    return probe;
  }

  private markUnreachable(exchange: Exchange, error: unknown): void {
    const next: ExchangeStatus = this.options.mode === 'auto' ? 'simulated' : 'unreachable';
    if (this.status.get(exchange) !== next) {
      this.log?.warn(
        { exchange, reason: error instanceof Error ? error.message : String(error) },
        next === 'simulated'
          ? 'market data: exchange unreachable, serving simulated data'
          : 'market data: exchange unreachable',
      );
    }
    this.status.set(exchange, next);
  }

  /** The live source to use for `exchange`, or undefined when the simulated store serves it. */
  private async liveSource(exchange: Exchange): Promise<CcxtMarketSource | undefined> {
    if (this.options.mode === 'simulated') return undefined;
    if ((this.status.get(exchange) ?? 'unknown') === 'unknown') await this.probe(exchange);
    const status = this.status.get(exchange);
    if (status === 'simulated') return undefined;
    return this.sources[exchange];
  }

  /** Runs a live read; in auto mode an unreachable exchange falls back to `fallback`. */
  private async withFallback<T>(
    exchange: Exchange,
    read: (source: CcxtMarketSource) => Promise<T>,
    fallback: () => T,
  ): Promise<T> {
    const source = await this.liveSource(exchange);
    if (!source) return fallback();
    try {
      const result = await read(source);
      this.status.set(exchange, 'live');
      return result;
    } catch (error) {
      if (!(error instanceof ExchangeUnavailable)) throw error;
      this.markUnreachable(exchange, error);
      if (this.options.mode === 'auto') return fallback();
      throw error;
    }
  }

  async symbols(exchange: Exchange): Promise<SymbolList> {
    return this.withFallback<SymbolList>(
      exchange,
      async (source) => ({ source: 'live' as const, symbols: await source.symbols() }),
      () => ({ source: 'simulated' as const, symbols: SIMULATED_SYMBOLS }),
    );
  }

  async series(request: SeriesRequest): Promise<CandleSeries> {
    return this.withFallback(
      request.exchange,
      async (source) => {
        const symbols = await source.symbols();
        if (!symbols.includes(request.symbol))
          throw unknownSymbol(request.exchange, request.symbol);
        return this.live.series(source, request);
      },
      () => {
        if (!SIMULATED_SYMBOLS.includes(request.symbol)) {
          throw unknownSymbol(request.exchange, request.symbol);
        }
        return this.simulated.series(request);
      },
    );
  }

  async fundingHistory(
    exchange: Exchange,
    symbol: string,
    fromMs: number,
    toMs: number,
  ): Promise<FundingHistory> {
    const source = await this.liveSource(exchange);
    if (!source) {
      const series = simulatedFunding(exchange, symbol, fromMs, toMs);
      return { source: 'simulated', time: series.time, rate: series.rate, missing: null };
    }
    return this.funding.history(source, { exchange, symbol }, fromMs, toMs);
  }

  async freshness(exchange: Exchange, symbol: string, timeframe: Timeframe) {
    const series = await this.series({ exchange, symbol, timeframe, closedCount: 1 });
    const newest = series.forming ?? series.closed[series.closed.length - 1];
    return computeFreshness({
      source: series.source,
      timeframe,
      nowMs: this.options.clock.now().getTime(),
      coveredUntilMs: series.coveredUntilMs > 0 ? series.coveredUntilMs : null,
      lastCandleTimeMs: newest?.timestamp ?? null,
    });
  }
}

export function createMarketFeed(options: MarketFeedOptions): MarketFeed {
  return new DefaultMarketFeed(options);
}
