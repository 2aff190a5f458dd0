import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });
const BTC = encodeURIComponent('BTC/USDT:USDT');

async function expectFieldError(
  method: 'GET' | 'POST',
  url: string,
  field: string,
  body?: unknown,
): Promise<void> {
  const res = await call(ctx.app, method, url, body === undefined ? {} : { body });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({
    code: 'validation_failed',
    fields: { [field]: [expect.any(String)] },
  });
}

describe('trading calls refuse bad input with 400 and field errors', () => {
  it('refuses an unknown symbol, exchange, timeframe or strategy on market-data', async () => {
    await expectFieldError(
      'GET',
      `/api/trading/market-data/?symbol=${encodeURIComponent('NOPE/USDT:USDT')}`,
      'symbol',
    );
    await expectFieldError('GET', '/api/trading/market-data/?symbol=btc-usdt', 'symbol');
    await expectFieldError(
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&exchange=kraken`,
      'exchange',
    );
    await expectFieldError(
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=2h`,
      'timeframe',
    );
    await expectFieldError(
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&strategy_type=moon`,
      'strategy_type',
    );
  });

  it('refuses a missing symbol', async () => {
    await expectFieldError('GET', '/api/trading/market-data/', 'symbol');
    await expectFieldError('GET', '/api/trading/data-freshness/', 'symbol');
  });

  it('refuses limit 0, 1001 and abc', async () => {
    for (const limit of ['0', '1001', 'abc', '2.5', '-1']) {
      await expectFieldError(
        'GET',
        `/api/trading/market-data/?symbol=${BTC}&limit=${limit}`,
        'limit',
      );
    }
  });

  it('refuses unknown query fields', async () => {
    await expectFieldError('GET', `/api/trading/market-data/?symbol=${BTC}&foo=1`, 'foo');
    await expectFieldError('GET', '/api/trading/symbols/?exchange=okx&foo=1', 'foo');
    await expectFieldError('GET', '/api/trading/symbols/?exchange=bitmex', 'exchange');
  });

  it('refuses an unknown symbol, timeframe or exchange on data-freshness', async () => {
    await expectFieldError(
      'GET',
      `/api/trading/data-freshness/?symbol=${encodeURIComponent('ZZZ/USDT:USDT')}`,
      'symbol',
    );
    await expectFieldError(
      'GET',
      `/api/trading/data-freshness/?symbol=${BTC}&timeframe=3m`,
      'timeframe',
    );
    await expectFieldError(
      'GET',
      `/api/trading/data-freshness/?symbol=${BTC}&exchange=ftx`,
      'exchange',
    );
  });

  it('refuses backtest parameters out of bounds, unknown, non-integer or of the wrong type', async () => {
    const url = '/api/trading/backtest/';
    const base = { symbol: 'BTC/USDT:USDT', strategy_type: 'ma_cross' };
    await expectFieldError('POST', url, 'parameters.fast_period', {
      ...base,
      parameters: { fast_period: 0 },
    });
    await expectFieldError('POST', url, 'parameters.slow_period', {
      ...base,
      parameters: { slow_period: 5000 },
    });
    await expectFieldError('POST', url, 'parameters.fast_period', {
      ...base,
      parameters: { fast_period: 7.5 },
    });
    await expectFieldError('POST', url, 'parameters.fast_period', {
      ...base,
      parameters: { fast_period: '7' },
    });
    await expectFieldError('POST', url, 'parameters.fast_period', {
      ...base,
      parameters: { fast_period: 30, slow_period: 20 },
    });
    await expectFieldError('POST', url, 'parameters.colour', {
      ...base,
      parameters: { colour: 1 },
    });
    await expectFieldError('POST', url, 'parameters', { ...base, parameters: [1, 2] });
    await expectFieldError('POST', url, 'strategy_type', { ...base, strategy_type: 'martingale' });
  });

  it('refuses backtest bodies with unknown fields, wrong types or bad settings', async () => {
    const url = '/api/trading/backtest/';
    const base = { symbol: 'BTC/USDT:USDT' };
    await expectFieldError('POST', url, 'extra', { ...base, extra: true });
    await expectFieldError('POST', url, 'limit', { ...base, limit: 1001 });
    await expectFieldError('POST', url, 'limit', { ...base, limit: 0 });
    await expectFieldError('POST', url, 'symbol', { symbol: 42 });
    await expectFieldError('POST', url, 'symbol', {});
    await expectFieldError('POST', url, 'symbol', { symbol: 'NOPE/USDT:USDT' });
    await expectFieldError('POST', url, 'timeframe', { ...base, timeframe: '1w' });
    await expectFieldError('POST', url, 'exchange', { ...base, exchange: 'huobi' });
    await expectFieldError('POST', url, 'settings.leverage', {
      ...base,
      settings: { leverage: 500 },
    });
    await expectFieldError('POST', url, 'settings.fee_rate', {
      ...base,
      settings: { fee_rate: -1 },
    });
    await expectFieldError('POST', url, 'settings.unknown', { ...base, settings: { unknown: 1 } });
    await expectFieldError('POST', url, 'settings.direction', {
      ...base,
      settings: { direction: 'sideways' },
    });
  });

  it('answers 400 for a malformed JSON body and never a 5xx', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/trading/backtest/',
      headers: { 'content-type': 'application/json' },
      payload: '{"symbol": ',
    });
    expect(res.statusCode).toBe(400);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/trading/backtest/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
  });
});
