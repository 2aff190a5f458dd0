import { type Exchange, PLATFORM_FEE_RATE } from '@quantsquare/contracts';
import type { MarketFacts } from './exchange-client.js';
import { paperMarketFacts } from './paper/paper-exchange-client.js';

// Venue differences as data (STYLE 6), for what must be known without reaching the venue: the
// copy simulator sizes a follower on its venue's markets before any account or key exists.
// Figures as the venues list them for USDⓈ-M / USDT swaps (steps and minimums in base asset;
// OKX counts whole contracts of `contractSize`), with a generic market for other symbols.

/** The venue a simulated follower trades on: a live venue, or paper (the platform's simulator). */
export type FollowerVenue = Exchange | 'paper';

export interface VenueCopyModel {
  /** Taker fee per side (copy orders take liquidity: market and marketable IOC). */
  readonly feeRate: number;
  readonly facts: (symbol: string) => MarketFacts;
}

type Facts = Omit<MarketFacts, 'symbol'>;
const baseOf = (symbol: string) => symbol.split('/')[0]?.toUpperCase() ?? '';

const BINANCE: Readonly<Record<string, Facts>> = {
  BTC: {
    contractSize: 1,
    amountStep: 0.001,
    priceStep: 0.1,
    minAmount: 0.001,
    minNotional: 100,
    maxLeverage: 125,
  },
  ETH: {
    contractSize: 1,
    amountStep: 0.001,
    priceStep: 0.01,
    minAmount: 0.001,
    minNotional: 20,
    maxLeverage: 100,
  },
  SOL: {
    contractSize: 1,
    amountStep: 1,
    priceStep: 0.01,
    minAmount: 1,
    minNotional: 5,
    maxLeverage: 100,
  },
};
const BINANCE_OTHER: Facts = {
  contractSize: 1,
  amountStep: 0.001,
  priceStep: 0.0001,
  minAmount: 0.001,
  minNotional: 5,
  maxLeverage: 50,
};

const OKX: Readonly<Record<string, Facts>> = {
  BTC: {
    contractSize: 0.01,
    amountStep: 0.01,
    priceStep: 0.1,
    minAmount: 0.01,
    minNotional: 0,
    maxLeverage: 125,
  },
  ETH: {
    contractSize: 0.1,
    amountStep: 0.1,
    priceStep: 0.01,
    minAmount: 0.1,
    minNotional: 0,
    maxLeverage: 100,
  },
  SOL: {
    contractSize: 1,
    amountStep: 1,
    priceStep: 0.01,
    minAmount: 1,
    minNotional: 0,
    maxLeverage: 50,
  },
};
const OKX_OTHER: Facts = {
  contractSize: 1,
  amountStep: 1,
  priceStep: 0.0001,
  minAmount: 1,
  minNotional: 0,
  maxLeverage: 50,
};

const table = (known: Readonly<Record<string, Facts>>, other: Facts) => (symbol: string) => ({
  symbol,
  ...(known[baseOf(symbol)] ?? other),
});

/** The fee and the markets of a follower's venue, as the copy simulator models it. */
export function venueCopyModel(venue: FollowerVenue): VenueCopyModel {
  switch (venue) {
    case 'binance':
      return { feeRate: 0.0005, facts: table(BINANCE, BINANCE_OTHER) };
    case 'okx':
      return { feeRate: 0.0005, facts: table(OKX, OKX_OTHER) };
    case 'paper':
      return { feeRate: PLATFORM_FEE_RATE, facts: paperMarketFacts };
  }
}
