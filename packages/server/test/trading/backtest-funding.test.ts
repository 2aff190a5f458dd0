// Funding in backtests of perpetuals over HTTP: charged by default on a perpetual symbol,
// labelled simulated on the simulated market, in the equity curve, and off on request.
import { backtestResponse } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });
const EIGHT_HOURS_MS = 8 * 3_600_000;

// Long from the first candle to the last: one trade, so funding cannot change any sizing and
// the two runs differ by the funding alone.
const HOLD_LONG = {
  entry_long: { left: { price: 'close' }, op: 'gt', right: { value: 0 } },
  exit_long: null,
  entry_short: null,
  exit_short: null,
};

let token: string;
beforeAll(async () => {
  token = (await registerEmail(ctx.app, uniqueEmail('funding'))).access;
});

async function backtest(body: Record<string, unknown>) {
  const res = await call(ctx.app, 'POST', '/api/trading/backtest/', {
    token,
    body: { symbol: 'ETH/USDT:USDT', timeframe: '1h', limit: 300, rules: HOLD_LONG, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return backtestResponse.parse(res.body);
}

describe('funding in POST /trading/backtest/', () => {
  it('charges perpetual funding by default; with and without differ by exactly funding_paid', async () => {
    const withFunding = await backtest({});
    const without = await backtest({ include_funding: false });
    expect(withFunding.funding_source).toBe('simulated');
    expect(without.funding_source).toBeNull();
    expect(withFunding.backtest.trade_count).toBe(1);
    expect(without.backtest.funding_paid).toBe('0');
    const paid = Number(withFunding.backtest.funding_paid);
    expect(paid).not.toBe(0);
    // Each figure is written at 8 decimals, so they agree to 7.
    expect(
      Number(without.backtest.final_balance) - Number(withFunding.backtest.final_balance),
    ).toBeCloseTo(paid, 7);
    // The equity curve carries it: the gap grows only at the 8-hour marks.
    const gaps = without.backtest.equity_curve.map(
      (point, i) => point.equity - (withFunding.backtest.equity_curve[i]?.equity ?? 0),
    );
    for (let i = 1; i < gaps.length - 1; i++) {
      const time = withFunding.backtest.equity_curve[i]!.time;
      if (time % EIGHT_HOURS_MS !== 0) expect(gaps[i]).toBeCloseTo(gaps[i - 1]!, 8);
    }
    expect(withFunding.backtest.assumptions.funding_rule).toContain('simulated');
    expect(without.backtest.assumptions.funding_rule).toBe('No funding charged.');
  });
});
