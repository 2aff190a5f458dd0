import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { type LogStream, loggerOptions } from '../../src/common/logger.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { Mailer, SmsProvider } from '../../src/delivery/delivery.adapters.js';
import type { EventBus } from '../../src/events/index.js';
import type { ExchangeClientFactory } from '../../src/exchange/exchange-client-factory.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { ccxtMarketSources } from '../../src/market/ccxt-source.js';
import { createMemoryFundingRatesRepository } from '../../src/market/funding-rates.repository.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import type { BotControl } from '../../src/modules/bots/bot-control.js';
import { buildStandaloneApp } from './standalone-app.js';
import { createTestDatabase } from './test-database.js';

export const TEST_SECRET_KEY = 'test-secret-key-0123456789-abcdefghijklmnop';

export interface TestAppOptions {
  env?: Record<string, string>;
  config?: Partial<Config>;
  mailer?: Mailer;
  smsProvider?: SmsProvider;
  /** Registers extra routes before the app is ready (e.g. one that fails on purpose). */
  extend?: (app: FastifyInstance) => void;
  /** Replaces the exchange client factory (paper/ccxt by default). */
  exchangeClientFactory?: (deps: {
    database: DatabaseHandle;
    clock: ManualClock;
    config: Config;
  }) => ExchangeClientFactory;
  /**
   * The bot engine's start/stop; the /trading/bots/ routes are served only with one. The app
   * then runs on a market feed made here, which the factory receives to share with an engine.
   */
  botControl?: (deps: {
    database: DatabaseHandle;
    clock: ManualClock;
    config: Config;
    marketFeed: MarketFeed;
  }) => BotControl;
  /** The event bus the app publishes on (in-process by default). */
  eventBus?: EventBus;
  /** Receives the app's log lines (the production logger at level info); silent by default. */
  logStream?: LogStream;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

/** The whole app on a fresh database of its own, with a clock that moves only when told to. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-test-data-'));
  const base = loadConfig(
    {
      NODE_ENV: 'test',
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
      ...options.env,
    },
    { generateSecret: false },
  );
  // Tests call the sign-in routes far more than 60 times a minute from one address.
  const config = Object.freeze({ ...base, authIpRatePerMinute: 100_000, ...options.config });
  const database = await createTestDatabase();
  const clock = new ManualClock();
  const marketFeed = options.botControl
    ? createMarketFeed({
        mode: config.marketData,
        clock,
        candles: createCandlesRepository(database.db),
        fundingRates: createMemoryFundingRatesRepository(),
        ...(config.marketData === 'simulated' ? {} : { liveSources: ccxtMarketSources() }),
      })
    : undefined;
  const app = await buildStandaloneApp({
    config,
    db: database.db,
    databaseKind: database.kind,
    clock,
    mailer: options.mailer,
    smsProvider: options.smsProvider,
    logger: options.logStream ? loggerOptions('info', options.logStream) : false,
    exchangeClientFactory: options.exchangeClientFactory?.({ database, clock, config }),
    marketFeed,
    botControl: marketFeed && options.botControl?.({ database, clock, config, marketFeed }),
    eventBus: options.eventBus,
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Builds one app for the test file (beforeAll) and tears it down (afterAll). */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const get = (): TestApp => {
    if (!current) throw new Error('The test app is used before beforeAll ran');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get database() {
      return get().database;
    },
    get clock() {
      return get().clock;
    },
    get config() {
      return get().config;
    },
    close: () => get().close(),
  };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A JSON call through app.inject. */
export async function call<T = Record<string, unknown>>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
  });
  const text = response.body;
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.statusCode, body: body as T, headers: response.headers };
}
