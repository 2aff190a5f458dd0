import { readFileSync } from 'node:fs';
import ccxt, { type Exchange as CcxtExchange } from 'ccxt';
import { EXCHANGE_CAPABILITIES } from '../../src/exchange/exchange-capabilities.js';
import { API_KEY, API_PASSWORD, API_SECRET } from './exchange-test-helpers.js';
import type { FakePrivateExchange, FakeVenue } from './fake-exchange-private.js';

// A bare ccxt instance pointed at a fake venue the way our ccxt client points its own (the
// capability table's `apiUrlPaths` below `urlsOverride`), for tests that look at the venue's
// answers as ccxt parses them, and the recorded real answers they are held against.

export const SYMBOLS = { BTC: 'BTC/USDT:USDT', ETH: 'ETH/USDT:USDT' } as const;

/** Real ccxt (binanceusdm / okx) at the fake, markets loaded, no rate limiter, no retries. */
export async function ccxtAt(fake: FakePrivateExchange, venue: FakeVenue): Promise<CcxtExchange> {
  const caps = EXCHANGE_CAPABILITIES[venue];
  const Venue = { binanceusdm: ccxt.binanceusdm, okx: ccxt.okx }[caps.ccxtId];
  const instance = new Venue({
    apiKey: API_KEY,
    secret: API_SECRET,
    password: API_PASSWORD,
    enableRateLimit: false,
    timeout: 2_000,
    options: { ...caps.ccxtOptions, maxRetriesOnFailure: 0 },
  });
  Object.assign(instance.has, caps.ccxtHas);
  const api = instance.urls.api as Record<string, string>;
  for (const [key, path] of Object.entries(caps.apiUrlPaths)) api[key] = `${fake.url}${path}`;
  await instance.loadMarkets();
  return instance;
}

/** A recorded answer file of recorded/ (see recorded/README.md for where each came from). */
export function recorded<T = Record<string, Record<string, unknown>>>(file: string): T {
  return JSON.parse(readFileSync(new URL(`./recorded/${file}`, import.meta.url), 'utf8')) as T;
}

/**
 * The defined fields of a parsed ccxt order or trade and their types (`fee.cost`,
 * `fee.currency` inside the fee), leaving out `info` and the derived `fees`/`trades` lists.
 */
export function shapeOf(parsed: object): Record<string, string> {
  const shape: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'info' || key === 'fees' || key === 'trades') continue;
    if (value === undefined || value === null) continue;
    if (key === 'fee' && typeof value === 'object') {
      for (const [feeKey, feeValue] of Object.entries(value as Record<string, unknown>)) {
        if (feeValue !== undefined && feeValue !== null) shape[`fee.${feeKey}`] = typeof feeValue;
      }
      continue;
    }
    shape[key] = typeof value;
  }
  return shape;
}

/** The ccxt error class a promise rejects with (fails when it resolves). */
export async function ccxtErrorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected a ccxt error, got an answer');
}
