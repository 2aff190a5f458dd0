import ccxt, { type Exchange as CcxtExchange } from 'ccxt';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import type { CcxtExchangeClientOptions } from './ccxt-exchange-client.js';
import { installRequestBudget, installVenuePacing } from './request-budget.js';

// The ccxt instance a client drives: its class per venue, its pacing (lanes, the venue budget),
// OKX's request expiry in the signature, and what the venue said about retrying.

export const CCXT_CLASSES = { binanceusdm: ccxt.binanceusdm, okx: ccxt.okx } as const;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The venue paths of the order requests the core's account lanes pace (ccxt's path names). */
export const LANE_PACED_PATHS: Record<keyof typeof CCXT_CLASSES, ReadonlySet<string>> = {
  binanceusdm: new Set(['order']),
  okx: new Set(['trade/order', 'trade/cancel-order']),
};

export function buildCcxt(
  options: CcxtExchangeClientOptions,
  caps: ExchangeCapabilities,
): CcxtExchange {
  const instance = new CCXT_CLASSES[caps.ccxtId]({
    apiKey: options.apiKey,
    secret: options.apiSecret,
    password: options.apiPassword ?? undefined,
    enableRateLimit: true,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // ccxt never retries on its own: what is safe to retry is decided here.
    options: { ...caps.ccxtOptions, maxRetriesOnFailure: 0 },
  });
  Object.assign(instance.has, caps.ccxtHas);
  // ccxt's pacing, computed per request instead of polled each millisecond.
  installRequestBudget(instance);
  // Then the venue's budget per address, which every account of the deployment draws from. The
  // order requests the core's lanes pace skip ccxt's bucket then (the venue's budget still holds
  // them to the address's weight); without a venue budget every request keeps ccxt's bucket.
  const budget = options.venueBudget;
  if (budget) {
    installVenuePacing(instance, LANE_PACED_PATHS[caps.ccxtId], (cost) =>
      budget.take(options.exchange, cost),
    );
  }
  if (options.isTestnet) instance.setSandboxMode(true);
  if (options.urlsOverride !== undefined) {
    const api = instance.urls.api as Record<string, string>;
    for (const [key, path] of Object.entries(caps.apiUrlPaths)) {
      api[key] = `${options.urlsOverride}${path}`;
    }
  }
  return instance;
}

/** An order request's own time and the moment the venue must refuse it after (wall clock). */
export interface RequestWindow {
  readonly claimedAtMs: number;
  readonly expiresAtMs: number;
}

/** ccxt's offset from the venue's clock (set by loadTimeDifference), in ms. */
export const timeDifferenceOf = (instance: CcxtExchange): number =>
  Number((instance.options as Record<string, unknown>).timeDifference ?? 0) || 0;

/**
 * OKX takes a request's expiry as the `expTime` header: added when ccxt signs an order request
 * whose client id has a window (looked up by the id the request carries, not by its text).
 */
export function addOkxExpiry(
  instance: CcxtExchange,
  windows: ReadonlyMap<string, RequestWindow>,
): void {
  const sign = instance.sign.bind(instance);
  instance.sign = (path, api, method, params, headers, body) => {
    const signed = sign(path, api, method, params, headers, body);
    const clientOrderId = (params as Record<string, unknown> | undefined)?.clOrdId;
    const window = typeof clientOrderId === 'string' ? windows.get(clientOrderId) : undefined;
    if (window && method === 'POST') {
      const expTime = Math.floor(window.expiresAtMs - timeDifferenceOf(instance));
      signed.headers = { ...(signed.headers ?? {}), expTime: String(expTime) };
    }
    return signed;
  };
}

/** Retry-After of the last answer (ccxt keeps its headers), in milliseconds. */
export function retryAfterMsOf(instance: CcxtExchange): number | null {
  const headers = instance.last_response_headers ?? {};
  const value = headers['Retry-After'] ?? headers['retry-after'];
  if (value === undefined) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}
