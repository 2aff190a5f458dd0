import type { Exchange } from '@quantsquare/contracts';
import type { Exchange as CcxtExchange } from 'ccxt';
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
  OrderNotSentError,
  type OrderRequest,
} from '../exchange-client.js';
import type { VenueBudget } from '../venue-budget.js';
import {
  isAmbiguousSend,
  isClockSkew,
  isDuplicateClientOrderId,
  isOrderNotFound,
  pinnedKindOf,
  redact,
  translateCcxtError,
} from './ccxt-errors.js';
import {
  addOkxExpiry,
  buildCcxt,
  type RequestWindow,
  retryAfterMsOf,
  timeDifferenceOf,
} from './ccxt-instance.js';
import {
  type Market,
  toBalances,
  toCcxtAmount,
  toExchangeOrder,
  toExchangeTrade,
  toMarketFacts,
  toPosition,
} from './ccxt-mapping.js';
import { isTriggerType, orderParams } from './ccxt-order-params.js';
import { readPermissions } from './ccxt-permissions.js';
import { adoptTransport, transportOf } from './ccxt-transport.js';
import { leanRequestsOf } from './lean-requests.js';
import type { CcxtMarketCache, LoadedMarkets } from './market-cache.js';
import {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  realSleep,
  type Sleep,
  withReadRetries,
} from './read-retry.js';

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
  /** The orders being created and their request windows, by client order id. */
  const windows = new Map<string, RequestWindow>();
  if (caps.requestExpiry === 'expTime') addOkxExpiry(instance, windows);
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  let marketsLoading: Promise<void> | undefined;
  let mustReloadMarkets = false;

  const translate = (error: unknown, action: string) =>
    translateCcxtError(error, {
      exchange: options.exchange,
      action,
      secrets,
      caps,
      retryAfterMs: retryAfterMsOf(instance),
    });

  /** One request, re-sent once after a clock re-sync if the exchange said our time is off. */
  async function withClockResync<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!isClockSkew(error, caps)) throw error;
      options.logger?.warn({ exchange: options.exchange, action }, 'clock skew; re-syncing');
      await instance.loadTimeDifference();
      return await run();
    }
  }

  /** A read (or idempotent write): translated, clock-resynced, retried with backoff. */
  function read<T>(action: string, run: () => Promise<T>): Promise<T> {
    return withReadRetries(
      async () => {
        try {
          return await withClockResync(action, run);
        } catch (error) {
          throw translate(error, action);
        }
      },
      policy,
      sleep,
    );
  }

  /** The venue a shared market list belongs to (the same endpoint, the same markets). */
  const venue = `${caps.ccxtId}|${options.isTestnet ? 'testnet' : 'live'}|${options.urlsOverride ?? ''}`;

  /** Sends through the venue's shared keep-alive pool once another client has loaded it. */
  function shareTransport(): void {
    const cache = options.marketCache;
    if (!cache) return;
    const shared = cache.transport(venue);
    if (shared) {
      adoptTransport(instance, shared);
      return;
    }
    const own = transportOf(instance);
    if (own) cache.keepTransport(venue, own);
  }
  shareTransport();

  /** This instance loads the venue's markets; the shared list is what it ends up holding. */
  async function ownLoad(): Promise<LoadedMarkets> {
    await instance.loadMarkets(mustReloadMarkets);
    // Its first request loaded its transport: the venue's other clients may send through it.
    shareTransport();
    return {
      markets: instance.markets as unknown as Record<string, unknown>,
      currencies: instance.currencies as unknown as Record<string, unknown> | undefined,
    };
  }

  function loadMarkets(): Promise<void> {
    if (!marketsLoading) {
      marketsLoading = read('load markets', async () => {
        try {
          const cache = options.marketCache;
          if (!cache || mustReloadMarkets) {
            await ownLoad();
            return;
          }
          const shared = await cache.get(venue, ownLoad);
          shareTransport();
          // Another instance's list: indexed here, so ccxt's own loadMarkets has nothing to fetch.
          if ((instance.markets as unknown) !== shared.markets) {
            instance.setMarkets(
              shared.markets as unknown as Parameters<CcxtExchange['setMarkets']>[0],
              shared.currencies as unknown as Parameters<CcxtExchange['setMarkets']>[1],
            );
          }
        } catch (error) {
          // ccxt keeps a failed load's promise; the next try must ask it to reload.
          mustReloadMarkets = true;
          throw error;
        }
      }).catch((error: unknown) => {
        marketsLoading = undefined;
        throw error;
      });
    }
    return marketsLoading;
  }

  async function marketOf(symbol: string): Promise<Market> {
    await loadMarkets();
    const market = instance.markets?.[symbol];
    if (market?.swap !== true) {
      throw new ExchangeAdapterError(
        'invalid_order',
        `${options.exchange}: no swap market ${symbol}`,
      );
    }
    return market;
  }

  const marketOfLoaded = (symbol: string): Market | undefined => instance.markets?.[symbol];

  /** One book's answer for a client order id: regular orders, or trigger (algo) orders. */
  async function lookUp(
    market: Market,
    clientOrderId: string,
    isTrigger: boolean,
  ): Promise<ExchangeOrder | null> {
    const params = isTrigger
      ? { ...caps.triggerBook.lookupParams, clientOrderId }
      : { clientOrderId };
    const order = await read('fetch order', async () => {
      try {
        if (lean && !isTrigger) return await lean.fetchOrderByClientId(market, clientOrderId);
        return await instance.fetchOrder('', market.symbol, params);
      } catch (error) {
        if (isOrderNotFound(error, caps)) return null;
        throw error;
      }
    });
    return order === null ? null : toExchangeOrder(order, market, caps, now());
  }

  async function fetchOrderByClientId(
    symbol: string,
    clientOrderId: string,
  ): Promise<ExchangeOrder | null> {
    const market = await marketOf(symbol);
    return (
      (await lookUp(market, clientOrderId, false)) ?? (await lookUp(market, clientOrderId, true))
    );
  }

  async function lookUpAfter(
    request: OrderRequest,
    reason: string,
    cause: unknown,
  ): Promise<ExchangeOrder> {
    options.logger?.warn(
      {
        exchange: options.exchange,
        clientOrderId: request.clientOrderId,
        reason: redact(cause instanceof Error ? cause.message : String(cause), secrets),
      },
      `create order: ${reason}; looking the order up by client id`,
    );
    let found: ExchangeOrder | null = null;
    try {
      const market = await marketOf(request.symbol);
      found = await lookUp(market, request.clientOrderId, isTriggerType(request.type));
    } catch (lookupError) {
      const detail = lookupError instanceof Error ? lookupError.message : String(lookupError);
      throw new ExchangeAdapterError(
        'unknown_outcome',
        redact(
          `${options.exchange} create order ${request.clientOrderId}: ${reason}; lookup failed: ${detail}`,
          secrets,
        ),
      );
    }
    if (found) return found;
    throw new ExchangeAdapterError(
      'unknown_outcome',
      `${options.exchange} create order ${request.clientOrderId}: ${reason}; not found by client id`,
    );
  }

  /** A fee currency's USDT price (its swap's last price on the venue); undefined where none. */
  async function feeCurrencyPrice(currency: string): Promise<number | undefined> {
    const symbol = `${currency}/USDT:USDT`;
    if (!instance.markets?.[symbol]) return undefined;
    try {
      const ticker = await read('fetch fee currency price', () => instance.fetchTicker(symbol));
      const price = ticker.last ?? ticker.close;
      return typeof price === 'number' && price > 0 ? price : undefined;
    } catch (error) {
      options.logger?.warn(
        {
          exchange: options.exchange,
          currency,
          reason: error instanceof Error ? error.message : String(error),
        },
        'fee currency price unavailable; the fee is kept in its own currency',
      );
      return undefined;
    }
  }

  async function createOrder(request: OrderRequest): Promise<ExchangeOrder> {
    if (!caps.clientOrderId.pattern.test(request.clientOrderId)) {
      throw new ExchangeAdapterError(
        'invalid_order',
        `${options.exchange}: client order id must match ${caps.clientOrderId.pattern.source}`,
      );
    }
    const window =
      request.expiresAtMs === undefined
        ? undefined
        : { claimedAtMs: request.claimedAtMs ?? now(), expiresAtMs: request.expiresAtMs };
    const params: Record<string, unknown> = orderParams(request, caps, options.positionMode);
    const market = await marketOf(request.symbol);
    const amount = toCcxtAmount(request.amount, market, caps);
    const ccxtType = request.type === 'limit' ? 'limit' : 'market';
    // The last check before the request: past its deadline the order is not sent at all.
    const lateByMs = request.sendBy === undefined ? 0 : performance.now() - request.sendBy;
    if (lateByMs > 0) throw new OrderNotSentError(request.clientOrderId, lateByMs);
    if (window) windows.set(request.clientOrderId, window);
    const send = () => {
      if (lean && !isTriggerType(request.type)) {
        const hedgeSide = params[caps.hedgeParam.name];
        return lean.createOrder(market, {
          side: request.side,
          type: ccxtType,
          amount,
          price: request.price,
          timeInForce: request.timeInForce,
          clientOrderId: request.clientOrderId,
          hedgeSide: hedgeSide === undefined ? undefined : String(hedgeSide),
          reduceOnly: params.reduceOnly === true,
          window,
        });
      }
      if (window && caps.requestExpiry === 'recvWindow') {
        // The request carries the claim's time: Binance refuses it past timestamp + recvWindow.
        params.timestamp = Math.floor(window.claimedAtMs - timeDifferenceOf(instance));
        params.recvWindow = Math.max(1, Math.floor(window.expiresAtMs - window.claimedAtMs));
      }
      return instance.createOrder(
        market.symbol,
        ccxtType,
        request.side,
        amount,
        request.price,
        params,
      );
    };
    let order: Awaited<ReturnType<CcxtExchange['createOrder']>>;
    try {
      order = await withClockResync('create order', async () => {
        try {
          return await send();
        } catch (error) {
          // The venue refused a request that arrived after its own expiry: nothing exists.
          if (window && isClockSkew(error, caps) && now() > window.expiresAtMs) {
            throw new OrderNotSentError(request.clientOrderId, now() - window.expiresAtMs);
          }
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof OrderNotSentError) throw error;
      if (isDuplicateClientOrderId(error, caps)) {
        return lookUpAfter(request, 'client order id already used', error);
      }
      if (pinnedKindOf(error, caps) === undefined && isAmbiguousSend(error))
        return lookUpAfter(request, 'outcome unknown', error);
      throw translate(error, 'create order');
    } finally {
      windows.delete(request.clientOrderId);
    }
    return toExchangeOrder(order, market, caps, now(), {
      clientOrderId: request.clientOrderId,
      side: request.side,
      type: request.type,
      amount: request.amount,
      reduceOnly: request.reduceOnly ?? false,
    });
  }

  return {
    exchange: options.exchange,
    loadMarkets,
    async marketFacts(symbol: string): Promise<MarketFacts> {
      return toMarketFacts(await marketOf(symbol), caps);
    },
    async fetchBalance(): Promise<Balances> {
      await loadMarkets();
      return toBalances(await read('fetch balance', () => instance.fetchBalance()));
    },
    async fetchPositions(symbols?: readonly string[]): Promise<ExchangePosition[]> {
      const wanted = symbols ? await Promise.all(symbols.map(marketOf)) : undefined;
      const positions = await read('fetch positions', () =>
        instance.fetchPositions(wanted?.map((market) => market.symbol)),
      );
      const out: ExchangePosition[] = [];
      for (const position of positions) {
        const market = position.symbol ? marketOfLoaded(position.symbol) : undefined;
        const mapped = market ? toPosition(position, market, caps) : null;
        if (mapped) out.push(mapped);
      }
      return out;
    },
    async setLeverage(symbol: string, leverage: number): Promise<void> {
      const market = await marketOf(symbol);
      await read('set leverage', () =>
        instance.setLeverage(leverage, market.symbol, { ...caps.leverageParams }),
      );
    },
    createOrder,
    fetchOrderByClientId,
    async cancelOrder(symbol: string, orderId: string): Promise<void> {
      const market = await marketOf(symbol);
      // Cancelling twice is harmless, so a cancel retries like a read. An id unknown to the
      // regular book may be a trigger order's.
      await read('cancel order', async () => {
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
    },
    async fetchOpenOrders(symbol?: string): Promise<ExchangeOrder[]> {
      const market = symbol ? await marketOf(symbol) : undefined;
      if (!market) await loadMarkets();
      const regular = await read('fetch open orders', () =>
        instance.fetchOpenOrders(market?.symbol),
      );
      const triggers = await read('fetch open trigger orders', () =>
        instance.fetchOpenOrders(market?.symbol, undefined, undefined, {
          ...caps.triggerBook.listParams,
        }),
      );
      const orders = [...regular, ...triggers];
      const out: ExchangeOrder[] = [];
      for (const order of orders) {
        const orderMarket = order.symbol ? marketOfLoaded(order.symbol) : undefined;
        if (orderMarket) out.push(toExchangeOrder(order, orderMarket, caps, now()));
      }
      return out;
    },
    async fetchMyTrades(symbol: string, sinceMs?: number): Promise<ExchangeTrade[]> {
      const market = await marketOf(symbol);
      const trades = await read('fetch trades', () =>
        instance.fetchMyTrades(market.symbol, sinceMs),
      );
      return trades.map((trade) => toExchangeTrade(trade, market, caps));
    },
    async fetchOrderTrades(symbol: string, exchangeOrderId: string) {
      const market = await marketOf(symbol);
      const trades = await read('fetch order trades', () =>
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
          prices.set(currency, await feeCurrencyPrice(currency));
      }
      return own.map((trade) => toExchangeTrade(trade, market, caps, (c) => prices.get(c)));
    },
    async checkPermissions(): Promise<KeyPermissions> {
      await loadMarkets();
      return read('check permissions', () => readPermissions(instance, caps));
    },
  };
}
