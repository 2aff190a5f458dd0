import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { binanceRoutes } from './fake-binance-routes.js';
import { okxRoutes } from './fake-okx-routes.js';
import { type FakeState, type FakeVenue, settle } from './fake-order-book.js';
import { resolveBehaviour, type VenueBehaviourOptions } from './fake-venue-behaviour.js';

// A local stand-in for the private and public REST APIs of Binance USDⓈ-M and OKX swaps, driven
// through the real ccxt clients (point them here with `urlsOverride: fake.url`). It checks that
// private calls carry a key and a signature (it does not verify HMACs), counts calls per path,
// keeps orders/positions/balance in memory in the exchange's own units (OKX: contracts) and
// plays scripted failures (`failNext`) and held requests (`hold`). Options: `tracksPositions`
// keeps each API key's one-way position from its fills (and refuses reduce-only orders that
// would not reduce it); `orderRateLimit` refuses an API key's orders beyond its limit, as the
// exchange does; `orderDelayMs` makes the venue slow (each new order waits before it is taken);
// `venueFaithful` and the behaviour options (fake-venue-behaviour.ts, README.md) make it answer
// as the real venues do after an ack. Reusable by other modules' tests.

export type { FakeFill, FakeOrder, FakePosition, FakeState, FakeVenue } from './fake-order-book.js';
export { FAKE_PRICES, OKX_CONTRACT_VALUES } from './fake-order-book.js';

export interface FakeCall {
  readonly method: string;
  readonly path: string;
  /** Query and (form or JSON) body parameters together. */
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingMessage['headers'];
  /** The query string as sent (without its `?`) and the body as sent: what a signature covers. */
  readonly rawQuery: string;
  readonly body: string;
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
  readonly headers?: Readonly<Record<string, string>>;
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
  /**
   * Holds every `method path` request from now on: each is counted in `calls` but not looked at
   * until `release()`, and is then processed at the fake's time of the release.
   */
  hold(method: string, path: string): FakeHold;
  /** Moves the fake's clock `ms` forward (planned trades, lookup lag and expiry follow it). */
  advanceClock(ms: number): void;
  /** The fake's time now (ms). */
  nowMs(): number;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export interface FakeHold {
  /** Requests waiting now. */
  waiting(): number;
  /** Resolves once `count` requests wait. */
  arrived(count?: number): Promise<void>;
  /** Lets the waiting requests through and stops holding. */
  release(): void;
}

export interface FakeExchangeOptions extends VenueBehaviourOptions {
  readonly exchange: FakeVenue;
  /** Every realistic behaviour on (VENUE_FAITHFUL); explicit behaviour options win over it. */
  readonly venueFaithful?: boolean;
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

/**
 * The venues' request-rate refusals. Binance (General Info, "LIMITS"): HTTP 429, -1003 and a
 * Retry-After in seconds; OKX (error codes): HTTP 429, 50011, no Retry-After.
 */
export const TOO_MANY_REQUESTS: Readonly<
  Record<FakeVenue, (retryAfterSeconds: number) => RouteAnswer>
> = {
  binance: (retryAfterSeconds) => ({
    status: 429,
    body: {
      code: -1003,
      msg: 'Too many requests; current limit of IP(127.0.0.1) is 2400 requests per minute. Please use the websocket for live updates to avoid polling the API.',
    },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  }),
  okx: () => ({ status: 429, body: { msg: 'Too Many Requests', code: '50011' } }),
};

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
  const { exchange, tracksPositions, orderRateLimit, orderDelayMs, venueFaithful, ...explicit } =
    options;
  const state: FakeState = {
    venue: exchange,
    behaviour: resolveBehaviour(venueFaithful === true, explicit),
    orders: [],
    ordersByClientId: new Map(),
    ordersById: new Map(),
    ordersOfKey: new Map(),
    unsettled: new Set(),
    positions: [],
    tracksPositions: tracksPositions === true,
    accountPositions: new Map(),
    rateLimitRejections: 0,
    orderRequests: 0,
    balance: { total: 1_000, free: 800, used: 200 },
    leverage: {},
    okxPermissions: { perm: 'read_only,trade', ip: '' },
    serverClockOffsetMs: 0,
    nextOrderId: 1000,
    nextTradeId: 501_000,
  };
  const holds: { key: string; waiting: (() => void)[]; onArrive: (() => void)[] }[] = [];
  const fakeNow = () => Date.now() + state.serverClockOffsetMs;
  const routes: Routes = exchange === 'binance' ? binanceRoutes : okxRoutes;

