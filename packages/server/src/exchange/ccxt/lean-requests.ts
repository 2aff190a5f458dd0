import { createHmac } from 'node:crypto';
import type { Exchange } from '@quantsquare/contracts';
import ccxt, { type Exchange as CcxtExchange, type Order, type Trade } from 'ccxt';
import { Agent } from 'undici';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import type { OrderSide } from '../exchange-client.js';
import type { VenueBudget } from '../venue-budget.js';
import { DEFAULT_TIMEOUT_MS, timeDifferenceOf } from './ccxt-instance.js';
import type { Market } from './ccxt-mapping.js';

// The hot order requests — create, cancel, look up by client order id, an order's trades — are
// built, signed and sent here, without ccxt's per-call machinery (option lookups, proxy checks,
// its fetch wrapper): through ccxt they cost 2–3× a bare signed keep-alive request
// (`npm run bench -- venue-requests`). ccxt still does what it is for: the market's ids and
// precision, the answer's parsing (parseOrder, parseTrades) and the venue's error mapping
// (handleRestResponse: handleErrors, the HTTP status, Retry-After). The requests are the ones
// ccxt sends for the same calls (the lean-requests test compares them at a fake venue), less
// ccxt's own broker tag. Every other request, and trigger orders, still go through ccxt.

/** One keep-alive pool per venue origin for every account's hot requests in this process. */
const agent = new Agent({ connections: 256, keepAliveTimeout: 60_000, pipelining: 1 });

/** An order request's own time and the moment the venue must refuse it after (wall clock). */
export interface LeanWindow {
  readonly claimedAtMs: number;
  readonly expiresAtMs: number;
}

export interface LeanOrderInput {
  readonly side: OrderSide;
  readonly type: 'market' | 'limit';
  /** In ccxt's units for the market (contracts on OKX). */
  readonly amount: number;
  readonly price?: number | undefined;
  readonly timeInForce?: 'GTC' | 'IOC' | undefined;
  readonly clientOrderId: string;
  /** The venue's hedge-mode side (`LONG`/`long`), when the account is in hedge mode. */
  readonly hedgeSide?: string | undefined;
  readonly reduceOnly: boolean;
  readonly window?: LeanWindow | undefined;
}

export interface LeanRequests {
  createOrder(market: Market, input: LeanOrderInput): Promise<Order>;
  /** Throws ccxt's OrderNotFound (through the venue's error mapping) when there is none. */
  fetchOrderByClientId(market: Market, clientOrderId: string): Promise<Order>;
  cancelOrder(market: Market, orderId: string): Promise<void>;
  fetchOrderTrades(market: Market, orderId: string): Promise<Trade[]>;
}

interface LeanPacing {
  /** Requests the core's lanes pace (create, cancel): only the venue's budget per address. */
  readonly lanePaced: (cost: number) => Promise<void>;
  /** Every other request: the instance's own bucket as well. */
  readonly other: (cost: number) => Promise<void>;
}

/** What a client's lean requests need of its options. */
export interface LeanOptions {
  readonly exchange: Exchange;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly apiPassword?: string | null | undefined;
  readonly timeoutMs?: number | undefined;
  readonly venueBudget?: VenueBudget | undefined;
}

/**
 * As ccxt's own requests are paced (request-budget.ts): the lanes' requests draw only on the
 * venue's budget when there is one, every other request on the instance's bucket too.
 */
function pacingOf(instance: CcxtExchange, options: LeanOptions): LeanPacing {
  const pace = async (cost: number) => {
    if (instance.enableRateLimit) await instance.throttle(cost);
  };
  const budget = options.venueBudget;
  return {
    lanePaced: budget ? (cost) => budget.take(options.exchange, cost) : pace,
    other: pace,
  };
}

