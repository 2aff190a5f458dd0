import type { Exchange as ExchangeName, Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import ccxt, { type Exchange, type OHLCV } from 'ccxt';
import { cleanOhlcvRows } from './candle-cleaning.js';
import { VENUES, type VenueOptions } from './exchange-venues.js';
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
  private markets: Promise<readonly string[]> | undefined;
  private hasFailedLoading = false;

  constructor(
    readonly exchange: ExchangeName,
    options: VenueOptions,
  ) {
    const venue = VENUES[exchange];
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
