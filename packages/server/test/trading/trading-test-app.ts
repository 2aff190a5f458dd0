import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { buildStandaloneApp } from '../helpers/standalone-app.js';
import { TEST_SECRET_KEY } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { type FakeExchange, startFakeExchange } from '../market/fake-exchange.js';
import { feedAt } from '../market/market-test-helpers.js';

export interface TradingTestApp {
  readonly app: FastifyInstance;
  readonly clock: ManualClock;
  readonly database: DatabaseHandle;
}

/**
 * The whole app on a fresh database with an injected market feed (built from the test's clock
 * and database), for one test file.
 */
export function useTradingApp(
  makeFeed: (clock: ManualClock, database: DatabaseHandle) => MarketFeed | Promise<MarketFeed>,
  start: Date | number = Date.UTC(2026, 0, 15, 8, 30, 0),
): TradingTestApp {
  let current: (TradingTestApp & { dataDir: string }) | undefined;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-test-data-'));
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        SECRET_KEY: TEST_SECRET_KEY,
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(dataDir, 'none'),
      },
      { generateSecret: false },
    );
    const database = await createTestDatabase();
    const clock = new ManualClock(start);
    const app = await buildStandaloneApp({
      config,
      db: database.db,
      databaseKind: database.kind,
      clock,
      logger: false,
      marketFeed: await makeFeed(clock, database),
    });
    await app.ready();
    current = { app, clock, database, dataDir };
  });
  afterAll(async () => {
    await current?.app.close();
    await current?.database.close();
    if (current) rmSync(current.dataDir, { recursive: true, force: true });
  });
  const get = () => {
    if (!current) throw new Error('The test app is used before beforeAll ran');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get clock() {
      return get().clock;
    },
    get database() {
      return get().database;
    },
  };
}

/**
 * A trading app on live market data from a fake venue (through ccxt), whose clock is the app's,
 * and a user signed in on it: for the tests of what live data changes (funding, candles).
 */
export function useLiveVenueApp(emailPrefix: string) {
  let fake: FakeExchange | undefined;
  let nowMs = Date.UTC(2026, 0, 15, 8, 30, 0);
  let token: string | undefined;
  beforeAll(async () => {
    fake = await startFakeExchange(() => nowMs);
  });
  afterAll(async () => {
    await fake?.close();
  });
  const app = useTradingApp((clock, database) => {
    nowMs = clock.now().getTime();
    return feedAt({ mode: 'live', url: venue().url, clock, database });
  });
  beforeAll(async () => {
    token = (await registerEmail(app.app, uniqueEmail(emailPrefix))).access;
  });
  const venue = () => {
    if (!fake) throw new Error('The fake venue is used before beforeAll ran');
    return fake;
  };
  return {
    app,
    venue,
    token: () => {
      if (token === undefined) throw new Error('The user is used before beforeAll ran');
      return token;
    },
  };
}
