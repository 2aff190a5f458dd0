import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { binanceRoutes } from './fake-binance-routes.js';
import { okxRoutes } from './fake-okx-routes.js';

// A local stand-in for the private and public REST APIs of Binance USDⓈ-M and OKX swaps, driven
// through the real ccxt clients (point them here with `urlsOverride: fake.url`). It checks that
// private calls carry a key and a signature (it does not verify HMACs), counts calls per path,
// keeps orders/positions/balance in memory in the exchange's own units (OKX: contracts) and
// plays scripted failures (`failNext`). Reusable by other modules' tests.

export type FakeVenue = 'binance' | 'okx';

export interface FakeCall {
  readonly method: string;
  readonly path: string;
  /** Query and (form or JSON) body parameters together. */
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingMessage['headers'];
}

export type FakeFailure =
  /** Answer this status, body and headers instead (e.g. 401, 429 + Retry-After, 400 -1021). */
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Never answer; nothing happens (the client times out). */
  | { readonly kind: 'hang' }
  /** Do the request (an order is placed) but never answer: the answer is "lost". */
  | { readonly kind: 'hang-after-accept' };

export interface FakeOrder {
  id: string;
  clientOrderId: string;
  /** Base asset, e.g. ETH. */
  base: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  /** In the exchange's units (OKX: contracts). */
  size: number;
  price: number | null;
  /** Stop / take-profit trigger; such orders live in the exchange's algo book. */
  triggerPrice: number | null;
  filled: number;
  averagePrice: number | null;
  reduceOnly: boolean;
  /** LONG/SHORT/BOTH (binance) or long/short/net (okx). */
  positionSide: string;
  status: 'open' | 'filled' | 'canceled';
  timestampMs: number;
}

export interface FakePosition {
  base: string;
  side: 'long' | 'short';
  /** In the exchange's units (OKX: contracts), positive. */
  size: number;
  entryPrice: number;
  markPrice: number;
  unrealizedPnl: number;
  leverage: number;
}

export interface FakeState {
  readonly venue: FakeVenue;
  orders: FakeOrder[];
  positions: FakePosition[];
  balance: { total: number; free: number; used: number };
  leverage: Record<string, number>;
  /** OKX account/config `perm` and `ip`. */
  okxPermissions: { perm: string; ip: string };
  /** The fake's clock minus the real clock (ms): a client off by more than 10 s gets a skew error. */
  serverClockOffsetMs: number;
  nextOrderId: number;
}

/** Marked prices: market orders fill here. */
export const FAKE_PRICES: Readonly<Record<string, number>> = { BTC: 50_000, ETH: 2_000 };
/** OKX contract values (base per contract). */
export const OKX_CONTRACT_VALUES: Readonly<Record<string, number>> = { BTC: 0.01, ETH: 0.1 };

export interface RouteRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingMessage['headers'];
  readonly nowMs: number;
}
export interface RouteAnswer {
  readonly status: number;
  readonly body: unknown;
}
export type Routes = (request: RouteRequest, state: FakeState) => RouteAnswer;

export interface FakePrivateExchange {
  readonly url: string;
  readonly calls: FakeCall[];
  readonly state: FakeState;
  /** Calls to `path` (e.g. '/fapi/v1/order'), optionally of one method. */
  callsTo(path: string, method?: string): FakeCall[];
  /** The next `times` calls of `method path` fail this way. */
  failNext(method: string, path: string, failure: FakeFailure, times?: number): void;
  close(): Promise<void>;
}

export interface FakeExchangeOptions {
  readonly exchange: FakeVenue;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseParams(url: URL, body: string, contentType: string | undefined) {
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) params[key] = value;
  if (body === '') return params;
  if (contentType?.includes('json')) {
    const json = JSON.parse(body) as unknown;
    // OKX batch endpoints (cancel-algos) take an array: the fake reads its first item.
    const parsed = (Array.isArray(json) ? json[0] : json) as Record<string, unknown>;
    for (const [key, value] of Object.entries(parsed)) params[key] = String(value);
  } else {
    for (const [key, value] of new URLSearchParams(body)) params[key] = value;
  }
  return params;
}

export async function startFakeExchange(
  options: FakeExchangeOptions,
): Promise<FakePrivateExchange> {
  const calls: FakeCall[] = [];
  const failures: { key: string; failure: FakeFailure; times: number }[] = [];
  const state: FakeState = {
    venue: options.exchange,
    orders: [],
    positions: [],
    balance: { total: 1_000, free: 800, used: 200 },
    leverage: {},
    okxPermissions: { perm: 'read_only,trade', ip: '' },
    serverClockOffsetMs: 0,
    nextOrderId: 1000,
  };
  const routes: Routes = options.exchange === 'binance' ? binanceRoutes : okxRoutes;

  const takeFailure = (key: string): FakeFailure | undefined => {
    const entry = failures.find((candidate) => candidate.key === key);
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) failures.splice(failures.indexOf(entry), 1);
    return entry.failure;
  };

  const send = (response: ServerResponse, answer: RouteAnswer, headers = {}) => {
    response.writeHead(answer.status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(answer.body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const params = parseParams(url, await readBody(request), request.headers['content-type']);
    calls.push({ method, path: url.pathname, params, headers: request.headers });
    const failure = takeFailure(`${method} ${url.pathname}`);
    const routeRequest: RouteRequest = {
      method,
      path: url.pathname,
      params,
      headers: request.headers,
      nowMs: Date.now() + state.serverClockOffsetMs,
    };
    if (failure?.kind === 'hang') return;
    if (failure?.kind === 'hang-after-accept') {
      routes(routeRequest, state);
      return;
    }
    if (failure?.kind === 'http') {
      send(response, { status: failure.status, body: failure.body }, failure.headers);
      return;
    }
    send(response, routes(routeRequest, state));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, { status: 500, body: { code: -1, msg: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    state,
    callsTo: (path, method) =>
      calls.filter(
        (call) => call.path === path && (method === undefined || call.method === method),
      ),
    failNext: (method, path, failure, times = 1) => {
      failures.push({ key: `${method} ${path}`, failure, times });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Fills a new order: market orders at the marked price; limit and trigger orders stay open. */
export function placeOrder(
  state: FakeState,
  order: Omit<FakeOrder, 'id' | 'filled' | 'averagePrice' | 'status'>,
): FakeOrder {
  const isMarket = order.type === 'market' && order.triggerPrice === null;
  const placed: FakeOrder = {
    ...order,
    id: String(state.nextOrderId++),
    filled: isMarket ? order.size : 0,
    averagePrice: isMarket ? (FAKE_PRICES[order.base] ?? 1) : null,
    status: isMarket ? 'filled' : 'open',
  };
  state.orders.push(placed);
  return placed;
}
