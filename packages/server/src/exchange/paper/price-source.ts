import type { Exchange, Timeframe } from '@quantsquare/contracts';
import type { MarketCandle, MarketFeed } from '../../market/market.types.js';
import { ExchangeAdapterError } from '../exchange-client.js';

/** The market prices a paper account trades on. */
export interface PriceSource {
  /** The latest price of a symbol, as paper market fills and marks see it. */
  lastPrice(exchange: Exchange, symbol: string): Promise<number>;
  /**
   * Candles of `timeframe`, oldest first: the latest `closedCount` closed ones, then the forming
   * one. Resting orders are triggered by their high and low.
   */
  recentCandles(
    exchange: Exchange,
    symbol: string,
    timeframe: Timeframe,
    closedCount: number,
  ): Promise<readonly MarketCandle[]>;
}

const unavailable = (symbol: string, error?: unknown) =>
  new ExchangeAdapterError(
    'unavailable',
    error === undefined
      ? `No market price for ${symbol}`
      : `No market price for ${symbol}: ${error instanceof Error ? error.message : String(error)}`,
  );

/** The market feed: the latest 1m close (the forming candle when there is one) and its candles. */
export function feedPriceSource(feed: MarketFeed): PriceSource {
  return {
    async lastPrice(exchange, symbol) {
      let price: number | undefined;
      try {
        const series = await feed.series({ exchange, symbol, timeframe: '1m', closedCount: 1 });
        price = series.forming?.close ?? series.closed.at(-1)?.close;
      } catch (error) {
        throw unavailable(symbol, error);
      }
      if (price === undefined || !Number.isFinite(price) || price <= 0) throw unavailable(symbol);
      return price;
    },
    async recentCandles(exchange, symbol, timeframe, closedCount) {
      try {
        const series = await feed.series({ exchange, symbol, timeframe, closedCount });
        const closed = series.closed.slice(-closedCount);
        return series.forming ? [...closed, series.forming] : closed;
      } catch (error) {
        throw unavailable(symbol, error);
      }
    },
  };
}
