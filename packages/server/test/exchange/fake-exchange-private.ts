import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { binanceRoutes } from './fake-binance-routes.js';
import { okxRoutes } from './fake-okx-routes.js';

// A local stand-in for the private and public REST APIs of Binance USDⓈ-M and OKX swaps, driven
// through the real ccxt clients (point them here with `urlsOverride: fake.url`). It checks that
// private calls carry a key and a signature (it does not verify HMACs), counts calls per path,
// keeps orders/positions/balance in memory in the exchange's own units (OKX: contracts) and
// plays scripted failures (`failNext`). Options: `tracksPositions` keeps each API key's one-way
// position from its fills (and refuses reduce-only orders that would not reduce it);
// `orderRateLimit` refuses an API key's orders beyond its limit, as the exchange does;
// `orderDelayMs` makes the venue slow (each new order waits before it is taken).
// Reusable by other modules' tests.

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
  | { readonly kind: 'hang-after-accept' }
  /** Answer as usual, only `ms` later (nothing is done before). */
  | { readonly kind: 'delay'; readonly ms: number };

export interface FakeOrder {
  id: string;
  /** The API key that placed it (each key is one exchange account). */
  apiKey: string;
  clientOrderId: string;
  /** Base asset, e.g. ETH. */
  base: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  /** Limit orders: IOC fills at once if marketable, else expires; GTC rests. */
  timeInForce: 'GTC' | 'IOC';
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
  readonly ordersByClientId: Map<string, FakeOrder>;
  /** The positions answered without `tracksPositions` (tests set them by hand). */
  positions: FakePosition[];
  /** With `tracksPositions`: each API key's net positions, as its fills made them. */
  readonly tracksPositions: boolean;
  readonly accountPositions: Map<string, FakePosition[]>;
  /** Orders refused for the key's order rate (`orderRateLimit`). */
  rateLimitRejections: number;
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
  /** The caller's API key (its account). */
  readonly apiKey: string;
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
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export interface FakeExchangeOptions {
  readonly exchange: FakeVenue;
  readonly tracksPositions?: boolean;
  /** At most `limit` new orders per API key in any `windowMs`; beyond: 429 (Binance -1015). */
  readonly orderRateLimit?: { readonly limit: number; readonly windowMs: number };
  /**
   * Each new order waits this long (after its call is counted) before the exchange takes it.
   * The order is taken even when the caller is gone meanwhile (a process killed mid-request).
   */
  readonly orderDelayMs?: number;
}

const ORDER_PATHS = new Set([
  'POST /fapi/v1/order',
  'POST /fapi/v1/algoOrder',
  'POST /api/v5/trade/order',
  'POST /api/v5/trade/order-algo',
]);

const RATE_LIMITED: Readonly<Record<FakeVenue, RouteAnswer>> = {
  binance: { status: 429, body: { code: -1015, msg: 'Too many new orders.' } },
  okx: { status: 429, body: { code: '50011', msg: 'Too Many Requests', data: [] } },
};

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
    ordersByClientId: new Map(),
    positions: [],
    tracksPositions: options.tracksPositions === true,
    accountPositions: new Map(),
    rateLimitRejections: 0,
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

