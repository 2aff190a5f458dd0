import type { Exchange } from '@quantsquare/contracts';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import {
  type Balances,
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeErrorKind,
  type KeyPermissions,
} from '../../src/exchange/exchange-client.js';
import {
  createExchangeClientFactory,
  type ExchangeAccountCredentials,
  type ExchangeClientFactory,
} from '../../src/exchange/exchange-client-factory.js';
import type { PriceSource } from '../../src/exchange/paper/price-source.js';
import type { MarketCandle } from '../../src/market/market.types.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';

/**
 * Prices the test sets by hand (paper fills and marks). They have no history, so no candle ever
 * reaches a resting order here (the feed's candles do: see paper-triggers.test.ts).
 */
export class FixedPrices implements PriceSource {
  private readonly prices = new Map<string, number>();
  set(symbol: string, price: number): void {
    this.prices.set(symbol, price);
  }
  async recentCandles(): Promise<MarketCandle[]> {
    return [];
  }
  async lastPrice(_exchange: Exchange, symbol: string): Promise<number> {
    const price = this.prices.get(symbol);
    if (price === undefined)
      throw new ExchangeAdapterError('unavailable', `No price for ${symbol}`);
    return price;
  }
}

export interface ScriptedBehaviour {
  balance?: Balances;
  permissions?: KeyPermissions;
  /** Every call fails with this adapter error. */
  failWith?: { kind: ExchangeErrorKind; message: string };
}

/** A stand-in for an exchange the test scripts: answers or fails every call the same way. */
export function scriptedClient(exchange: Exchange, behaviour: ScriptedBehaviour): ExchangeClient {
  const act = async <T>(value: T): Promise<T> => {
    if (behaviour.failWith) {
      throw new ExchangeAdapterError(behaviour.failWith.kind, behaviour.failWith.message);
    }
    return value;
  };
  const none = () => act(undefined);
  return {
    exchange,
    loadMarkets: none,
    marketFacts: async (symbol) =>
      act({
        symbol,
        contractSize: 1,
        amountStep: 0.001,
        priceStep: 0.1,
        minAmount: 0,
        minNotional: 0,
        maxLeverage: 125,
      }),
    fetchBalance: () => act(behaviour.balance ?? { USDT: { total: 500, free: 400, used: 100 } }),
    fetchPositions: () => act([]),
    setLeverage: none,
    createOrder: async () => {
      throw new ExchangeAdapterError('invalid_order', 'not scripted');
    },
    fetchOrderByClientId: () => act(null),
    cancelOrder: none,
    fetchOpenOrders: () => act([]),
    fetchMyTrades: () => act([]),
    fetchOrderTrades: () => act(null),
    checkPermissions: () =>
      act(behaviour.permissions ?? { canTrade: true, canWithdraw: false, ipRestricted: true }),
  };
}

/**
 * Paper accounts on fixed prices; live accounts answer by their api_key's prefix:
 * `bad…` invalid key, `down…` exchange unavailable, `withdraw…` a key that can withdraw,
 * anything else a healthy trade-only key with 500 USDT.
 */
export function scriptedFactory(
  deps: { database: DatabaseHandle; clock: ManualClock },
  prices: FixedPrices = new FixedPrices(),
  seen: ExchangeAccountCredentials[] = [],
): ExchangeClientFactory {
  const paper = createExchangeClientFactory({
    paperBalances: writePaperBalances,
    db: deps.database.db,
    clock: deps.clock,
    prices,
    paperSlippageBps: 2,
    createLiveClient: () => {
      throw new Error('live accounts are scripted here');
    },
  });
  return (account) => {
    seen.push(account);
    if (account.isPaper) return paper(account);
    const key = account.apiKey ?? '';
    if (key.startsWith('bad')) {
      return scriptedClient(account.exchange, {
        failWith: {
          kind: 'invalid_key',
          message: 'binance {"code":-2015,"msg":"Invalid API-key"}',
        },
      });
    }
    if (key.startsWith('down')) {
      return scriptedClient(account.exchange, {
        failWith: { kind: 'unavailable', message: 'ETIMEDOUT' },
      });
    }
    if (key.startsWith('withdraw')) {
      return scriptedClient(account.exchange, {
        permissions: { canTrade: true, canWithdraw: true, ipRestricted: false },
      });
    }
    return scriptedClient(account.exchange, {});
  };
}
