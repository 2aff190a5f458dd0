import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for the public REST APIs of Binance USDⓈ-M and OKX, driven through the real
// ccxt clients (their `urls.api` point here). Candles are a pure function of their open time;
// the fake's clock is the test's clock, so "now" and the forming candle agree with the feed.

const TIMEFRAME_MS: Record<string, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '1H': 3_600_000,
  '4h': 14_400_000,
  '4H': 14_400_000,
  '1d': 86_400_000,
  '1Dutc': 86_400_000,
  '1D': 86_400_000,
};

/** OKX contract value: one contract is 0.01 base currency (so contracts = 100 × base volume). */
export const OKX_CONTRACT_VALUE = 0.01;

export interface FakeCandle {
  openMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** In base currency. */
  volume: number;
}

/** The fake's candle at `openMs`; the forming one depends on how far `nowMs` is into it. */
export function fakeCandle(openMs: number, lengthMs: number, nowMs: number): FakeCandle {
  const step = Math.floor(openMs / 60_000) % 1000;
  const open = 50_000 + step;
  const progress = Math.min(1, (nowMs - openMs) / lengthMs);
  const close = open + 10 * progress;
  return {
    openMs,
    open,
    high: close + 5,
    low: open - 5,
    close,
    volume: 10 + (step % 7) + progress,
  };
}

export const FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** The fake's settled funding rate at an 8-hour mark: -0.0001 to +0.0002, in 1e-5 steps. */
export function fakeFundingRate(markMs: number): number {
  const k = Math.floor(markMs / FUNDING_INTERVAL_MS);
  // As published: 8 decimals (a string on the wire parses back to this very number).
  return Number((((k % 7) - 2) * 0.00005 + (k % 3) * 0.00001).toFixed(8));
}

/** Binance stamps some settlements a few milliseconds late (ccxt's recorded answers show it). */
function binanceFundingTime(markMs: number): number {
  return markMs + (Math.floor(markMs / FUNDING_INTERVAL_MS) % 4);
}

export interface FakeExchangeCall {
  path: string;
  query: URLSearchParams;
}

export interface FakeExchange {
  readonly url: string;
  readonly calls: FakeExchangeCall[];
  /** ok: normal; error: every call answers 503; stalled: no candles after `stalledAtMs`. */
  mode: 'ok' | 'error';
  /** No funding settlement before this time (the listing); none by default. */
  fundingListedAtMs: number;
  /** Paths that answer 503 while the others work (one endpoint of the venue down). */
  readonly failingPaths: Set<string>;
  stalledAtMs: number | undefined;
  callsTo(path: string): FakeExchangeCall[];
  close(): Promise<void>;
}

const BINANCE_SYMBOLS = ['BTC', 'ETH', 'DOGE', 'SOL'];
const OKX_SYMBOLS = ['BTC', 'ETH', 'DOGE'];

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(text);
}

