import type { RouteAnswer, RouteRequest } from './fake-exchange-private.js';
import {
  FAKE_PRICES,
  type FakeFill,
  type FakeOrder,
  type FakeState,
  findByClientOrderId,
  isCancellable,
  isVisible,
  orderNamed,
  ordersOfKey,
  placeOrder,
  positionsOf,
  reducesPosition,
} from './fake-order-book.js';
import { FEE_COIN_PRICES_USDT } from './fake-venue-behaviour.js';

// Binance USDⓈ-M (fapi) as ccxt's binanceusdm calls it. Quantities are base asset.

const PUBLIC_PATHS = new Set(['/fapi/v1/exchangeInfo', '/fapi/v1/time', '/fapi/v1/ticker/24hr']);
const RECV_WINDOW_MS = 10_000;
/** Binance's recvWindow when a request sends none, and how far ahead a timestamp may be. */
const DEFAULT_RECV_WINDOW_MS = 5_000;
const AHEAD_LIMIT_MS = 1_000;

const MARKETS = [
  { base: 'BTC', tickSize: '0.10', stepSize: '0.001', minQty: '0.001', notional: '100' },
  { base: 'ETH', tickSize: '0.01', stepSize: '0.001', minQty: '0.001', notional: '20' },
  // The fee coins' swaps (BNB, OKB), with a ticker at FEE_COIN_PRICES_USDT, so that a fee
  // charged in one is valued in USDT as on the venue. Not traded here.
  ...Object.keys(FEE_COIN_PRICES_USDT).map((base) => ({
    base,
    tickSize: '0.01',
    stepSize: '0.01',
    minQty: '0.01',
    notional: '5',
  })),
];

const ok = (body: unknown): RouteAnswer => ({ status: 200, body });
const fail = (status: number, code: number, msg: string): RouteAnswer => ({
  status,
  body: { code, msg },
});

const baseOf = (symbol: string | undefined) => (symbol ?? '').replace(/USDT$/, '');

/** The last price of a listed market: the traded ones at their mark, the fee coins at theirs. */
const lastPriceOf = (base: string): number | undefined =>
  FAKE_PRICES[base] ?? FEE_COIN_PRICES_USDT[base];

function ticker24hr(symbol: string | undefined, nowMs: number): RouteAnswer {
  const last = lastPriceOf(baseOf(symbol));
  if (symbol === undefined || last === undefined) return fail(400, -1121, 'Invalid symbol.');
  const px = String(last);
  return ok({
    symbol,
    priceChange: '0',
    priceChangePercent: '0',
    weightedAvgPrice: px,
    lastPrice: px,
    lastQty: '1',
    openPrice: px,
    highPrice: px,
    lowPrice: px,
    volume: '0',
    quoteVolume: '0',
    openTime: nowMs - 86_400_000,
    closeTime: nowMs,
    firstId: 0,
    lastId: 0,
    count: 0,
  });
}

function exchangeInfo(nowMs: number) {
  return {
    timezone: 'UTC',
    serverTime: nowMs,
    rateLimits: [],
    assets: [],
    symbols: MARKETS.map((m) => ({
      symbol: `${m.base}USDT`,
      pair: `${m.base}USDT`,
      contractType: 'PERPETUAL',
      deliveryDate: 4133404800000,
      onboardDate: 1569398400000,
      status: 'TRADING',
      baseAsset: m.base,
      quoteAsset: 'USDT',
      marginAsset: 'USDT',
      pricePrecision: 2,
      quantityPrecision: 3,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      underlyingType: 'COIN',
      triggerProtect: '0.0500',
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: m.tickSize },
        { filterType: 'LOT_SIZE', minQty: m.minQty, maxQty: '10000', stepSize: m.stepSize },
        { filterType: 'MARKET_LOT_SIZE', minQty: m.minQty, maxQty: '1000', stepSize: m.stepSize },
        { filterType: 'MIN_NOTIONAL', notional: m.notional },
      ],
      orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT_MARKET'],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
    })),
  };
}

