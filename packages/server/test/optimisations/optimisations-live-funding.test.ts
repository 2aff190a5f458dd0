// Walk-forward optimisation on live market data (fake venue through ccxt): its windows are
// charged the venue's funding settlements, like the plain backtest they must equal.
import {
  backtestResponse,
  type OptimisationAnswer,
  optimisationAnswer,
} from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app.js';
import { useLiveVenueApp } from '../trading/trading-test-app.js';

const PATH = '/api/trading/optimisations/';
const FUNDING_PATH = '/fapi/v1/fundingRate';
const WINDOWS = { in_sample_bars: 120, out_of_sample_bars: 60, step_bars: 60 };
const PARAMETERS = { fast_period: 5, slow_period: 20 };

const rig = useLiveVenueApp('opt-live-funding');
const live = rig.app;

async function plain(include_funding: boolean) {
  const res = await call(live.app, 'POST', '/api/trading/backtest/', {
    body: {
      exchange: 'binance',
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      strategy_type: 'ma_cross',
      parameters: PARAMETERS,
      limit: WINDOWS.out_of_sample_bars,
      include_funding,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return backtestResponse.parse(res.body);
}

describe('optimisation on live data', () => {
  it('charges the venue’s funding in every window, as the plain backtest does', async () => {
    const created = await call<{ id: number }>(live.app, 'POST', PATH, {
      token: rig.token(),
      body: {
        strategy_type: 'ma_cross',
        symbol: 'BTC/USDT:USDT',
        timeframe: '1h',
        exchange: 'binance',
        limit: 300,
        parameter_grid: { fast_period: [5], slow_period: [20] },
        windows: WINDOWS,
        objective: 'return',
        include_funding: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(rig.venue().callsTo(FUNDING_PATH).length).toBeGreaterThan(0);
    let answer: OptimisationAnswer | undefined;
    await expect
      .poll(
        async () => {
          const res = await call(live.app, 'GET', `${PATH}${created.body.id}/`, {
            token: rig.token(),
          });
          answer = optimisationAnswer.parse(res.body);
          return answer.status;
        },
        { timeout: 60_000, interval: 100 },
      )
      .not.toBe('running');
    expect(answer).toMatchObject({ status: 'completed', source: 'live' });
    const windows = answer!.results[0]!.windows;
    const last = windows[windows.length - 1]!.out_of_sample;
    const withFunding = await plain(true);
    const without = await plain(false);
    expect(withFunding.funding_source).toBe('live');
    expect(last.final_balance).toBe(withFunding.backtest.final_balance);
    expect(last.total_return).toBe(withFunding.backtest.total_return);
    // The window really was charged (the strategy held a position over a settlement).
    expect(withFunding.backtest.funding_paid).not.toBe('0');
    expect(last.final_balance).not.toBe(without.backtest.final_balance);
  });
});
