import type { Exchange } from '@quantsquare/contracts';
import type { MarketFeed } from '../../market/market.types.js';
import { ExchangeAdapterError } from '../exchange-client.js';

/** The latest price of a symbol, as paper fills and marks see it. */
export interface PriceSource {
  lastPrice(exchange: Exchange, symbol: string): Promise<number>;
}

/** The market feed's latest 1m candle close (the forming candle when there is one). */
export function feedPriceSource(feed: MarketFeed): PriceSource {
  return {
    async lastPrice(exchange, symbol) {
      let price: number | undefined;
      try {
        const series = await feed.series({ exchange, symbol, timeframe: '1m', closedCount: 1 });
        price = series.forming?.close ?? series.closed.at(-1)?.close;
      } catch (error) {
        throw new ExchangeAdapterError(
          'unavailable',
          `No market price for ${symbol}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (price === undefined || !Number.isFinite(price) || price <= 0) {
        throw new ExchangeAdapterError('unavailable', `No market price for ${symbol}`);
      }
      return price;
    },
  };
}
