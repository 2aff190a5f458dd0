import type { Exchange as ExchangeName, Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import ccxt, { type Exchange, type FundingRateHistory, type OHLCV } from 'ccxt';
import { cleanOhlcvRows } from './candle-cleaning.js';
import { VENUES, type Venue, type VenueOptions } from './exchange-venues.js';
import type { FundingRate } from './funding-rates.repository.js';
import { ExchangeUnavailable, unknownSymbol } from './market.errors.js';
import type { MarketCandle } from './market.types.js';

/**
 * Public market data of one exchange through ONE ccxt instance (markets loaded once, rate limit
 * on, no ccxt retries: the feed decides what to do on failure). ccxt errors are translated here:
 * BadSymbol → a field error on `symbol`, everything else → ExchangeUnavailable.
 */
export class CcxtMarketSource {
  private readonly client: Exchange;
  private readonly pageLimit: number;
  private readonly venue: Venue;
  private markets: Promise<readonly string[]> | undefined;
  private hasFailedLoading = false;

  constructor(
    readonly exchange: ExchangeName,
    options: VenueOptions,
  ) {
    const venue = VENUES[exchange];
    this.venue = venue;
    this.client = venue.create(options);
    this.pageLimit = venue.ohlcvPageLimit;
  }

  /** USDT-settled linear perpetuals, loaded once (a failed load is retried on the next call). */
  symbols(): Promise<readonly string[]> {
    if (!this.markets) {
      const reload = this.hasFailedLoading;
      this.markets = this.client.loadMarkets(reload).then(
        (markets) =>
          Object.values(markets)
            .filter(
              (market) =>
                market !== undefined &&
                market.swap === true &&
                market.linear === true &&
                market.settle === 'USDT' &&
                market.active !== false,
            )
            .map((market) => market!.symbol)
            .sort(),
        (error: unknown) => {
          this.markets = undefined;
          this.hasFailedLoading = true;
          throw this.translate(error);
        },
      );
    }
    return this.markets;
  }

  /**
   * Candles with open time ≥ `sinceMs` up to the forming one, paging through the venue's
   * per-request limit. Rows the cleaning rules reject are dropped.
   */
  async candlesSince(
    symbol: string,
    timeframe: Timeframe,
    sinceMs: number,
    nowMs: number,
  ): Promise<MarketCandle[]> {
    const symbols = await this.symbols();
    if (!symbols.includes(symbol)) throw unknownSymbol(this.exchange, symbol);
    const lengthMs = TIMEFRAME_MS[timeframe];
    const out: MarketCandle[] = [];
    let cursorMs = sinceMs;
    while (cursorMs <= nowMs) {
      let rows: OHLCV[];
      try {
        rows = await this.client.fetchOHLCV(symbol, timeframe, cursorMs, this.pageLimit);
      } catch (error) {
        throw this.translate(error);
      }
      const page = cleanOhlcvRows(rows).filter((candle) => candle.timestamp >= cursorMs);
      if (page.length === 0) break;
      for (const candle of page) {
        if (out.length === 0 || candle.timestamp > out[out.length - 1]!.timestamp) out.push(candle);
      }
      cursorMs = out[out.length - 1]!.timestamp + lengthMs;
      if (rows.length < this.pageLimit) break;
    }
    return out;
  }

  /**
   * The venue's settled funding rates with fromMs ≤ time ≤ toMs, oldest first, paging as the
   * venue pages (binance forward from startTime, okx backward from `after`). Times are floored
   * to the second (binance stamps some settlements a few ms late); a row without a finite rate
   * is dropped.
   */
  async fundingRatesBetween(symbol: string, fromMs: number, toMs: number): Promise<FundingRate[]> {
    const symbols = await this.symbols();
    if (!symbols.includes(symbol)) throw unknownSymbol(this.exchange, symbol);
    const limit = this.venue.fundingPageLimit;
    const byTime = new Map<number, number>();
    const keep = (rows: readonly FundingRateHistory[]) => {
      for (const row of rows) {
        const rate = fundingRateOf(row);
        if (row.timestamp === undefined || rate === undefined) continue;
        const time = Math.floor(row.timestamp / 1000) * 1000;
        if (time >= fromMs && time <= toMs) byTime.set(time, rate);
      }
    };
    if (this.venue.fundingPaging === 'forward') {
      let cursorMs = fromMs;
      while (cursorMs <= toMs) {
        const rows = await this.fundingPage(symbol, cursorMs, limit, { until: toMs });
        keep(rows);
        const newest = rows[rows.length - 1]?.timestamp;
        if (rows.length < limit || newest === undefined || newest < cursorMs) break;
        cursorMs = newest + 1;
      }
    } else {
      // Records older than `after`, newest first: walk back from the end of the range.
      let afterMs = toMs + 1;
      while (afterMs > fromMs) {
        const rows = await this.fundingPage(symbol, fromMs, limit, { after: String(afterMs) });
        keep(rows);
        const oldest = rows[0]?.timestamp;
        if (rows.length < limit || oldest === undefined || oldest >= afterMs) break;
        afterMs = oldest;
      }
    }
    return [...byTime].sort((a, b) => a[0] - b[0]).map(([time, rate]) => ({ time, rate }));
  }

  private async fundingPage(
    symbol: string,
    sinceMs: number,
    limit: number,
    params: Record<string, unknown>,
  ): Promise<FundingRateHistory[]> {
    try {
      const rows = await this.client.fetchFundingRateHistory(symbol, sinceMs, limit, params);
      return rows.slice().sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
    } catch (error) {
      throw this.translate(error);
    }
  }

  /**
   * Every ccxt failure of a public call (NetworkError, RequestTimeout, RateLimitExceeded,
   * ExchangeNotAvailable, a 5xx, an unexpected answer) means "cannot read this exchange now":
   * retry later, or serve simulated data in auto mode. The ccxt class name is kept as the reason.
   */
  private translate(error: unknown): ExchangeUnavailable {
    if (error instanceof ccxt.BaseError) {
      return new ExchangeUnavailable(this.exchange, error.constructor.name);
    }
    return new ExchangeUnavailable(
      this.exchange,
      error instanceof Error ? error.message : 'unknown error',
    );
  }
}

/** ccxt's unified rate (okx: the realised one), else the venue's own `fundingRate`. */
function fundingRateOf(row: FundingRateHistory): number | undefined {
  const info = row.info as { fundingRate?: unknown } | undefined;
  const raw = info?.fundingRate;
  const rate = row.fundingRate ?? (typeof raw === 'string' && raw !== '' ? Number(raw) : raw);
  return typeof rate === 'number' && Number.isFinite(rate) ? rate : undefined;
}

/** ccxt's request timeout for market data: short, so an unreachable exchange falls back quickly. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;

/** One source per exchange, each on its venue's public API (a live or `auto` feed's sources). */
export function ccxtMarketSources(
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): Record<ExchangeName, CcxtMarketSource> {
  return {
    binance: new CcxtMarketSource('binance', { requestTimeoutMs }),
    okx: new CcxtMarketSource('okx', { requestTimeoutMs }),
  };
}
