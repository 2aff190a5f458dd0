import {
  backtestResponse,
  DEFAULT_SYMBOLS,
  dataFreshness,
  marketDataResponse,
  marketStatusResponse,
  strategyList,
  symbolsResponse,
  TIMEFRAMES,
} from '@quantsquare/contracts';
import { STRATEGY_TYPES } from '@quantsquare/engine';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });
const BTC = encodeURIComponent('BTC/USDT:USDT');

describe('GET /api/trading/strategies/', () => {
  it('lists the engine strategies with ids 1..n in a stable order and their parameter specs', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/strategies/');
    expect(res.status).toBe(200);
    const body = strategyList.parse(res.body);
    expect(body.count).toBe(STRATEGY_TYPES.length);
    expect(body.results.map((s) => [s.id, s.type])).toEqual(
      STRATEGY_TYPES.map((type, i) => [i + 1, type]),
    );
    expect(body.results[0]).toMatchObject({
      type: 'ma_cross',
      parameters: { fast_period: 7, slow_period: 25 },
    });
  });
});

describe('GET /api/trading/symbols/', () => {
  it('answers the simulated list with the dashboard defaults first, labelled simulated', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/symbols/?exchange=okx');
    expect(res.status).toBe(200);
    const body = symbolsResponse.parse(res.body);
    expect(body).toMatchObject({ exchange: 'okx', source: 'simulated' });
    expect(body.symbols.slice(0, 3)).toEqual([...DEFAULT_SYMBOLS]);
  });

  it('defaults to binance', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/symbols/');
    expect(res.body).toMatchObject({ exchange: 'binance' });
  });
});

describe('GET /api/trading/market-data/', () => {
  it.each([
    ['ma_cross', ['ma_fast', 'ma_slow']],
    ['rsi_reversion', ['rsi']],
    ['macd_cross', ['ma_fast', 'ma_slow', 'macd', 'macd_signal', 'macd_histogram']],
    ['bollinger_breakout', ['bb_upper', 'bb_middle', 'bb_lower']],
  ])('answers the %s strategy its own lines and no others', async (type, own) => {
    const res = await call(
      ctx.app,
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=1h&limit=200&strategy_type=${type}`,
    );
    expect(res.status).toBe(200);
    const { indicators } = marketDataResponse.parse(res.body);
    const lines = Object.entries(indicators)
      .filter(([name, values]) => !name.endsWith('_signals') && values.length > 0)
      .map(([name]) => name);
    expect(lines.sort()).toEqual([...own].sort());
    for (const name of own) {
      expect(indicators[name as keyof typeof indicators]).toHaveLength(200);
    }
  });

  it('answers 1000 candles with one indicator entry per candle, signals on closed candles only', async () => {
    const res = await call(
      ctx.app,
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=1h&limit=1000&exchange=binance`,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = marketDataResponse.parse(res.body);
    expect(body).toMatchObject({
      exchange: 'binance',
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      source: 'simulated',
      strategy_type: 'ma_cross',
    });
    expect(body.candles).toHaveLength(1000);
    expect(body.indicators.ma_fast).toHaveLength(1000);
    expect(body.indicators.ma_slow).toHaveLength(1000);
    expect(body.indicators.ma_fast.slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(body.indicators.ma_fast[6]).toEqual(expect.any(Number));
    expect(body.indicators.ma_slow[23]).toBeNull();
    expect(body.indicators.ma_slow[24]).toEqual(expect.any(Number));
    const signals = [...body.indicators.buy_signals, ...body.indicators.sell_signals];
    expect(signals.length).toBeGreaterThan(0);
    expect(Math.max(...signals)).toBeLessThan(999);
    // The last candle is the forming one, containing the clock's now.
    const nowMs = ctx.clock.now().getTime();
    expect(body.candles.at(-1)!.timestamp).toBe(Math.floor(nowMs / 3_600_000) * 3_600_000);
    expect(body.freshness).toMatchObject({ is_fresh: true, source: 'simulated' });
  });

  it('answers the same bytes while nothing changes and new ones when the clock moves', async () => {
    const url = `/api/trading/market-data/?symbol=${BTC}&timeframe=5m&limit=300`;
    const first = await ctx.app.inject({ method: 'GET', url });
    const second = await ctx.app.inject({ method: 'GET', url });
    expect(second.body).toBe(first.body);
    ctx.clock.advanceSeconds(20);
    const third = await ctx.app.inject({ method: 'GET', url });
    expect(third.body).not.toBe(first.body);
    const before = marketDataResponse.parse(first.json());
    const after = marketDataResponse.parse(third.json());
    expect(after.candles.slice(0, -1)).toEqual(before.candles.slice(0, -1));
    expect(after.candles.at(-1)).not.toEqual(before.candles.at(-1));
  });

  it('defaults to 1h, 1000 candles, binance and ma_cross', async () => {
    const res = await call(ctx.app, 'GET', `/api/trading/market-data/?symbol=${BTC}`);
    const body = marketDataResponse.parse(res.body);
    expect(body).toMatchObject({ timeframe: '1h', exchange: 'binance', strategy_type: 'ma_cross' });
    expect(body.candles).toHaveLength(1000);
  });

  it('serves the lines and signals of another strategy', async () => {
    const res = await call(
      ctx.app,
      'GET',
      `/api/trading/market-data/?symbol=${BTC}&timeframe=15m&limit=200&strategy_type=rsi_reversion`,
    );
    const body = marketDataResponse.parse(res.body);
    expect(body.strategy_type).toBe('rsi_reversion');
    expect(body.indicators.rsi).toHaveLength(200);
  });
});

describe('POST /api/trading/backtest/', () => {
  it('runs the strategy on closed candles and answers the engine report', async () => {
    const res = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      body: {
        symbol: 'ETH/USDT:USDT',
        timeframe: '1h',
        strategy_type: 'ma_cross',
        parameters: { fast_period: 5, slow_period: 20 },
        exchange: 'okx',
        limit: 500,
      },
    });
    expect(res.status).toBe(200);
    const body = backtestResponse.parse(res.body);
    expect(body).toMatchObject({
      exchange: 'okx',
      symbol: 'ETH/USDT:USDT',
      source: 'simulated',
      parameters: { fast_period: 5, slow_period: 20 },
    });
    expect(body.candles).toHaveLength(500);
    const nowMs = ctx.clock.now().getTime();
    expect(body.candles.at(-1)!.timestamp + 3_600_000).toBeLessThanOrEqual(nowMs);
    expect(body.backtest.equity_curve).toHaveLength(500);
    expect(body.backtest.initial_balance).toBe('10000');
    expect(body.backtest.assumptions.initial_balance).toBe('10000');
    expect(body.backtest.trade_count).toBe(body.backtest.trades.length);
    expect(body.backtest.assumptions.fee_rate).toBe(0.0005);
    // Money, prices and sizes are decimal strings in plain notation; percentages stay numbers.
    const plain = /^-?\d+(\.\d+)?$/;
    expect(body.backtest.final_balance).toMatch(plain);
    expect(body.backtest.funding_paid).toMatch(plain);
    expect(typeof body.backtest.total_return).toBe('number');
    expect(body.backtest.trades.length).toBeGreaterThan(0);
    for (const trade of body.backtest.trades) {
      for (const money of [
        trade.entry_price,
        trade.exit_price,
        trade.amount,
        trade.pnl,
        trade.fee,
      ]) {
        expect(money).toMatch(plain);
      }
      expect(typeof trade.pnl_percent).toBe('number');
    }
    expect(typeof body.backtest.equity_curve[0]!.equity).toBe('number');
  });

  it('applies the settings', async () => {
    const res = await call(ctx.app, 'POST', '/api/trading/backtest/', {
      body: {
        symbol: 'BTC/USDT:USDT',
        limit: 300,
        settings: {
          initial_balance: 5000,
          slippage_bps: 5,
          stop_loss_percentage: 2,
          direction: 'long_only',
          leverage: 3,
        },
      },
    });
    expect(res.status).toBe(200);
    const body = backtestResponse.parse(res.body);
    expect(body.backtest.initial_balance).toBe('5000');
    expect(body.backtest.assumptions).toMatchObject({
      initial_balance: '5000',
      slippage_bps: 5,
      stop_loss_percent: 2,
      direction: 'long_only',
      leverage: 3,
    });
    expect(body.backtest.trades.every((t) => t.side === 'long')).toBe(true);
  });

  it('agrees with the market-data signals on the same closed candles', async () => {
    const backtest = backtestResponse.parse(
      (
        await call(ctx.app, 'POST', '/api/trading/backtest/', {
          body: { symbol: 'DOGE/USDT:USDT', timeframe: '4h', limit: 300 },
        })
      ).body,
    );
    const chart = marketDataResponse.parse(
      (
        await call(
          ctx.app,
          'GET',
          `/api/trading/market-data/?symbol=${encodeURIComponent('DOGE/USDT:USDT')}&timeframe=4h&limit=301`,
        )
      ).body,
    );
    expect(chart.candles.slice(0, 300)).toEqual(backtest.candles);
    expect(chart.indicators.buy_signals).toEqual(backtest.indicators.buy_signals);
    expect(chart.indicators.sell_signals).toEqual(backtest.indicators.sell_signals);
  });
});

