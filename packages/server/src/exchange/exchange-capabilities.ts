import type { Exchange } from '@quantsquare/contracts';
import type { ExchangeErrorKind, PositionSide } from './exchange-client.js';

// Venue differences as data (STYLE 6): everything the ccxt adapter does differently per exchange
// is read from this table, never from `if (exchange === 'okx')`.

export type PositionMode = 'hedge' | 'net';

/** How the exchange names and limits our idempotency key. */
export interface ClientOrderIdRule {
  /** The exchange's own parameter name (ccxt takes the unified `clientOrderId` and maps it). */
  readonly exchangeParam: string;
  readonly maxLength: number;
  readonly pattern: RegExp;
}

/** Where to read what a key may do. */
export type PermissionSource =
  /** No futures-side endpoint says it: validate the key with a signed read, answer null (unknown). */
  | 'validate-only'
  /** OKX GET /api/v5/account/config: `perm` ("read_only,trade,withdraw") and `ip`. */
  | 'okx-account-config';

/** At most `limit` new orders per account in any `windowMs` (the exchange's own rule). */
/** A venue's request weight allowed per address (IP) and window, whatever the account. */
export interface RequestWeightLimit {
  readonly weight: number;
  readonly windowMs: number;
}

export interface OrderRateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface ExchangeCapabilities {
  /** ccxt class id. */
  readonly ccxtId: 'binanceusdm' | 'okx';
  /** ccxt constructor options (merged over ccxt's own). */
  readonly ccxtOptions: Readonly<Record<string, unknown>>;
  /** ccxt `has` overrides: fetchCurrencies off so loading markets makes no spot/asset call. */
  readonly ccxtHas: Readonly<Record<string, boolean>>;
  /** ccxt `urls.api` keys to point at a stand-in (tests): key → path below the base URL. */
  readonly apiUrlPaths: Readonly<Record<string, string>>;
  readonly needsPassphrase: boolean;
  /** ccxt setSandboxMode(true) reaches the exchange's testnet / demo trading. */
  readonly hasTestnet: boolean;
  readonly clientOrderId: ClientOrderIdRule;
  /** The trades query's parameter that narrows it to one order (the venue's order id). */
  readonly orderTradesParam: string;
  /**
   * How an order request carries its own expiry, so the venue refuses it when it arrives late:
   * `recvWindow` (Binance: the request's timestamp plus a window) or `expTime` (OKX: a header).
   */
  readonly requestExpiry: 'recvWindow' | 'expTime';
  /** ccxt amounts are contracts (×contractSize = base quantity); callers always speak base. */
  readonly amountsInContracts: boolean;
  /** Hedge-mode order parameter: name and the values for our long/short. */
  readonly hedgeParam: { readonly name: string; readonly values: Record<PositionSide, string> };
  /** Whether `reduceOnly` may be sent in hedge mode (both refuse it: the side already says it). */
  readonly isReduceOnlyAllowedInHedgeMode: boolean;
  /** Extra parameters of setLeverage. */
  readonly leverageParams: Readonly<Record<string, string>>;
  readonly permissionSource: PermissionSource;
  /**
   * Per-account order limits; the execution core keeps every account under all of them (with
   * a margin), so no order is refused for its rate.
   */
  readonly orderRateLimits: readonly OrderRateLimit[];
  /**
   * The request weight the venue allows one address (IP), all accounts together; ccxt's cost
   * of a call is its weight. Shared by the deployment's processes (venue-budget.ts). Absent
   * where the venue's limits are per account or instrument (OKX's private endpoints).
   */
  readonly requestWeightPerAddress?: RequestWeightLimit;
  /** Exchange error codes meaning "an order with this client id exists": the earlier send landed. */
  readonly duplicateClientOrderIdCodes: readonly string[];
  /** Exchange error codes meaning "your timestamp is off": re-sync the clock, resend once. */
  readonly clockSkewCodes: readonly string[];
  /**
   * Exchange error codes whose kind we pin, whatever ccxt's class: ccxt picks Binance's futures
   * error table by hostname, so behind a proxy or a stand-in it falls back to the spot table.
   */
  readonly errorCodeKinds: Readonly<Record<string, ExchangeErrorKind>>;
  /** Exchange error codes meaning "no such order" (a lookup answers null, a cancel tries on). */
  readonly orderNotFoundCodes: readonly string[];
  /**
   * Trigger orders (stop/take-profit market) live in a separate book (Binance algo orders, OKX
   * algo orders): ccxt params that reach it when looking up or cancelling, and when listing.
   */
  readonly triggerBook: {
    /** Our client order id under the algo book's own name, where ccxt does not map it. */
    readonly clientOrderIdParam: string | null;
    readonly lookupParams: Readonly<Record<string, string | boolean>>;
    readonly listParams: Readonly<Record<string, string | boolean>>;
  };
}