  const takeFailure = (key: string): FakeFailure | undefined => {
    const entry = failures.find((candidate) => candidate.key === key);
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) failures.splice(failures.indexOf(entry), 1);
    return entry.failure;
  };

  const send = (response: ServerResponse, answer: RouteAnswer) => {
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  };

  const sentAt = new Map<string, number[]>();
  /** Whether the key may place one more order now (and counts it). */
  const withinRate = (apiKey: string, nowMs: number): boolean => {
    const limit = orderRateLimit;
    if (!limit) return true;
    const times = (sentAt.get(apiKey) ?? []).filter((t) => t > nowMs - limit.windowMs);
    sentAt.set(apiKey, times);
    if (times.length >= limit.limit) return false;
    times.push(nowMs);
    return true;
  };

  /** Waits while a hold covers `key`. */
  const passHold = async (key: string): Promise<void> => {
    const held = holds.find((candidate) => candidate.key === key);
    if (!held) return;
    await new Promise<void>((resolve) => {
      held.waiting.push(resolve);
      for (const notify of [...held.onArrive]) notify();
    });
  };

  /** The Nth order create refused (`rateLimitEveryNthOrder`), counted once past holds and delays. */
  const isNthOrderRefused = (): boolean => {
    state.orderRequests += 1;
    const every = state.behaviour.rateLimitEveryNthOrder;
    return every > 0 && state.orderRequests % every === 0;
  };

  const process = (request: RouteRequest): RouteAnswer => {
    settle(state, request.nowMs);
    return routes(request, state);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    const body = await readBody(request);
    const params = parseParams(url, body, request.headers['content-type']);
    calls.push({
      method,
      path: url.pathname,
      params,
      headers: request.headers,
      rawQuery: url.search.slice(1),
      body,
    });
    await passHold(key);
    const isOrder = ORDER_PATHS.has(key);
    if (orderDelayMs && isOrder) {
      await new Promise((resolve) => setTimeout(resolve, orderDelayMs));
    }
    const failure = takeFailure(key);
    if (failure?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, failure.ms));
    const keyHeader = request.headers['x-mbx-apikey'] ?? request.headers['ok-access-key'];
    const apiKey = typeof keyHeader === 'string' ? keyHeader : '';
    if (isOrder && !withinRate(apiKey, Date.now())) {
      state.rateLimitRejections += 1;
      send(response, RATE_LIMITED[exchange]);
      return;
    }
    if (isOrder && isNthOrderRefused()) {
      state.rateLimitRejections += 1;
      send(response, TOO_MANY_REQUESTS[exchange](state.behaviour.retryAfterSeconds));
      return;
    }
    const routeRequest: RouteRequest = {
      apiKey,
      method,
      path: url.pathname,
      params,
      headers: request.headers,
      nowMs: fakeNow(),
    };
    if (failure?.kind === 'hang') return;
    if (failure?.kind === 'hang-after-accept') {
      process(routeRequest);
      return;
    }
    if (failure?.kind === 'http') {
      send(response, { status: failure.status, body: failure.body, headers: failure.headers });
      return;
    }
    send(response, process(routeRequest));
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
    hold: (method, path) => {
      const held = {
        key: `${method} ${path}`,
        waiting: [] as (() => void)[],
        onArrive: [] as (() => void)[],
      };
      holds.push(held);
      return {
        waiting: () => held.waiting.length,
        arrived: (count = 1) =>
          new Promise<void>((resolve) => {
            const check = () => {
              if (held.waiting.length < count) return;
              held.onArrive.splice(held.onArrive.indexOf(check), 1);
              resolve();
            };
            held.onArrive.push(check);
            check();
          }),
        release: () => {
          if (holds.includes(held)) holds.splice(holds.indexOf(held), 1);
          for (const resume of held.waiting.splice(0)) resume();
        },
      };
    },
    advanceClock: (ms) => {
      state.serverClockOffsetMs += ms;
    },
    nowMs: fakeNow,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
