import type { ExchangeCapabilities, PositionMode } from '../exchange-capabilities.js';
import {
  ExchangeAdapterError,
  type OrderRequest,
  type OrderType,
  type PositionSide,
} from '../exchange-client.js';

/** Stop / take-profit market orders: they live in the exchange's trigger (algo) book. */
export function isTriggerType(type: OrderType): boolean {
  return type === 'stop_market' || type === 'take_profit_market';
}

/** Which side of a hedge-mode account an order without `positionSide` belongs to. */
function impliedPositionSide(request: OrderRequest): PositionSide {
  const isOpening = request.reduceOnly !== true;
  return (request.side === 'buy') === isOpening ? 'long' : 'short';
}

/** ccxt createOrder params of our request, per the capability table. */
export function orderParams(
  request: OrderRequest,
  caps: ExchangeCapabilities,
  positionMode: PositionMode,
): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {
    clientOrderId: request.clientOrderId,
  };
  if (positionMode === 'hedge') {
    const side = request.positionSide ?? impliedPositionSide(request);
    params[caps.hedgeParam.name] = caps.hedgeParam.values[side];
    if (request.reduceOnly === true && caps.isReduceOnlyAllowedInHedgeMode) {
      params.reduceOnly = true;
    }
  } else if (request.reduceOnly === true) {
    params.reduceOnly = true;
  }
  if (isTriggerType(request.type)) {
    if (request.triggerPrice === undefined) {
      throw new ExchangeAdapterError('invalid_order', `${request.type} needs a triggerPrice`);
    }
    // ccxt's unified names: Binance STOP_MARKET / TAKE_PROFIT_MARKET, OKX conditional algo.
    const key = request.type === 'stop_market' ? 'stopLossPrice' : 'takeProfitPrice';
    params[key] = request.triggerPrice;
    const idParam = caps.triggerBook.clientOrderIdParam;
    if (idParam !== null) params[idParam] = request.clientOrderId;
  }
  if (request.type === 'limit' && request.price === undefined) {
    throw new ExchangeAdapterError('invalid_order', 'a limit order needs a price');
  }
  if (request.type === 'limit' && request.timeInForce !== undefined) {
    params.timeInForce = request.timeInForce;
  }
  return params;
}
