import { dataFreshness, marketDataResponse, symbolsResponse } from '@quantsquare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app.js';
import { type FakeExchange, startFakeExchange } from '../market/fake-exchange.js';
import { feedAt, REFUSING_URL } from '../market/market-test-helpers.js';
import { useTradingApp } from './trading-test-app.js';

const BTC = encodeURIComponent('BTC/USDT:USDT');
let fake: FakeExchange;
let nowMs = Date.UTC(2026, 0, 15, 8, 30, 0);

beforeAll(async () => {
  fake = await startFakeExchange(() => nowMs);
});
afterAll(async () => {
  await fake.close();
});

describe('trading calls on the live feed (fake exchange through ccxt)', () => {
  const live = useTradingApp((clock, database) => {
    nowMs = clock.now().getTime();
    return feedAt({ mode: 'live', url: fake.url, clock, database });
  });

  it('labels live answers and serves the exchange’s symbol list', async () => {
    const symbols = symbolsResponse.parse(
      (await call(live.app, 'GET', '/api/trading/symbols/?exchange=binance')).body,
    );
    expect(symbols).toEqual({
      exchange: 'binance',
      source: 'live',
      symbols: ['BTC/USDT:USDT', 'DOGE/USDT:USDT', 'ETH/USDT:USDT', 'SOL/USDT:USDT'],
    });
    const res = await call(
      live.app,
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=1h&limit=1000&exchange=okx`,
    );
    expect(res.status).toBe(200);
    const body = marketDataResponse.parse(res.body);
    expect(body.source).toBe('live');
    expect(body.candles).toHaveLength(1000);
    expect(body.freshness).toMatchObject({ is_fresh: true, source: 'live' });
  });

  it('refuses a symbol the exchange does not list with a field error', async () => {
    const res = await call(
      live.app,
      'GET',
      `/api/trading/market-data/?symbol=${encodeURIComponent('SOL/USDT:USDT')}&exchange=okx`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ fields: { symbol: [expect.any(String)] } });
  });

  it('answers 503 exchange_unavailable in live mode when the exchange fails', async () => {
    fake.mode = 'error';
    try {
      live.clock.advanceSeconds(60);
      nowMs = live.clock.now().getTime();
      const res = await call(
        live.app,
        'GET',
        `/api/trading/data-freshness/?symbol=${BTC}&timeframe=1m`,
      );
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'exchange_unavailable' });
    } finally {
      fake.mode = 'ok';
    }
  });
});

describe('trading calls in auto mode with an unreachable exchange', () => {
  const auto = useTradingApp((clock, database) =>
    feedAt({ mode: 'auto', url: REFUSING_URL, clock, database }),
  );

  it('falls back to simulated data and says so', async () => {
    const res = await call(
      auto.app,
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=1h&limit=100`,
    );
    expect(res.status).toBe(200);
    expect(marketDataResponse.parse(res.body).source).toBe('simulated');
    const freshness = dataFreshness.parse(
      (await call(auto.app, 'GET', `/api/trading/data-freshness/?symbol=${BTC}`)).body,
    );
    expect(freshness).toMatchObject({ source: 'simulated', is_fresh: true });
  });
});
