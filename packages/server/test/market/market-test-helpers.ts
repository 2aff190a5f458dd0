import type { Exchange } from '@quantsquare/contracts';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { CcxtMarketSource } from '../../src/market/ccxt-source.js';
import {
  createFundingRatesRepository,
  createMemoryFundingRatesRepository,
} from '../../src/market/funding-rates.repository.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createMarketFeed, type MarketDataMode } from '../../src/market/market-feed.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { type FakeExchange, startFakeExchange } from './fake-exchange.js';

/** Real ccxt clients for both exchanges, pointed at a fake exchange (or a dead address). */
export function liveSourcesAt(url: string): Record<Exchange, CcxtMarketSource> {
  return {
    binance: new CcxtMarketSource('binance', { requestTimeoutMs: 2000, apiBaseUrl: url }),
    okx: new CcxtMarketSource('okx', { requestTimeoutMs: 2000, apiBaseUrl: url }),
  };
}

export function feedAt(options: {
  mode: MarketDataMode;
  url: string;
  clock: ManualClock;
  database?: DatabaseHandle;
}): MarketFeed {
  return createMarketFeed({
    mode: options.mode,
    clock: options.clock,
    candles: options.database ? createCandlesRepository(options.database.db) : undefined,
    fundingRates: options.database
      ? createFundingRatesRepository(options.database.db)
      : createMemoryFundingRatesRepository(),
    liveSources: liveSourcesAt(options.url),
    liveRefreshIntervalMs: 0,
  });
}

/** A port nothing listens on (connections are refused). */
export const REFUSING_URL = 'http://127.0.0.1:9';

/**
 * A file's test database, and per test a fresh manual clock (2026-01-15 08:30 UTC) and a fake
 * venue on it, handed to `use` as each is made. Call it at the top of a test file (it registers
 * the file's hooks).
 */
export function useFakeVenueRig(
  use: (rig: { database?: DatabaseHandle; clock?: ManualClock; fake?: FakeExchange }) => void,
): void {
  let database: DatabaseHandle | undefined;
  let fake: FakeExchange | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    use({ database });
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 8, 30, 0));
    fake = await startFakeExchange(() => clock.now().getTime());
    use({ clock, fake });
  });
  afterEach(async () => {
    await fake?.close();
  });
}
