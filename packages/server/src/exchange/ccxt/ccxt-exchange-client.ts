import type { Exchange } from '@quantsquare/contracts';
import { EXCHANGE_CAPABILITIES, type PositionMode } from '../exchange-capabilities.js';
import {
  type Balances,
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
  type ExchangePosition,
  type ExchangeTrade,
  type KeyPermissions,
  type MarketFacts,
} from '../exchange-client.js';
import type { VenueBudget } from '../venue-budget.js';
import {
  type CcxtClientContext,
  loadMarkets,
  marketOf,
  marketOfLoaded,
  read,
  shareTransport,
} from './ccxt-client-context.js';
import { isOrderNotFound } from './ccxt-errors.js';
import { addOkxExpiry, buildCcxt, type RequestWindow } from './ccxt-instance.js';
import {
  type Market,
  toBalances,
  toExchangeOrder,
  toExchangeTrade,
  toMarketFacts,
  toPosition,
} from './ccxt-mapping.js';
import { createOrder, fetchOrderByClientId } from './ccxt-order-create.js';
import { readPermissions } from './ccxt-permissions.js';
import { leanRequestsOf } from './lean-requests.js';
import type { CcxtMarketCache } from './market-cache.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, realSleep, type Sleep } from './read-retry.js';

// The client's parts: ccxt-client-context.ts (requests, markets), ccxt-order-create.ts (orders
// sent and looked up by client id); here the reads and the factory.

export interface ExchangeLogger {
  warn(details: object, message: string): void;
}

export interface CcxtExchangeClientOptions {
  readonly exchange: Exchange;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** The OKX passphrase; required where the capability table says so. */
  readonly apiPassword?: string | null;
  /** Uses the exchange's sandbox / demo trading (ccxt setSandboxMode(true)). */
  readonly isTestnet: boolean;
  readonly positionMode: PositionMode;
  /** Base URL of a stand-in for the exchange's REST API (tests), e.g. http://127.0.0.1:4321. */
  readonly urlsOverride?: string;
  readonly timeoutMs?: number;
  readonly sleep?: Sleep;
  readonly now?: () => number;
  readonly logger?: ExchangeLogger;
  readonly retryPolicy?: RetryPolicy;
  /** Markets shared with the venue's other clients (else this client loads its own). */
  readonly marketCache?: CcxtMarketCache;
  /** The venue's per-address budget shared by every account (and process, on Redis). */
  readonly venueBudget?: VenueBudget;
  /**
   * Whether the hot order requests go out lean (lean-requests.ts; the default) or through
   * ccxt's own calls (the bench's peer).
   */
  readonly leanRequests?: boolean;
}

/** A fee currency's USDT price (its swap's last price on the venue); undefined where none. */
async function feeCurrencyPrice(
  ctx: CcxtClientContext,
  currency: string,
): Promise<number | undefined> {
  const { instance } = ctx;
  const symbol = `${currency}/USDT:USDT`;
  if (!instance.markets?.[symbol]) return undefined;
  try {
    const ticker = await read(ctx, 'fetch fee currency price', () => instance.fetchTicker(symbol));
    const price = ticker.last ?? ticker.close;
    return typeof price === 'number' && price > 0 ? price : undefined;
  } catch (error) {
    ctx.options.logger?.warn(
      {
        exchange: ctx.options.exchange,
        currency,
        reason: error instanceof Error ? error.message : String(error),
      },
      'fee currency price unavailable; the fee is kept in its own currency',
    );
    return undefined;
  }
}

async function fetchBalance(ctx: CcxtClientContext): Promise<Balances> {
  await loadMarkets(ctx);
  return toBalances(await read(ctx, 'fetch balance', () => ctx.instance.fetchBalance()));
}