export async function startFakeExchange(now: () => number): Promise<FakeExchange> {
  const calls: FakeExchangeCall[] = [];
  const failingPaths = new Set<string>();
  const state: {
    mode: 'ok' | 'error';
    stalledAtMs: number | undefined;
    fundingListedAtMs: number;
  } = {
    mode: 'ok',
    stalledAtMs: undefined,
    fundingListedAtMs: 0,
  };

  /** The settled marks with fromMs ≤ mark ≤ toMs (and not after now), oldest first. */
  const marksBetween = (fromMs: number, toMs: number): number[] => {
    const out: number[] = [];
    const first = Math.max(fromMs, state.fundingListedAtMs);
    const last = Math.min(toMs, now());
    for (
      let mark = Math.ceil(first / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
      mark <= last;
      mark += FUNDING_INTERVAL_MS
    ) {
      out.push(mark);
    }
    return out;
  };

  const candlesBetween = (lengthMs: number, fromMs: number, toMs: number): FakeCandle[] => {
    const nowMs = now();
    const lastOpenMs = Math.floor(nowMs / lengthMs) * lengthMs;
    const out: FakeCandle[] = [];
    const first = Math.ceil(fromMs / lengthMs) * lengthMs;
    for (let openMs = first; openMs <= Math.min(toMs, lastOpenMs); openMs += lengthMs) {
      if (state.stalledAtMs !== undefined && openMs + lengthMs > state.stalledAtMs) break;
      out.push(fakeCandle(openMs, lengthMs, nowMs));
    }
    return out;
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    calls.push({ path: url.pathname, query: url.searchParams });
    if (state.mode === 'error' || failingPaths.has(url.pathname)) {
      send(response, 503, { code: -1, msg: 'Service unavailable' });
      return;
    }
    const q = url.searchParams;
    switch (url.pathname) {
      case '/fapi/v1/exchangeInfo':
        send(response, 200, {
          timezone: 'UTC',
          serverTime: now(),
          rateLimits: [],
          symbols: BINANCE_SYMBOLS.map((base) => ({
            symbol: `${base}USDT`,
            pair: `${base}USDT`,
            contractType: 'PERPETUAL',
            status: 'TRADING',
            baseAsset: base,
            quoteAsset: 'USDT',
            marginAsset: 'USDT',
            pricePrecision: 2,
            quantityPrecision: 3,
            baseAssetPrecision: 8,
            quotePrecision: 8,
            filters: [],
            orderTypes: ['LIMIT', 'MARKET'],
            timeInForce: ['GTC'],
          })),
        });
        return;
      case '/fapi/v1/klines': {
        const lengthMs = TIMEFRAME_MS[q.get('interval') ?? ''] ?? 60_000;
        const limit = Number(q.get('limit') ?? 500);
        const startMs = Number(q.get('startTime') ?? now() - limit * lengthMs);
        const rows = candlesBetween(lengthMs, startMs, Number.POSITIVE_INFINITY)
          .slice(0, limit)
          .map((c) => [
            c.openMs,
            String(c.open),
            String(c.high),
            String(c.low),
            String(c.close),
            String(c.volume),
            c.openMs + lengthMs - 1,
            String(c.volume * c.close),
            100,
            '0',
            '0',
            '0',
          ]);
        send(response, 200, rows);
        return;
      }
      case '/fapi/v1/fundingRate': {
        // startTime/endTime inclusive, oldest first, at most `limit` (default 100, max 1000).
        const limit = Math.min(1000, Number(q.get('limit') ?? 100));
        const symbol = q.get('symbol') ?? '';
        const endMs = Number(q.get('endTime') ?? now());
        const startMs = Number(q.get('startTime') ?? 0);
        let marks = marksBetween(startMs - 10, endMs).filter(
          (mark) => binanceFundingTime(mark) >= startMs && binanceFundingTime(mark) <= endMs,
        );
        // Without startTime the most recent records are answered.
        marks = q.has('startTime') ? marks.slice(0, limit) : marks.slice(-limit);
        send(
          response,
          200,
          marks.map((mark) => ({
            symbol,
            fundingTime: binanceFundingTime(mark),
            fundingRate: fakeFundingRate(mark).toFixed(8),
            markPrice: fakeCandle(mark, 3_600_000, now()).open.toFixed(8),
          })),
        );
        return;
      }
      case '/api/v5/public/funding-rate-history': {
        // Records newer than `before` and older than `after`, newest first, at most `limit`
        // (default and max 100). `realizedRate` is what was charged; `fundingRate` differs.
        const limit = Math.min(100, Number(q.get('limit') ?? 100));
        const instId = q.get('instId') ?? '';
        const beforeMs = Number(q.get('before') ?? -1);
        const afterMs = Number(q.get('after') ?? Number.POSITIVE_INFINITY);
        const marks = marksBetween(beforeMs + 1, afterMs - 1)
          .reverse()
          .slice(0, limit);
        send(response, 200, {
          code: '0',
          msg: '',
          data: marks.map((mark) => ({
            instType: 'SWAP',
            instId,
            fundingRate: (fakeFundingRate(mark) + 0.000003).toFixed(8),
            realizedRate: fakeFundingRate(mark).toFixed(8),
            fundingTime: String(mark),
            method: 'current_period',
            formulaType: 'withRate',
          })),
        });
        return;
      }
      case '/api/v5/public/instruments':
        send(response, 200, {
          code: '0',
          msg: '',
          data: OKX_SYMBOLS.map((base) => ({
            instType: 'SWAP',
            instId: `${base}-USDT-SWAP`,
            uly: `${base}-USDT`,
            instFamily: `${base}-USDT`,
            baseCcy: '',
            quoteCcy: '',
            settleCcy: 'USDT',
            ctVal: String(OKX_CONTRACT_VALUE),
            ctValCcy: base,
            ctMult: '1',
            ctType: 'linear',
            state: 'live',
            lever: '100',
            lotSz: '0.01',
            minSz: '0.01',
            tickSz: '0.1',
            listTime: '1606468572000',
          })),
        });
        return;
      case '/api/v5/market/candles':
      case '/api/v5/market/history-candles': {
        const lengthMs = TIMEFRAME_MS[q.get('bar') ?? ''] ?? 60_000;
        const limit = Number(q.get('limit') ?? 100);
        const beforeMs = Number(q.get('before') ?? 0);
        const afterMs = Number(q.get('after') ?? Number.POSITIVE_INFINITY);
        const lastOpenMs = Math.floor(now() / lengthMs) * lengthMs;
        // OKX: records newer than `before` and older than `after`, newest first.
        const rows = candlesBetween(lengthMs, beforeMs + 1, afterMs - 1)
          .reverse()
          .slice(0, limit)
          .map((c) => [
            String(c.openMs),
            String(c.open),
            String(c.high),
            String(c.low),
            String(c.close),
            String(c.volume / OKX_CONTRACT_VALUE),
            String(c.volume),
            String(c.volume * c.close),
            c.openMs === lastOpenMs ? '0' : '1',
          ]);
        send(response, 200, { code: '0', msg: '', data: rows });
        return;
      }
      default:
        send(response, 404, { code: -1, msg: `no route ${url.pathname}` });
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    get fundingListedAtMs() {
      return state.fundingListedAtMs;
    },
    set fundingListedAtMs(value) {
      state.fundingListedAtMs = value;
    },
    get stalledAtMs() {
      return state.stalledAtMs;
    },
    set stalledAtMs(value) {
      state.stalledAtMs = value;
    },
    failingPaths,
    callsTo: (path) => calls.filter((call) => call.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
