// Part of the composition root (composition.ts): how accounts' exchange clients are built.
import type { Clock } from './common/clock.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createCcxtExchangeClient, createCcxtMarketCache } from './exchange/ccxt/index.js';
import {
  createExchangeClientFactory,
  type ExchangeClientFactory,
} from './exchange/exchange-client-factory.js';
import { feedPriceSource } from './exchange/paper/price-source.js';
import type { VenueBudget } from './exchange/venue-budget.js';
import type { MarketFeed } from './market/market.types.js';
import { writePaperBalances } from './modules/accounts/account-records.service.js';

/** Paper accounts trade on the market feed's prices; live accounts through ccxt. */
export function defaultExchangeClientFactory(deps: {
  config: Config;
  db: Database;
  clock: Clock;
  marketFeed: MarketFeed;
  /** The venues' per-address budgets: shared on Redis by a cluster, else this process's own. */
  venueBudget: VenueBudget;
}): ExchangeClientFactory {
  const marketCache = createCcxtMarketCache();
  const { venueBudget } = deps;
  return createExchangeClientFactory({
    db: deps.db,
    clock: deps.clock,
    prices: feedPriceSource(deps.marketFeed),
    paperSlippageBps: deps.config.paperSlippageBps,
    paperBalances: writePaperBalances,
    // One market list per venue for every live account (loaded once, not once per account).
    createLiveClient: (options) => {
      const urlsOverride = deps.config.exchangeUrls[options.exchange];
      return createCcxtExchangeClient({
        ...options,
        marketCache,
        venueBudget,
        ...(urlsOverride === undefined ? {} : { urlsOverride }),
      });
    },
  });
}