describe('GET /api/trading/data-freshness/ and /market-status/', () => {
  it('answers the freshness of one series', async () => {
    const res = await call(
      ctx.app,
      'GET',
      `/api/trading/data-freshness/?symbol=${BTC}&timeframe=4h&exchange=okx`,
    );
    expect(res.status).toBe(200);
    expect(dataFreshness.parse(res.body)).toMatchObject({
      is_fresh: true,
      delay_seconds: 0,
      max_allowed_delay: 1440,
      source: 'simulated',
    });
  });

  it('answers every exchange × listed symbol × timeframe', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/market-status/');
    expect(res.status).toBe(200);
    const body = marketStatusResponse.parse(res.body);
    expect(Object.keys(body.exchanges)).toEqual(['binance', 'okx']);
    for (const [name, exchange] of Object.entries(body.exchanges)) {
      expect(exchange.source).toBe('simulated');
      // Every symbol the selector offers, not only the three defaults.
      const listed = symbolsResponse.parse(
        (await call(ctx.app, 'GET', `/api/trading/symbols/?exchange=${name}`)).body,
      ).symbols;
      expect(listed.length).toBeGreaterThan(DEFAULT_SYMBOLS.length);
      expect(Object.keys(exchange.symbols)).toEqual(listed);
      for (const symbol of Object.values(exchange.symbols)) {
        expect(Object.keys(symbol.timeframes)).toEqual([...TIMEFRAMES]);
        expect(Object.values(symbol.timeframes).every((t) => t.is_fresh)).toBe(true);
      }
    }
  });

  it('needs no login', async () => {
    const res = await call(ctx.app, 'GET', '/api/trading/market-status/', {
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(res.status).toBe(200);
  });
});
