import type { Exchange } from '@quantsquare/contracts';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { CcxtMarketSource } from '../../src/market/ccxt-source.js';
import { createFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createMarketFeed, type MarketDataMode } from '../../src/market/market-feed.js';

/** Real ccxt clients for both exchanges, pointed at a fake exchange (or a dead address). */
export function liveSourcesAt(url: string): Record<Exchange, CcxtMarketSource> {
  return {
    binance: new CcxtMarketSource('binance', { requestTimeoutMs: 2000, apiBaseUrl: url }),
    okx: new CcxtMarketSource('okx', { requestTimeoutMs: 2000, apiBaseUrl: url }),
  };
}

export function feedAt(options: {
  mode: MarketDataMode;
  url: string;
  clock: ManualClock;
  database?: DatabaseHandle;
}): MarketFeed {
  return createMarketFeed({
    mode: options.mode,
    clock: options.clock,
    candles: options.database ? createCandlesRepository(options.database.db) : undefined,
    fundingRates: options.database ? createFundingRatesRepository(options.database.db) : undefined,
    liveSources: liveSourcesAt(options.url),
    liveRefreshIntervalMs: 0,
  });
}

/** A port nothing listens on (connections are refused). */
export const REFUSING_URL = 'http://127.0.0.1:9';