function orderStatus(order: FakeOrder): string {
  if (order.status === 'open') return order.filled > 0 ? 'PARTIALLY_FILLED' : 'NEW';
  if (order.status === 'filled') return 'FILLED';
  // An IOC's unfilled rest expires (whether or not part of it filled).
  return order.timeInForce === 'IOC' && order.type === 'limit' ? 'EXPIRED' : 'CANCELED';
}

function orderBody(order: FakeOrder) {
  const cumQuote = order.fills.reduce((sum, fill) => sum + fill.size * fill.price, 0);
  return {
    orderId: Number(order.id),
    symbol: `${order.base}USDT`,
    status: orderStatus(order),
    clientOrderId: order.clientOrderId,
    price: String(order.price ?? 0),
    avgPrice: String(order.averagePrice ?? 0),
    origQty: String(order.size),
    executedQty: String(order.filled),
    cumQty: String(order.filled),
    cumQuote: String(Number(cumQuote.toFixed(8))),
    timeInForce: order.timeInForce,
    type: order.type.toUpperCase(),
    reduceOnly: order.reduceOnly,
    closePosition: false,
    side: order.side.toUpperCase(),
    positionSide: order.positionSide,
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    origType: order.type.toUpperCase(),
    priceMatch: 'NONE',
    selfTradePreventionMode: 'NONE',
    goodTillDate: 0,
    time: order.timestampMs,
    updateTime: order.fills.at(-1)?.timestampMs ?? order.timestampMs,
  };
}

function tradeRow(order: FakeOrder, fill: FakeFill) {
  return {
    symbol: `${order.base}USDT`,
    id: Number(fill.tradeId),
    orderId: Number(order.id),
    side: order.side.toUpperCase(),
    price: String(fill.price),
    qty: String(fill.size),
    realizedPnl: '0',
    marginAsset: 'USDT',
    quoteQty: String(Number((fill.size * fill.price).toFixed(8))),
    commission: String(fill.fee),
    commissionAsset: fill.feeAsset,
    time: fill.timestampMs,
    positionSide: order.positionSide,
    buyer: order.side === 'buy',
    maker: false,
  };
}

function findOrder(state: FakeState, params: Readonly<Record<string, string>>) {
  return orderNamed(state, { clientOrderId: params.origClientOrderId, id: params.orderId }, false);
}

function findAlgoOrder(state: FakeState, params: Readonly<Record<string, string>>) {
  return orderNamed(state, { clientOrderId: params.clientAlgoId, id: params.algoId }, true);
}

/** Conditional orders (Binance's algo service since 2025-12). */
function algoBody(order: FakeOrder) {
  return {
    algoId: Number(order.id),
    clientAlgoId: order.clientOrderId,
    algoType: 'CONDITIONAL',
    orderType: order.type === 'market' ? 'STOP_MARKET' : 'STOP',
    symbol: `${order.base}USDT`,
    side: order.side.toUpperCase(),
    positionSide: order.positionSide,
    timeInForce: 'GTC',
    quantity: String(order.size),
    algoStatus: { open: 'NEW', filled: 'FINISHED', canceled: 'CANCELED' }[order.status],
    triggerPrice: String(order.triggerPrice),
    price: '0',
    workingType: 'CONTRACT_PRICE',
    closePosition: false,
    priceProtect: false,
    reduceOnly: order.reduceOnly,
    createTime: order.timestampMs,
    updateTime: order.timestampMs,
    triggerTime: 0,
    goodTillDate: 0,
  };
}

function account(state: FakeState, nowMs: number) {
  const { total, free, used } = state.balance;
  return {
    totalInitialMargin: String(used),
    totalWalletBalance: String(total),
    totalMarginBalance: String(total),
    availableBalance: String(free),
    maxWithdrawAmount: String(free),
    canTrade: true,
    canWithdraw: true,
    assets: [
      {
        asset: 'USDT',
        walletBalance: String(total),
        unrealizedProfit: '0',
        marginBalance: String(total),
        maintMargin: '0',
        initialMargin: String(used),
        positionInitialMargin: String(used),
        openOrderInitialMargin: '0',
        crossWalletBalance: String(total),
        crossUnPnl: '0',
        availableBalance: String(free),
        maxWithdrawAmount: String(free),
        updateTime: nowMs,
      },
    ],
    positions: [],
  };
}

