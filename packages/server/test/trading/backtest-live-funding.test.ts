// Funding in backtests on live market data over HTTP: the venue's own settlements (fake venue
// through ccxt), labelled live, charged on the position held at each settlement, stored so the
// next backtest over the range asks the venue nothing.
import { backtestResponse } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app.js';
import { fakeFundingRate } from '../market/fake-exchange.js';
import { useLiveVenueApp } from './trading-test-app.js';

const EIGHT_HOURS_MS = 8 * 3_600_000;
const FUNDING_PATH = '/fapi/v1/fundingRate';

// Long from the second candle to the end of the data: one trade, held over every settlement.
const HOLD_LONG = {
  entry_long: { left: { price: 'close' }, op: 'gt', right: { value: 0 } },
  exit_long: null,
  entry_short: null,
  exit_short: null,
};

const rig = useLiveVenueApp('live-funding');
const live = rig.app;

async function backtest(body: Record<string, unknown>) {
  const res = await call(live.app, 'POST', '/api/trading/backtest/', {
    token: rig.token(),
    body: {
      exchange: 'binance',
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      limit: 300,
      rules: HOLD_LONG,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return backtestResponse.parse(res.body);
}

describe('funding in POST /trading/backtest/ on live data', () => {
  it('charges the venue’s rates on the position held at each settlement, labelled live', async () => {
    const withFunding = await backtest({ include_funding: true });
    const without = await backtest({ include_funding: false });
    expect(withFunding.source).toBe('live');
    expect(withFunding.funding_source).toBe('live');
    expect(withFunding.backtest.assumptions.funding_source).toBe('live');
    expect(withFunding.backtest.assumptions.funding_rule).toContain('live rates');
    expect(withFunding.backtest.assumptions.funding_incomplete).toBe(false);
    expect(without.funding_source).toBeNull();
    expect(withFunding.backtest.trade_count).toBe(1);
    const trade = withFunding.backtest.trades[0]!;
    const candles = withFunding.candles;
    const last = candles[candles.length - 1]!.timestamp;
    // The sum from the fake's rates: at each settlement while the long is held (entered at an
    // open after it, or held through the last candle), notional at that candle's open × rate.
    // The answer writes the amount and the sum at 8 decimals: `slack` is what that rounding
    // (half a unit of the 8th decimal in each) can move the sum by.
    const amount = Number(trade.amount);
    let expected = 0;
    let slack = 5e-9;
    let marks = 0;
    for (const candle of candles) {
      if (candle.timestamp % EIGHT_HOURS_MS !== 0) continue;
      if (candle.timestamp <= trade.entry_time || candle.timestamp > last) continue;
      expected += amount * candle.open * fakeFundingRate(candle.timestamp);
      slack += 5e-9 * candle.open * Math.abs(fakeFundingRate(candle.timestamp));
      marks++;
    }
    expect(marks).toBeGreaterThan(30);
    const paid = Number(withFunding.backtest.funding_paid);
    expect(paid).not.toBe(0);
    expect(Math.abs(paid - expected)).toBeLessThanOrEqual(slack);
    // Each figure is written at 8 decimals, so they agree to 7.
    expect(
      Number(without.backtest.final_balance) - Number(withFunding.backtest.final_balance),
    ).toBeCloseTo(paid, 7);
    const calls = rig.venue().callsTo(FUNDING_PATH);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]!.query.get('startTime')).toBe(String(candles[0]!.timestamp));
    expect(calls[0]!.query.get('endTime')).toBe(String(last));

    // Another backtest over the same candles (other settings): the stored rates, no request.
    const again = await backtest({ include_funding: true, settings: { fee_rate: 0.0002 } });
    expect(Math.abs(Number(again.backtest.funding_paid) - expected)).toBeLessThanOrEqual(slack);
    expect(rig.venue().callsTo(FUNDING_PATH)).toHaveLength(calls.length);
  });

  it('charges the stored rates only, and says so, when the venue’s funding history cannot be read', async () => {
    rig.venue().failingPaths.add(FUNDING_PATH);
    let failed: Awaited<ReturnType<typeof backtest>>;
    try {
      failed = await backtest({ symbol: 'ETH/USDT:USDT', include_funding: true });
    } finally {
      rig.venue().failingPaths.delete(FUNDING_PATH);
    }
    // Nothing stored for ETH: no funding charged, no simulated rates in their place.
    expect(failed.source).toBe('live');
    expect(failed.funding_source).toBe('live');
    expect(failed.backtest.funding_paid).toBe('0');
    expect(failed.backtest.assumptions.funding_rule).toMatch(
      /could not be read \(Exchange binance is unavailable.*settlements may be missing/,
    );
    expect(failed.backtest.assumptions.funding_incomplete).toBe(true);
    // The venue back: the same request is not answered from the answer cache.
    const healed = await backtest({ symbol: 'ETH/USDT:USDT', include_funding: true });
    expect(healed.backtest.funding_paid).not.toBe('0');
    expect(healed.backtest.assumptions.funding_rule).not.toMatch(/unavailable/);
    expect(healed.backtest.assumptions.funding_incomplete).toBe(false);
  });
});