async function fetchPositions(
  ctx: CcxtClientContext,
  symbols?: readonly string[],
): Promise<ExchangePosition[]> {
  const wanted = symbols ? await Promise.all(marketsOf(ctx, symbols)) : undefined;
  const positions = await read(ctx, 'fetch positions', () =>
    ctx.instance.fetchPositions(wanted?.map((market) => market.symbol)),
  );
  const out: ExchangePosition[] = [];
  for (const position of positions) {
    const market = position.symbol ? marketOfLoaded(ctx, position.symbol) : undefined;
    const mapped = market ? toPosition(position, market, ctx.caps) : null;
    if (mapped) out.push(mapped);
  }
  return out;
}

/** The markets of `symbols`, each loading (one promise per symbol, in order). */
function marketsOf(ctx: CcxtClientContext, symbols: readonly string[]): Promise<Market>[] {
  const markets: Promise<Market>[] = [];
  for (const symbol of symbols) markets.push(marketOf(ctx, symbol));
  return markets;
}

async function setLeverage(
  ctx: CcxtClientContext,
  symbol: string,
  leverage: number,
): Promise<void> {
  const market = await marketOf(ctx, symbol);
  await read(ctx, 'set leverage', () =>
    ctx.instance.setLeverage(leverage, market.symbol, { ...ctx.caps.leverageParams }),
  );
}

async function cancelOrder(ctx: CcxtClientContext, symbol: string, orderId: string): Promise<void> {
  const { caps, lean, instance } = ctx;
  const market = await marketOf(ctx, symbol);
  // Cancelling twice is harmless, so a cancel retries like a read. An id unknown to the
  // regular book may be a trigger order's.
  await read(ctx, 'cancel order', async () => {
    try {
      if (lean) await lean.cancelOrder(market, orderId);
      else await instance.cancelOrder(orderId, market.symbol);
    } catch (error) {
      if (!isOrderNotFound(error, caps)) throw error;
      try {
        await instance.cancelOrder(orderId, market.symbol, {
          ...caps.triggerBook.lookupParams,
        });
      } catch (triggerError) {
        throw isOrderNotFound(triggerError, caps) ? error : triggerError;
      }
    }
  });
}

async function fetchOpenOrders(ctx: CcxtClientContext, symbol?: string): Promise<ExchangeOrder[]> {
  const { caps, instance } = ctx;
  const market = symbol ? await marketOf(ctx, symbol) : undefined;
  if (!market) await loadMarkets(ctx);
  const regular = await read(ctx, 'fetch open orders', () =>
    instance.fetchOpenOrders(market?.symbol),
  );
  const triggers = await read(ctx, 'fetch open trigger orders', () =>
    instance.fetchOpenOrders(market?.symbol, undefined, undefined, {
      ...caps.triggerBook.listParams,
    }),
  );
  const orders = [...regular, ...triggers];
  const out: ExchangeOrder[] = [];
  for (const order of orders) {
    const orderMarket = order.symbol ? marketOfLoaded(ctx, order.symbol) : undefined;
    if (orderMarket) out.push(toExchangeOrder(order, orderMarket, caps, ctx.now()));
  }
  return out;
}

async function fetchMyTrades(
  ctx: CcxtClientContext,
  symbol: string,
  sinceMs?: number,
): Promise<ExchangeTrade[]> {
  const market = await marketOf(ctx, symbol);
  const trades = await read(ctx, 'fetch trades', () =>
    ctx.instance.fetchMyTrades(market.symbol, sinceMs),
  );
  return trades.map((trade) => toExchangeTrade(trade, market, ctx.caps));
}

async function fetchOrderTrades(ctx: CcxtClientContext, symbol: string, exchangeOrderId: string) {
  const { caps, lean, instance } = ctx;
  const market = await marketOf(ctx, symbol);
  const trades = await read(ctx, 'fetch order trades', () =>
    lean
      ? lean.fetchOrderTrades(market, exchangeOrderId)
      : instance.fetchMyTrades(market.symbol, undefined, undefined, {
          [caps.orderTradesParam]: exchangeOrderId,
        }),
  );
  const own = trades.filter((trade) => String(trade.order ?? '') === exchangeOrderId);
  const prices = new Map<string, number | undefined>();
  for (const trade of own) {
    const currency = trade.fee?.currency;
    if (currency && currency !== 'USDT' && currency !== market.base && !prices.has(currency))
      prices.set(currency, await feeCurrencyPrice(ctx, currency));
  }
  return own.map((trade) => toExchangeTrade(trade, market, caps, (c) => prices.get(c)));
}