interface Signed {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** A request's parameters; an undefined one is not sent. */
type Params = Record<string, string | boolean | undefined>;

const encodeQuery = (params: Params) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');

/** What the venue's HTTP answer gives ccxt's response handling (an undici-shaped response). */
async function send(instance: CcxtExchange, request: Signed, timeoutMs: number): Promise<unknown> {
  const headers = { ...(instance.headers as Record<string, string>), ...request.headers };
  let answer: Awaited<ReturnType<typeof agent.request>>;
  try {
    const { origin } = new URL(request.url);
    answer = await agent.request({
      origin,
      path: request.url.slice(origin.length),
      method: request.method,
      headers,
      body: request.body ?? null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const text = `${instance.id} ${request.method} ${request.url}`;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      throw new ccxt.RequestTimeout(`${text} request timed out (${timeoutMs} ms)`);
    }
    throw new ccxt.NetworkError(
      `${text} fetch failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = answer.body.text();
  const response = {
    status: answer.statusCode,
    statusText: '',
    headers: answer.headers,
    text: () => text,
  };
  // ccxt's own answer handling: its error mapping, Retry-After, the parsed JSON.
  return (
    instance as unknown as {
      handleRestResponse(
        response: unknown,
        url: string,
        method: string,
        headers: unknown,
        body: unknown,
      ): Promise<unknown>;
    }
  ).handleRestResponse(response, request.url, request.method, headers, request.body);
}

const hmac = (secret: string, text: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', secret).update(text).digest(encoding);

/** A secret ccxt would sign with RSA or Ed25519 (a PEM key) is left to ccxt. */
const isHmacSecret = (secret: string) => !secret.includes('PRIVATE KEY');

interface Credentials {
  readonly apiKey: string;
  readonly secret: string;
  readonly password?: string | null | undefined;
}

function binanceRequests(
  instance: CcxtExchange,
  credentials: Credentials,
  pacing: LeanPacing,
  timeoutMs: number,
): LeanRequests {
  const base = () => (instance.urls.api as Record<string, string>).fapiPrivate as string;
  const defaultRecvWindow = () =>
    Number((instance.options as Record<string, unknown>).recvWindow ?? 10_000);

  function signed(
    method: Signed['method'],
    path: string,
    params: Params,
    window?: LeanWindow,
  ): Signed {
    const timeParams: Params = window
      ? {
          timestamp: String(Math.floor(window.claimedAtMs - timeDifferenceOf(instance))),
          recvWindow: String(Math.max(1, Math.floor(window.expiresAtMs - window.claimedAtMs))),
        }
      : { timestamp: String(instance.nonce()), recvWindow: String(defaultRecvWindow()) };
    const query = encodeQuery({ ...params, ...timeParams });
    const full = `${query}&signature=${hmac(credentials.secret, query, 'hex')}`;
    const url = `${base()}/${path}`;
    const headers = { 'X-MBX-APIKEY': credentials.apiKey };
    return method === 'POST'
      ? {
          url,
          method,
          headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: full,
        }
      : { url: `${url}?${full}`, method, headers };
  }

  return {
    async createOrder(market, input) {
      const params: Params = {
        symbol: market.id,
        side: input.side.toUpperCase(),
        type: input.type.toUpperCase(),
        quantity: instance.amountToPrecision(market.symbol, input.amount),
        newClientOrderId: input.clientOrderId,
        newOrderRespType: 'RESULT',
      };
      if (input.type === 'limit') {
        params.price = instance.priceToPrecision(market.symbol, input.price);
        params.timeInForce = input.timeInForce ?? 'GTC';
      }
      if (input.hedgeSide !== undefined) params.positionSide = input.hedgeSide;
      if (input.reduceOnly) params.reduceOnly = 'true';
      await pacing.lanePaced(4);
      const answer = await send(instance, signed('POST', 'order', params, input.window), timeoutMs);
      return instance.parseOrder(answer as Record<string, unknown>, market);
    },
    async fetchOrderByClientId(market, clientOrderId) {
      await pacing.other(1);
      const answer = await send(
        instance,
        signed('GET', 'order', { symbol: market.id, origClientOrderId: clientOrderId }),
        timeoutMs,
      );
      return instance.parseOrder(answer as Record<string, unknown>, market);
    },
    async cancelOrder(market, orderId) {
      await pacing.lanePaced(1);
      await send(instance, signed('DELETE', 'order', { symbol: market.id, orderId }), timeoutMs);
    },
    async fetchOrderTrades(market, orderId) {
      await pacing.other(5);
      const answer = await send(
        instance,
        signed('GET', 'userTrades', { symbol: market.id, orderId }),
        timeoutMs,
      );
      return instance.parseTrades(answer as Record<string, unknown>[], market);
    },
  };
}

function okxRequests(
  instance: CcxtExchange,
  credentials: Credentials,
  pacing: LeanPacing,
  timeoutMs: number,
): LeanRequests {
  const host = () =>
    (instance as unknown as { implodeHostname(url: string): string }).implodeHostname(
      (instance.urls.api as Record<string, string>).rest as string,
    );

  function signed(
    method: 'GET' | 'POST',
    path: string,
    params: Params,
    window?: LeanWindow,
  ): Signed {
    const timestamp = new Date(instance.nonce()).toISOString();
    const requestPath = `/api/v5/${path}`;
    const query = method === 'GET' ? `?${encodeQuery(params)}` : '';
    const body = method === 'POST' ? JSON.stringify(params) : undefined;
    const headers: Record<string, string> = {
      'OK-ACCESS-KEY': credentials.apiKey,
      'OK-ACCESS-PASSPHRASE': credentials.password ?? '',
      'OK-ACCESS-TIMESTAMP': timestamp,
      'OK-ACCESS-SIGN': hmac(
        credentials.secret,
        `${timestamp}${method}${requestPath}${query}${body ?? ''}`,
        'base64',
      ),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // The request's own expiry: OKX refuses it when it arrives after this moment.
    if (window)
      headers.expTime = String(Math.floor(window.expiresAtMs - timeDifferenceOf(instance)));
    return {
      url: `${host()}${requestPath}${query}`,
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    };
  }

  const first = (answer: unknown) =>
    ((answer as { data?: Record<string, unknown>[] }).data ?? [])[0] ?? {};

  return {
    async createOrder(market, input) {
      const isIoc = input.type === 'limit' && input.timeInForce === 'IOC';
      const params: Params = {
        instId: market.id,
        side: input.side,
        ordType: isIoc ? 'ioc' : input.type,
        sz: instance.amountToPrecision(market.symbol, input.amount),
        tdMode: 'cross',
      };
      if (input.type === 'limit') params.px = instance.priceToPrecision(market.symbol, input.price);
      params.clOrdId = input.clientOrderId;
      if (input.hedgeSide !== undefined) params.posSide = input.hedgeSide;
      if (input.reduceOnly) params.reduceOnly = true;
      await pacing.lanePaced(1 / 3);
      const answer = await send(
        instance,
        signed('POST', 'trade/order', params, input.window),
        timeoutMs,
      );
      // As ccxt's createOrder: the ack carries ids only, so the request's type and side.
      const order = instance.parseOrder(first(answer), market);
      order.type = input.type;
      order.side = input.side;
      return order;
    },
    async fetchOrderByClientId(market, clientOrderId) {
      await pacing.other(1 / 3);
      const answer = await send(
        instance,
        signed('GET', 'trade/order', { instId: market.id, clOrdId: clientOrderId }),
        timeoutMs,
      );
      return instance.parseOrder(first(answer), market);
    },
    async cancelOrder(market, orderId) {
      await pacing.lanePaced(1 / 3);
      await send(
        instance,
        signed('POST', 'trade/cancel-order', { instId: market.id, ordId: orderId }),
        timeoutMs,
      );
    },
    async fetchOrderTrades(market, orderId) {
      await pacing.other(2);
      const answer = await send(
        instance,
        signed('GET', 'trade/fills-history', {
          instId: market.id,
          instType: 'SWAP',
          ordId: orderId,
        }),
        timeoutMs,
      );
      return instance.parseTrades(
        ((answer as { data?: Record<string, unknown>[] }).data ?? []) as Record<string, unknown>[],
        market,
      );
    },
  };
}

/**
 * The lean hot requests of a ccxt instance, or null where ccxt must sign them itself (a key that
 * is not an HMAC secret).
 */
export function leanRequestsOf(
  instance: CcxtExchange,
  caps: ExchangeCapabilities,
  options: LeanOptions,
): LeanRequests | null {
  const credentials: Credentials = {
    apiKey: options.apiKey,
    secret: options.apiSecret,
    password: options.apiPassword,
  };
  if (!isHmacSecret(credentials.secret)) return null;
  const pacing = pacingOf(instance, options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return caps.ccxtId === 'okx'
    ? okxRequests(instance, credentials, pacing, timeoutMs)
    : binanceRequests(instance, credentials, pacing, timeoutMs);
}