export const EXCHANGE_CAPABILITIES: Readonly<Record<Exchange, ExchangeCapabilities>> = {
  binance: {
    ccxtId: 'binanceusdm',
    ccxtOptions: {
      defaultType: 'swap',
      defaultSubType: 'linear',
      fetchMarkets: { types: ['linear'] },
      fetchCurrencies: false,
      // We re-sync on a -1021 answer instead of an extra /time call at every markets load.
      adjustForTimeDifference: false,
      warnOnFetchOpenOrdersWithoutSymbol: false,
    },
    ccxtHas: { fetchCurrencies: false },
    apiUrlPaths: {
      fapiPublic: '/fapi/v1',
      fapiPublicV2: '/fapi/v2',
      fapiPublicV3: '/fapi/v3',
      fapiPrivate: '/fapi/v1',
      fapiPrivateV2: '/fapi/v2',
      fapiPrivateV3: '/fapi/v3',
      fapiData: '/futures/data',
    },
    needsPassphrase: false,
    hasTestnet: true,
    orderTradesParam: 'orderId',
    requestExpiry: 'recvWindow',
    clientOrderId: {
      exchangeParam: 'newClientOrderId',
      maxLength: 36,
      pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/,
    },
    amountsInContracts: false,
    hedgeParam: { name: 'positionSide', values: { long: 'LONG', short: 'SHORT' } },
    isReduceOnlyAllowedInHedgeMode: false,
    leverageParams: {},
    // GET /sapi/v1/account/apiRestrictions is a spot endpoint; we make no sapi calls.
    permissionSource: 'validate-only',
    // USDⓈ-M futures: 300 orders per 10 s and 1,200 per minute per account.
    orderRateLimits: [
      { limit: 300, windowMs: 10_000 },
      { limit: 1_200, windowMs: 60_000 },
    ],
    // REQUEST_WEIGHT: 2,400 a minute per IP (GET /fapi/v1/exchangeInfo rateLimits).
    requestWeightPerAddress: { weight: 2_400, windowMs: 60_000 },
    // -4116 DUPLICATED_CLIENT_ORDER_ID. (-4015 is "client order id is not valid": invalid_order.)
    duplicateClientOrderIdCodes: ['-4116'],
    clockSkewCodes: ['-1021'],
    errorCodeKinds: {
      '-1003': 'rate_limited', // too many requests
      '-1015': 'rate_limited', // too many new orders
      '-1022': 'invalid_key', // signature not valid
      '-2014': 'invalid_key', // API-key format invalid
      '-2015': 'invalid_key', // invalid key, IP or permissions
      '-2018': 'insufficient_funds', // balance insufficient
      '-2019': 'insufficient_funds', // margin insufficient
      '-2022': 'invalid_order', // reduce-only order rejected
      '-4003': 'invalid_order', // quantity less than zero
      '-4015': 'invalid_order', // client order id not valid
      '-4061': 'invalid_order', // position side does not match the account's mode
      '-4164': 'invalid_order', // notional below the minimum
    },
    // -2011 unknown order (cancel), -2013 order does not exist (query).
    orderNotFoundCodes: ['-2011', '-2013'],
    // ccxt sends our id as clientAlgoId itself.
    triggerBook: {
      clientOrderIdParam: null,
      lookupParams: { trigger: true },
      listParams: { trigger: true },
    },
  },
  okx: {
    ccxtId: 'okx',
    ccxtOptions: {
      defaultType: 'swap',
      fetchMarkets: { types: ['swap'] },
      // ccxt's default is the batch endpoint; one order is one POST /trade/order.
      createOrder: 'privatePostTradeOrder',
      defaultMarginMode: 'cross',
      adjustForTimeDifference: false,
    },
    ccxtHas: { fetchCurrencies: false },
    apiUrlPaths: { rest: '' },
    needsPassphrase: true,
    hasTestnet: true,
    orderTradesParam: 'ordId',
    requestExpiry: 'expTime',
    clientOrderId: { exchangeParam: 'clOrdId', maxLength: 32, pattern: /^[A-Za-z0-9]{1,32}$/ },
    amountsInContracts: true,
    hedgeParam: { name: 'posSide', values: { long: 'long', short: 'short' } },
    isReduceOnlyAllowedInHedgeMode: false,
    leverageParams: { mgnMode: 'cross' },
    permissionSource: 'okx-account-config',
    // POST /trade/order: 60 requests per 2 s per user and instrument.
    orderRateLimits: [{ limit: 60, windowMs: 2_000 }],
    duplicateClientOrderIdCodes: ['51016'],
    clockSkewCodes: ['50102'],
    // ccxt's okx table does not depend on the host: nothing to pin.
    errorCodeKinds: {},
    // 51400 cancel: no such order; 51603 query: no such order.
    orderNotFoundCodes: ['51400', '51603'],
    // Our stop/take-profit orders are OKX "conditional" algo orders.
    // ccxt sends only clOrdId to order-algo; the algo book keys on algoClOrdId.
    triggerBook: {
      clientOrderIdParam: 'algoClOrdId',
      lookupParams: { trigger: true },
      listParams: { trigger: true, ordType: 'conditional' },
    },
  },
};
