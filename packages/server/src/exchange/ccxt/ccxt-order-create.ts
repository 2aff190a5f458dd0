// Creating an order on a ccxt venue, sent once: when its outcome is unknown (timeout, 5xx) or
// the venue says its client order id exists, the order is looked up by that id instead.
import type { Exchange as CcxtExchange } from 'ccxt';
import {
  ExchangeAdapterError,
  type ExchangeOrder,
  OrderNotSentError,
  type OrderRequest,
} from '../exchange-client.js';
import {
  type CcxtClientContext,
  marketOf,
  read,
  translate,
  withClockResync,
} from './ccxt-client-context.js';
import {
  isAmbiguousSend,
  isClockSkew,
  isDuplicateClientOrderId,
  isOrderNotFound,
  pinnedKindOf,
  redact,
} from './ccxt-errors.js';
import { timeDifferenceOf } from './ccxt-instance.js';
import { type Market, toCcxtAmount, toExchangeOrder } from './ccxt-mapping.js';
import { isTriggerType, orderParams } from './ccxt-order-params.js';

/** One book's answer for a client order id: regular orders, or trigger (algo) orders. */
async function lookUp(
  ctx: CcxtClientContext,
  market: Market,
  clientOrderId: string,
  isTrigger: boolean,
): Promise<ExchangeOrder | null> {
  const { caps, lean, instance } = ctx;
  const params = isTrigger
    ? { ...caps.triggerBook.lookupParams, clientOrderId }
    : { clientOrderId };
  const order = await read(ctx, 'fetch order', async () => {
    try {
      if (lean && !isTrigger) return await lean.fetchOrderByClientId(market, clientOrderId);
      return await instance.fetchOrder('', market.symbol, params);
    } catch (error) {
      if (isOrderNotFound(error, caps)) return null;
      throw error;
    }
  });
  return order === null ? null : toExchangeOrder(order, market, caps, ctx.now());
}

export async function fetchOrderByClientId(
  ctx: CcxtClientContext,
  symbol: string,
  clientOrderId: string,
): Promise<ExchangeOrder | null> {
  const market = await marketOf(ctx, symbol);
  return (
    (await lookUp(ctx, market, clientOrderId, false)) ??
    (await lookUp(ctx, market, clientOrderId, true))
  );
}

async function lookUpAfter(
  ctx: CcxtClientContext,
  request: OrderRequest,
  reason: string,
  cause: unknown,
): Promise<ExchangeOrder> {
  const { options, secrets } = ctx;
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
    const market = await marketOf(ctx, request.symbol);
    found = await lookUp(ctx, market, request.clientOrderId, isTriggerType(request.type));
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

export async function createOrder(
  ctx: CcxtClientContext,
  request: OrderRequest,
): Promise<ExchangeOrder> {
  const { options, caps, lean, instance, windows, now } = ctx;
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
  const market = await marketOf(ctx, request.symbol);
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
    order = await withClockResync(ctx, 'create order', async () => {
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
      return lookUpAfter(ctx, request, 'client order id already used', error);
    }
    if (pinnedKindOf(error, caps) === undefined && isAmbiguousSend(error))
      return lookUpAfter(ctx, request, 'outcome unknown', error);
    throw translate(ctx, error, 'create order');
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