async function checkPermissions(ctx: CcxtClientContext): Promise<KeyPermissions> {
  await loadMarkets(ctx);
  return read(ctx, 'check permissions', () => readPermissions(ctx.instance, ctx.caps));
}

/**
 * The ccxt implementation of ExchangeClient (binance USDⓈ-M, okx swaps). One ccxt instance,
 * markets loaded once, rate limit on, ccxt's own retries off. Reads retry `unavailable` and
 * `rate_limited` with capped backoff; createOrder sends once and, when the outcome is unknown
 * (timeout, 5xx) or the exchange says the client id exists, looks the order up by client id.
 * Clock skew (Binance -1021, OKX 50102, ccxt InvalidNonce): the request was refused unread, so
 * we re-sync with the exchange's time (ccxt loadTimeDifference) and resend it once.
 */
export function createCcxtExchangeClient(options: CcxtExchangeClientOptions): ExchangeClient {
  const caps = EXCHANGE_CAPABILITIES[options.exchange];
  const secrets = [options.apiKey, options.apiSecret, options.apiPassword ?? ''];
  if (caps.needsPassphrase && !options.apiPassword) {
    throw new ExchangeAdapterError('invalid_key', `${options.exchange} needs the API passphrase`);
  }
  if (options.isTestnet && !caps.hasTestnet) {
    throw new ExchangeAdapterError('invalid_key', `${options.exchange} has no testnet`);
  }
  const instance = buildCcxt(options, caps);
  const lean = options.leanRequests === false ? null : leanRequestsOf(instance, caps, options);
  const windows = new Map<string, RequestWindow>();
  if (caps.requestExpiry === 'expTime') addOkxExpiry(instance, windows);
  const ctx: CcxtClientContext = {
    options,
    caps,
    secrets,
    instance,
    lean,
    windows,
    sleep: options.sleep ?? realSleep,
    now: options.now ?? Date.now,
    policy: options.retryPolicy ?? DEFAULT_RETRY_POLICY,
    venue: `${caps.ccxtId}|${options.isTestnet ? 'testnet' : 'live'}|${options.urlsOverride ?? ''}`,
    marketsLoading: undefined,
    mustReloadMarkets: false,
  };
  shareTransport(ctx);

  return {
    exchange: options.exchange,
    loadMarkets: () => loadMarkets(ctx),
    marketFacts: async (symbol: string): Promise<MarketFacts> =>
      toMarketFacts(await marketOf(ctx, symbol), caps),
    fetchBalance: () => fetchBalance(ctx),
    fetchPositions: (symbols?: readonly string[]) => fetchPositions(ctx, symbols),
    setLeverage: (symbol: string, leverage: number) => setLeverage(ctx, symbol, leverage),
    createOrder: (request) => createOrder(ctx, request),
    fetchOrderByClientId: (symbol: string, clientOrderId: string) =>
      fetchOrderByClientId(ctx, symbol, clientOrderId),
    cancelOrder: (symbol: string, orderId: string) => cancelOrder(ctx, symbol, orderId),
    fetchOpenOrders: (symbol?: string) => fetchOpenOrders(ctx, symbol),
    fetchMyTrades: (symbol: string, sinceMs?: number) => fetchMyTrades(ctx, symbol, sinceMs),
    fetchOrderTrades: (symbol: string, exchangeOrderId: string) =>
      fetchOrderTrades(ctx, symbol, exchangeOrderId),
    checkPermissions: () => checkPermissions(ctx),
  };
}
