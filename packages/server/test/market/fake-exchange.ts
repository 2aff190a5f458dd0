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

export interface FakeExchangeCall {
  path: string;
  query: URLSearchParams;
}

export interface FakeExchange {
  readonly url: string;
  readonly calls: FakeExchangeCall[];
  /** ok: normal; error: every call answers 503; stalled: no candles after `stalledAtMs`. */
  mode: 'ok' | 'error';
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
  const state: { mode: 'ok' | 'error'; stalledAtMs: number | undefined } = {
    mode: 'ok',
    stalledAtMs: undefined,
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
    if (state.mode === 'error') {
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
    get stalledAtMs() {
      return state.stalledAtMs;
    },
    set stalledAtMs(value) {
      state.stalledAtMs = value;
    },
    callsTo: (path) => calls.filter((call) => call.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
