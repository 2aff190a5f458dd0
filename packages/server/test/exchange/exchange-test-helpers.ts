import type { Exchange } from '@quantsquare/contracts';
import {
  type CcxtExchangeClientOptions,
  createCcxtExchangeClient,
} from '../../src/exchange/ccxt/index.js';
import type { ExchangeClient } from '../../src/exchange/exchange-client.js';
import { ExchangeAdapterError } from '../../src/exchange/exchange-client.js';
import type { FakePrivateExchange } from './fake-exchange-private.js';

export const API_KEY = 'test-api-key-5f1e2d';
export const API_SECRET = 'test-api-secret-9c8b7a';
export const API_PASSWORD = 'test-passphrase-4d3c';

export interface ClientUnderTest {
  readonly client: ExchangeClient;
  /** Every backoff / Retry-After wait asked of the fake sleep, in ms. */
  readonly sleeps: number[];
}

/** The real ccxt client pointed at the fake, with a sleep that records and returns at once. */
export function clientAt(
  fake: FakePrivateExchange,
  exchange: Exchange,
  overrides: Partial<CcxtExchangeClientOptions> = {},
): ClientUnderTest {
  const sleeps: number[] = [];
  const client = createCcxtExchangeClient({
    exchange,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    apiPassword: API_PASSWORD,
    isTestnet: false,
    positionMode: 'net',
    urlsOverride: fake.url,
    timeoutMs: 400,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return { client, sleeps };
}

/** The adapter error a promise rejects with (fails the test if it resolves or throws another). */
export async function adapterErrorOf(promise: Promise<unknown>): Promise<ExchangeAdapterError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeAdapterError) return error;
    throw error;
  }
  throw new Error('expected an ExchangeAdapterError, got a result');
}