  const sentAt = new Map<string, number[]>();
  /** Whether the key may place one more order now (and counts it). */
  const withinRate = (apiKey: string, nowMs: number): boolean => {
    const limit = options.orderRateLimit;
    if (!limit) return true;
    const times = (sentAt.get(apiKey) ?? []).filter((t) => t > nowMs - limit.windowMs);
    sentAt.set(apiKey, times);
    if (times.length >= limit.limit) return false;
    times.push(nowMs);
    return true;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const params = parseParams(url, await readBody(request), request.headers['content-type']);
    calls.push({ method, path: url.pathname, params, headers: request.headers });
    if (options.orderDelayMs && ORDER_PATHS.has(`${method} ${url.pathname}`)) {
      await new Promise((resolve) => setTimeout(resolve, options.orderDelayMs));
    }
    const failure = takeFailure(`${method} ${url.pathname}`);
    if (failure?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, failure.ms));
    const keyHeader = request.headers['x-mbx-apikey'] ?? request.headers['ok-access-key'];
    const apiKey = typeof keyHeader === 'string' ? keyHeader : '';
    if (ORDER_PATHS.has(`${method} ${url.pathname}`) && !withinRate(apiKey, Date.now())) {
      state.rateLimitRejections += 1;
      send(response, RATE_LIMITED[options.exchange]);
      return;
    }
    const routeRequest: RouteRequest = {
      apiKey,
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
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
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
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function findByClientOrderId(state: FakeState, clientOrderId: string) {
  return state.ordersByClientId.get(clientOrderId);
}

/** The positions a key's position reads answer. */
export function positionsOf(state: FakeState, apiKey: string): FakePosition[] {
  return state.tracksPositions ? (state.accountPositions.get(apiKey) ?? []) : state.positions;
}

/**
 * With `tracksPositions`: whether a reduce-only order of `side` would reduce the key's position
 * (the exchange refuses one that would open or increase it).
 */
export function reducesPosition(
  state: FakeState,
  apiKey: string,
  base: string,
  side: 'buy' | 'sell',
): boolean {
  if (!state.tracksPositions) return true;
  const held = positionsOf(state, apiKey).find((p) => p.base === base);
  return held !== undefined && (held.side === 'long') === (side === 'sell');
}

/** A fill on the key's one-way position (amounts in the exchange's units). */
function applyToPosition(state: FakeState, order: FakeOrder): void {
  const positions = state.accountPositions.get(order.apiKey) ?? [];
  state.accountPositions.set(order.apiKey, positions);
  const price = order.averagePrice ?? 0;
  const held = positions.find((p) => p.base === order.base);
  const signed = (order.side === 'buy' ? 1 : -1) * order.filled;
  const current = held ? (held.side === 'long' ? held.size : -held.size) : 0;
  const next = current + signed;
  if (held) positions.splice(positions.indexOf(held), 1);
  if (Math.abs(next) < 1e-12) return;
  const isSameSide = current !== 0 && Math.sign(next) === Math.sign(current);
  const isAdding = isSameSide && Math.abs(next) > Math.abs(current);
  positions.push({
    base: order.base,
    side: next > 0 ? 'long' : 'short',
    size: Math.abs(next),
    entryPrice: !isSameSide
      ? price
      : isAdding
        ? (Math.abs(current) * (held?.entryPrice ?? price) + order.filled * price) / Math.abs(next)
        : (held?.entryPrice ?? price),
    markPrice: FAKE_PRICES[order.base] ?? 1,
    unrealizedPnl: 0,
    leverage: state.leverage[order.base] ?? 1,
  });
}

/**
 * Places a new order: market orders fill at the marked price, an IOC limit too when the price
 * is marketable (else it expires); GTC limit and trigger orders stay open. A reduce-only fill
 * never exceeds the tracked position.
 */
export function placeOrder(
  state: FakeState,
  order: Omit<FakeOrder, 'id' | 'filled' | 'averagePrice' | 'status'>,
): FakeOrder {
  const mark = FAKE_PRICES[order.base] ?? 1;
  const isMarketable =
    order.price === null || (order.side === 'buy' ? order.price >= mark : order.price <= mark);
  const isImmediate =
    order.triggerPrice === null &&
    (order.type === 'market' || (order.timeInForce === 'IOC' && isMarketable));
  const held = state.tracksPositions
    ? positionsOf(state, order.apiKey).find((p) => p.base === order.base)
    : undefined;
  const size = order.reduceOnly && held ? Math.min(order.size, held.size) : order.size;
  const expired = order.type === 'limit' && order.timeInForce === 'IOC' && !isMarketable;
  const placed: FakeOrder = {
    ...order,
    id: String(state.nextOrderId++),
    filled: isImmediate ? size : 0,
    averagePrice: isImmediate ? mark : null,
    status: isImmediate ? 'filled' : expired ? 'canceled' : 'open',
  };
  state.orders.push(placed);
  state.ordersByClientId.set(placed.clientOrderId, placed);
  if (isImmediate && state.tracksPositions) applyToPosition(state, placed);
  return placed;
}
