export {
  type CcxtExchangeClientOptions,
  createCcxtExchangeClient,
  type ExchangeLogger,
} from './ccxt-exchange-client.js';
export type { RetryPolicy, Sleep } from './read-retry.js';