function positionRisk(state: FakeState, apiKey: string) {
  return positionsOf(state, apiKey).map((p) => ({
    symbol: `${p.base}USDT`,
    positionSide: 'BOTH',
    positionAmt: String(p.side === 'long' ? p.size : -p.size),
    entryPrice: String(p.entryPrice),
    breakEvenPrice: String(p.entryPrice),
    markPrice: String(p.markPrice),
    unRealizedProfit: String(p.unrealizedPnl),
    liquidationPrice: '0',
    isolatedMargin: '0',
    notional: String((p.side === 'long' ? 1 : -1) * p.size * p.markPrice),
    marginAsset: 'USDT',
    isolatedWallet: '0',
    initialMargin: String((p.size * p.markPrice) / p.leverage),
    maintMargin: '0',
    positionInitialMargin: '0',
    openOrderInitialMargin: '0',
    adl: 0,
    bidNotional: '0',
    askNotional: '0',
    leverage: String(p.leverage),
    marginType: 'cross',
    updateTime: 0,
  }));
}

export function binanceRoutes(request: RouteRequest, state: FakeState): RouteAnswer {
  const { method, path, params, nowMs } = request;
  if (!PUBLIC_PATHS.has(path)) {
    if (!request.headers['x-mbx-apikey'] || !params.signature) {
      return fail(401, -2014, 'API-key format invalid.');
    }
    if (state.behaviour.enforcesRequestExpiry) {
      // Binance's rule, checked when the request is processed (a held one ages).
      const sentMs = Number(params.timestamp);
      const windowMs = Number(params.recvWindow ?? DEFAULT_RECV_WINDOW_MS);
      if (sentMs > nowMs + AHEAD_LIMIT_MS || nowMs - sentMs > windowMs) {
        return fail(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
      }
    } else if (Math.abs(Number(params.timestamp) - nowMs) > RECV_WINDOW_MS) {
      return fail(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
  }
  const route = `${method} ${path}`;
  switch (route) {
    case 'GET /fapi/v1/exchangeInfo':
      return ok(exchangeInfo(nowMs));
    case 'GET /fapi/v1/time':
      return ok({ serverTime: nowMs });
    case 'GET /fapi/v1/ticker/24hr':
      return ticker24hr(params.symbol, nowMs);
    case 'GET /fapi/v2/account':
    case 'GET /fapi/v3/account':
      return ok(account(state, nowMs));
    case 'GET /fapi/v2/positionRisk':
    case 'GET /fapi/v3/positionRisk':
      return ok(positionRisk(state, request.apiKey));
    case 'GET /fapi/v1/leverageBracket':
      return ok(
        ['BTC', 'ETH'].map((base) => ({
          symbol: `${base}USDT`,
          brackets: [
            {
              bracket: 1,
              initialLeverage: 125,
              notionalCap: 50_000,
              notionalFloor: 0,
              maintMarginRatio: 0.004,
              cum: 0,
            },
          ],
        })),
      );
    case 'POST /fapi/v1/leverage':
      state.leverage[baseOf(params.symbol)] = Number(params.leverage);
      return ok({
        leverage: Number(params.leverage),
        maxNotionalValue: '1000000',
        symbol: params.symbol,
      });
    case 'POST /fapi/v1/order': {
      const clientOrderId = params.newClientOrderId ?? '';
      if (findByClientOrderId(state, clientOrderId) !== undefined) {
        return fail(400, -4116, 'ClientOrderId is duplicated.');
      }
      const type = params.type === 'LIMIT' ? 'limit' : 'market';
      const side = params.side === 'SELL' ? 'sell' : 'buy';
      if (
        params.reduceOnly === 'true' &&
        !reducesPosition(state, request.apiKey, baseOf(params.symbol), side)
      ) {
        return fail(400, -2022, 'ReduceOnly Order is rejected.');
      }
      const placed = placeOrder(state, {
        apiKey: request.apiKey,
        clientOrderId,
        base: baseOf(params.symbol),
        side,
        type,
        timeInForce: params.timeInForce === 'IOC' ? 'IOC' : 'GTC',
        size: Number(params.quantity),
        price: params.price ? Number(params.price) : null,
        triggerPrice: null,
        reduceOnly: params.reduceOnly === 'true',
        positionSide: params.positionSide ?? 'BOTH',
        timestampMs: nowMs,
      });
      return ok(orderBody(placed));
    }
    case 'GET /fapi/v1/order': {
      const found = findOrder(state, params);
      const order = found && isVisible(found, nowMs) ? found : undefined;
      return order ? ok(orderBody(order)) : fail(400, -2013, 'Order does not exist.');
    }
    case 'DELETE /fapi/v1/order': {
      const order = findOrder(state, params);
      if (!order || !isCancellable(order)) return fail(400, -2011, 'Unknown order sent.');
      order.status = 'canceled';
      return ok(orderBody(order));
    }
    case 'POST /fapi/v1/algoOrder': {
      const clientOrderId = params.clientAlgoId ?? '';
      if (findByClientOrderId(state, clientOrderId) !== undefined) {
        return fail(400, -4116, 'ClientOrderId is duplicated.');
      }
      const placed = placeOrder(state, {
        apiKey: request.apiKey,
        clientOrderId,
        base: baseOf(params.symbol),
        side: params.side === 'SELL' ? 'sell' : 'buy',
        type: 'market',
        timeInForce: 'GTC',
        size: Number(params.quantity),
        price: null,
        triggerPrice: Number(params.triggerPrice),
        reduceOnly: params.reduceOnly === 'true',
        positionSide: params.positionSide ?? 'BOTH',
        timestampMs: nowMs,
      });
      return ok(algoBody(placed));
    }
    case 'GET /fapi/v1/algoOrder': {
      const order = findAlgoOrder(state, params);
      return order ? ok(algoBody(order)) : fail(400, -2013, 'Order does not exist.');
    }
    case 'DELETE /fapi/v1/algoOrder': {
      const order = findAlgoOrder(state, params);
      if (order?.status !== 'open') return fail(400, -2011, 'Unknown order sent.');
      order.status = 'canceled';
      return ok({
        algoId: Number(order.id),
        clientAlgoId: order.clientOrderId,
        code: '200',
        msg: 'success',
      });
    }
    case 'GET /fapi/v1/openAlgoOrders':
      return ok(
        state.orders
          .filter((o) => o.status === 'open' && o.triggerPrice !== null)
          .filter((o) => !params.symbol || `${o.base}USDT` === params.symbol)
          .map(algoBody),
      );
    case 'GET /fapi/v1/openOrders':
      return ok(
        state.orders
          .filter((o) => o.status === 'open' && o.triggerPrice === null && isVisible(o, nowMs))
          .filter((o) => !params.symbol || `${o.base}USDT` === params.symbol)
          .map(orderBody),
      );
    case 'GET /fapi/v1/userTrades':
      // The caller's own trades, one row per venue trade, oldest first; `orderId` narrows them
      // to one order; at most `limit` (default 500), the newest, as Binance answers.
      return ok(
        ordersOfKey(state, request.apiKey)
          .filter(
            (o) =>
              `${o.base}USDT` === params.symbol &&
              (params.orderId === undefined || o.id === params.orderId),
          )
          .flatMap((o) => o.fills.map((fill) => tradeRow(o, fill)))
          .sort((a, b) => a.time - b.time || a.id - b.id)
          .slice(-Math.min(Number(params.limit ?? 500) || 500, 1000)),
      );
    default:
      return fail(404, -1, `no route ${route}`);
  }
}
