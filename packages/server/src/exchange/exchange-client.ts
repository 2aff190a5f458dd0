// The one interface every service and worker uses to talk to an exchange account: the ccxt
// implementation (binance USDⓈ-M, okx swaps, testnet) and the paper implementation (simulated
// fills on the market feed, resting orders triggered by it) both implement it, and nothing that
// uses it can tell them apart. Amounts are always BASE-ASSET quantities (the ccxt implementation
// converts OKX contracts); prices in quote (USDT).
import type { Exchange } from '@quantsquare/contracts';

export type OrderSide = 'buy' | 'sell';
export type PositionSide = 'long' | 'short';
export type OrderType = 'market' | 'limit' | 'stop_market' | 'take_profit_market';
export type OrderStatus = 'open' | 'closed' | 'canceled' | 'rejected';

/** Trading facts of one market, in base-asset quantity and quote price. */
export interface MarketFacts {
  readonly symbol: string;
  /** Base-asset quantity of one contract (1 for Binance linear swaps). */
  readonly contractSize: number;
  /** Smallest base-asset quantity step. */
  readonly amountStep: number;
  /** Smallest price step. */
  readonly priceStep: number;
  /** Smallest order quantity (base asset); 0 when the exchange sets none. */
  readonly minAmount: number;
  /** Smallest order value in quote; 0 when the exchange sets none. */
  readonly minNotional: number;
  readonly maxLeverage: number | null;
}

export interface CurrencyBalance {
  readonly total: number;
  readonly free: number;
  readonly used: number;
}
/** Balances by currency code, e.g. { USDT: { total, free, used } }. */
export type Balances = Readonly<Record<string, CurrencyBalance>>;

export interface ExchangePosition {
  readonly symbol: string;
  readonly side: PositionSide;
  /** Base-asset quantity, positive. */
  readonly amount: number;
  readonly entryPrice: number;
  readonly markPrice: number | null;
  readonly unrealizedPnl: number;
  readonly leverage: number | null;
}

export interface OrderRequest {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Base-asset quantity. */
  readonly amount: number;
  /** Limit price (type limit); for an IOC order, the worst price it may fill at. */
  readonly price?: number;
  /**
   * Limit orders only: GTC rests until filled or cancelled (the default); IOC fills what it
   * can at once at the limit or better and cancels the rest (a marketable limit with a cap).
   */
  readonly timeInForce?: 'GTC' | 'IOC';
  /** Trigger price (stop_market, take_profit_market). */
  readonly triggerPrice?: number;
  readonly reduceOnly?: boolean;
  /** Which side of a hedge-mode account the order belongs to; omitted in one-way mode. */
  readonly positionSide?: PositionSide;
  /** Our idempotency key: the exchange refuses a second order with the same id. */
  readonly clientOrderId: string;
  /**
   * The last moment (`performance.now()`) the order's request may still be written. A client
   * that talks to an exchange checks it right before the write, after its own waits (rate
   * limiter, market load, clock re-sync), and throws OrderNotSentError past it.
   */
  readonly sendBy?: number;
  /**
   * When the venue must refuse the request however late it arrives (wall-clock ms): sent as the
   * venue's own expiry (Binance `timestamp` = `claimedAtMs` with `recvWindow`; OKX `expTime`).
   */
  readonly expiresAtMs?: number;
  /** When the order was claimed for sending (wall-clock ms): the request's own time. */
  readonly claimedAtMs?: number;
}

export interface ExchangeOrder {
  readonly id: string;
  readonly clientOrderId: string | null;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly status: OrderStatus;
  /** Base-asset quantities. */
  readonly amount: number;
  readonly filled: number;
  readonly averagePrice: number | null;
  readonly reduceOnly: boolean;
  /** Fee paid in quote (USDT). */
  readonly fee: number;
  /** When the order was placed (ms). */
  readonly timestamp: number;
  /** When it (last) filled, where the exchange says; a resting order fills long after placing. */
  readonly filledAtMs?: number | null;
}

export interface ExchangeTrade {
  readonly id: string;
  readonly orderId: string | null;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly amount: number;
  readonly price: number;
  /** The fee's value in quote (USDT). */
  readonly fee: number;
  /** The fee as charged, in its own currency (USDT, BNB, OKB, the base asset). */
  readonly feeCost: number;
  readonly feeCurrency: string;
  readonly timestamp: number;
}

/** What the exchange says about the key; null where it says nothing. */
export interface KeyPermissions {
  readonly canTrade: boolean | null;
  readonly canWithdraw: boolean | null;
  readonly ipRestricted: boolean | null;
}

export interface ExchangeClient {
  readonly exchange: Exchange;
  /** Loads markets once; later calls reuse them. */
  loadMarkets(): Promise<void>;
  marketFacts(symbol: string): Promise<MarketFacts>;
  fetchBalance(): Promise<Balances>;
  fetchPositions(symbols?: readonly string[]): Promise<ExchangePosition[]>;
  setLeverage(symbol: string, leverage: number): Promise<void>;
  /**
   * Sends one order. Never retried blindly: after a timeout or 5xx the implementation looks the
   * order up by client order id and answers it if found, else throws ExchangeUnknownOutcome.
   */
  createOrder(request: OrderRequest): Promise<ExchangeOrder>;
  fetchOrderByClientId(symbol: string, clientOrderId: string): Promise<ExchangeOrder | null>;
  cancelOrder(symbol: string, orderId: string): Promise<void>;
  fetchOpenOrders(symbol?: string): Promise<ExchangeOrder[]>;
  fetchMyTrades(symbol: string, sinceMs?: number): Promise<ExchangeTrade[]>;
  /**
   * The venue's trades of one order (one per fill, each at its own price and fee), or null where
   * the venue keeps no per-trade detail (paper: an order fills at one price).
   */
  fetchOrderTrades(symbol: string, exchangeOrderId: string): Promise<ExchangeTrade[] | null>;
  checkPermissions(): Promise<KeyPermissions>;
}

/**
 * Adapter errors: foreign (ccxt) errors translated at the boundary into this small set. Each
 * says what the caller does.
 */
export type ExchangeErrorKind =
  /** Key wrong, expired or lacking a permission: tell the user; do not retry. */
  | 'invalid_key'
  /** Not enough margin: tell the user / mark the bot error; do not retry. */
  | 'insufficient_funds'
  /** The exchange refused the order as given (size, price, symbol, reduce-only…): do not retry. */
  | 'invalid_order'
  /** Too many requests: retry after `retryAfterMs`. */
  | 'rate_limited'
  /** Network, timeout, maintenance or 5xx on a read: retry later with backoff. */
  | 'unavailable'
  /** An order may or may not exist (timeout and the lookup failed too): reconcile, never resend. */
  | 'unknown_outcome';

export class ExchangeAdapterError extends Error {
  constructor(
    readonly kind: ExchangeErrorKind,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ExchangeAdapterError';
  }

  /** The failure passes by itself (unavailable, rate-limited): worth another try later. */
  get isRetryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'rate_limited';
  }
}

/** An order whose request was not written: its `sendBy` had passed. Nothing is at the exchange. */
export class OrderNotSentError extends Error {
  constructor(
    readonly clientOrderId: string,
    readonly lateByMs: number,
  ) {
    super(
      `order ${clientOrderId} not sent: its send deadline passed ${Math.round(lateByMs)} ms before the request`,
    );
    this.name = 'OrderNotSentError';
  }
}
