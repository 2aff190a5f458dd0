import type { Exchange } from '@quantsquare/contracts';
import type { Clock } from '../common/clock.js';
import { computeFreshness } from './freshness.js';
import type { MarketFeed } from './market.types.js';

/**
 * A venue's last price (the latest 1m close, the forming candle first) and whether the feed
 * serving it is fresh (the freshness rule of the charts). Null when the feed has no price.
 */
export function feedQuotes(feed: MarketFeed, clock: Clock) {
  return async (
    exchange: Exchange,
    symbol: string,
  ): Promise<{ price: number; isFresh: boolean } | null> => {
    const series = await feed.series({ exchange, symbol, timeframe: '1m', closedCount: 1 });
    const newest = series.forming ?? series.closed.at(-1);
    if (!newest || !(newest.close > 0)) return null;
    const freshness = computeFreshness({
      source: series.source,
      timeframe: '1m',
      nowMs: clock.now().getTime(),
      coveredUntilMs: series.coveredUntilMs > 0 ? series.coveredUntilMs : null,
      lastCandleTimeMs: newest.timestamp,
    });
    return { price: newest.close, isFresh: freshness.is_fresh };
  };
}
