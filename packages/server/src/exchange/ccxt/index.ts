export {
  type CcxtExchangeClientOptions,
  createCcxtExchangeClient,
  type ExchangeLogger,
} from './ccxt-exchange-client.js';
export {
  type CcxtMarketCache,
  createCcxtMarketCache,
  type LoadedMarkets,
  MARKET_CACHE_TTL_MS,
} from './market-cache.js';
export type { RetryPolicy, Sleep } from './read-retry.js';
