import type { Exchange as ExchangeName } from '@quantsquare/contracts';
import ccxt, { type Exchange } from 'ccxt';

// Venue differences as data (STYLE 6): which ccxt class, its options, how many candles one
// request may ask for, and where its public REST API lives (tests point it at a local fake).

export interface VenueOptions {
  readonly requestTimeoutMs: number;
  /** Base URL of a stand-in for the exchange's public API (tests), e.g. http://127.0.0.1:1234. */
  readonly apiBaseUrl?: string;
}

export interface Venue {
  readonly create: (options: VenueOptions) => Exchange;
  /** Candles per fetchOHLCV call (binance 1000, okx 300). */
  readonly ohlcvPageLimit: number;
  /** Settlements per fetchFundingRateHistory call (binance 1000, okx 100). */
  readonly fundingPageLimit: number;
  /**
   * How the venue pages its funding history: `forward` from a start time up to an end time
   * (binance startTime/endTime, oldest first), or `backward` from an end time (okx `after`:
   * the newest records older than it).
   */
  readonly fundingPaging: 'forward' | 'backward';
}

const common = (options: VenueOptions) => ({
  enableRateLimit: true,
  timeout: options.requestTimeoutMs,
});

export const VENUES: Readonly<Record<ExchangeName, Venue>> = {
  binance: {
    ohlcvPageLimit: 1000,
    fundingPageLimit: 1000,
    fundingPaging: 'forward',
    create(options) {
      // USDⓈ-M perpetuals only: fetchMarkets reads /fapi/v1/exchangeInfo and nothing else.
      const exchange = new ccxt.binanceusdm({
        ...common(options),
        options: {
          defaultType: 'swap',
          maxRetriesOnFailure: 0,
          fetchMarkets: { types: ['linear'] },
        },
      });
      if (options.apiBaseUrl) {
        const api = exchange.urls.api as Record<string, string>;
        api.fapiPublic = `${options.apiBaseUrl}/fapi/v1`;
        api.fapiPublicV2 = `${options.apiBaseUrl}/fapi/v2`;
        api.fapiPublicV3 = `${options.apiBaseUrl}/fapi/v3`;
      }
      return exchange;
    },
  },
  okx: {
    ohlcvPageLimit: 300,
    fundingPageLimit: 100,
    fundingPaging: 'backward',
    create(options) {
      const exchange = new ccxt.okx({
        ...common(options),
        options: { defaultType: 'swap', maxRetriesOnFailure: 0, fetchMarkets: { types: ['swap'] } },
      });
      if (options.apiBaseUrl)
        (exchange.urls.api as Record<string, string>).rest = options.apiBaseUrl;
      return exchange;
    },
  },
};
