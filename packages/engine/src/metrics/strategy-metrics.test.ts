import { describe, expect, it } from 'vitest';
import { inferCashFlows } from './cash-flows.js';
import { applyTradeToBook, FLAT_TRADE_BOOK } from './position-book.js';
import {
  annualisedSharpe,
  annualisedSortino,
  DAY_MS,
  dailyPoints,
  daysOfHistory,
  HOUR_MS,
  indexMaxDrawdownPercent,
  mergeEquitySeries,
  periodFigures,
  subPeriodReturns,
  timeWeightedReturnPercent,
  winRatePercent,
} from './strategy-metrics.js';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const at = (hour: number) => T0 + hour * HOUR_MS;
const series = (...equity: number[]) => equity.map((e, i) => ({ timeMs: at(i), equity: e }));
const returnsOf = (...r: number[]) => r.map((value, i) => ({ timeMs: at(i + 1), r: value }));

describe('time-weighted return: deposits and withdrawals do not distort it', () => {
  // Each row: a named scenario, hourly equity, the flows, then the TWR and P&L it must give.
  const cases: {
    name: string;
    equity: number[];
    flows: { hour: number; amount: number }[];
    twr: number;
    pnl: number;
    drawdown: number;
  }[] = [
    {
      name: 'no flows: the plain return',
      equity: [1000, 1100, 990],
      flows: [],
      twr: -1,
      pnl: -10,
      drawdown: 10,
    },
    {
      name: 'a deposit after a +10% hour, then another +10% hour (ROI would say +131%)',
      equity: [1000, 1100, 2100, 2310],
      flows: [{ hour: 2, amount: 1000 }],
      twr: 21,
      pnl: 310,
      drawdown: 0,
    },
    {
      name: 'a withdrawal after +20%, then −10%',
      equity: [1000, 1200, 600, 540],
      flows: [{ hour: 2, amount: -600 }],
      twr: 8,
      pnl: 140,
      drawdown: 10,
    },
    {
      name: 'withdrawing 90% is not a 90% drawdown',
      equity: [1000, 1000, 100, 100],
      flows: [{ hour: 2, amount: -900 }],
      twr: 0,
      pnl: 0,
      drawdown: 0,
    },
    {
      name: 'an interval starting from zero equity (funded later) is skipped',
      equity: [0, 500, 550],
      flows: [{ hour: 1, amount: 500 }],
      twr: 10,
      pnl: 50,
      drawdown: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const points = series(...c.equity);
      const flows = c.flows.map((f) => ({ timeMs: at(f.hour), amount: f.amount }));
      const returns = subPeriodReturns(points, flows);
      expect(timeWeightedReturnPercent(returns)).toBeCloseTo(c.twr, 9);
      expect(indexMaxDrawdownPercent(returns)).toBeCloseTo(c.drawdown, 9);
      const figures = periodFigures(
        { points, flows, fillTimesMs: [], closedTrades: [] },
        at(c.equity.length - 1),
        null,
      );
      expect(Number(figures.pnl)).toBeCloseTo(c.pnl, 9);
      expect(figures.returnPercent).toBeCloseTo(c.twr, 9);
    });
  }
});

describe('Sharpe and Sortino from hourly returns, annualised by √8760', () => {
  const annual = Math.sqrt(8760);
  it('computes both on a known series', () => {
    // mean 0.005; sample stdev √(0.0005/3); downside deviation √(0.0001/4) = 0.005.
    const returns = returnsOf(0.01, -0.01, 0.02, 0);
    expect(annualisedSharpe(returns)).toBeCloseTo((0.005 / Math.sqrt(0.0005 / 3)) * annual, 9);
    expect(annualisedSortino(returns)).toBeCloseTo(annual, 9);
  });
  it('is null with fewer than two returns, without spread, or (Sortino) without a losing hour', () => {
    expect(annualisedSharpe(returnsOf(0.01))).toBeNull();
    expect(annualisedSharpe(returnsOf(0.01, 0.01, 0.01))).toBeNull();
    expect(annualisedSortino(returnsOf(0.01, 0.02))).toBeNull();
    expect(annualisedSortino(returnsOf(0.01))).toBeNull();
  });
  it('ranks a steady series above a jumpy one with the same mean', () => {
    const steady = annualisedSharpe(returnsOf(0.011, 0.009, 0.011, 0.009)) ?? 0;
    const jumpy = annualisedSharpe(returnsOf(0.05, -0.03, 0.05, -0.03)) ?? 0;
    expect(steady).toBeGreaterThan(jumpy);
  });
});

describe('win rate', () => {
  it('counts closed trades with positive net P&L; null without one', () => {
    expect(winRatePercent([10, -5, 0, 3])).toBe(50);
    expect(winRatePercent([])).toBeNull();
  });
});

describe('period windows', () => {
  // 72 hourly points rising 1 USDT an hour from 1000; fills every 10 hours; closes alternate.
  const points = Array.from({ length: 73 }, (_, h) => ({ timeMs: at(h), equity: 1000 + h }));
  const input = {
    points,
    flows: [],
    fillTimesMs: Array.from({ length: 8 }, (_, k) => at(k * 10 + 1)),
    closedTrades: [
      { timeMs: at(5), pnl: 5 },
      { timeMs: at(50), pnl: -1 },
      { timeMs: at(60), pnl: 2 },
    ],
  };
  const now = at(72);

  it('daily starts at the point 24 hours back', () => {
    const daily = periodFigures(input, now, DAY_MS);
    expect(Number(daily.pnl)).toBe(24);
    expect(daily.returnPercent).toBeCloseTo((1072 / 1048 - 1) * 100, 9);
    expect(daily.tradesCount).toBe(3); // fills at hours 51, 61 and 71
    expect(daily.winRate).toBe(50); // closes at hours 50 and 60
  });

  it('total covers the whole history', () => {
    const total = periodFigures(input, now, null);
    expect(Number(total.pnl)).toBe(72);
    expect(total.tradesCount).toBe(8);
    expect(total.winRate).toBeCloseTo(200 / 3, 9);
    expect(total.maxDrawdownPercent).toBe(0);
  });

  it('a window longer than the history starts at its first point', () => {
    const monthly = periodFigures(input, now, 30 * DAY_MS);
    expect(Number(monthly.pnl)).toBe(72);
  });

  it('counts days of history from the first point', () => {
    expect(daysOfHistory(points, now)).toBe(3);
    expect(daysOfHistory([], now)).toBe(0);
  });

  it('keeps the last point of each UTC+8 day for the sparkline', () => {
    const days = dailyPoints(points, now, 30);
    // UTC+8 days end at 16:00 UTC: hours 15, 39, 63 and the last point (72).
    expect(days.map((p) => (p.timeMs - T0) / HOUR_MS)).toEqual([15, 39, 63, 72]);
  });
});

describe('average-cost position book', () => {
  it('averages entries, realises on reduce, flips through zero', () => {
    const steps: {
      fill: { side: 'buy' | 'sell'; amount: number; price: number };
      size: string;
      entry: string | null;
      realized: string | null;
    }[] = [
      { fill: { side: 'buy', amount: 1, price: 100 }, size: '1', entry: '100', realized: null },
      { fill: { side: 'buy', amount: 1, price: 110 }, size: '2', entry: '105', realized: null },
      {
        fill: { side: 'sell', amount: 1.5, price: 120 },
        size: '0.5',
        entry: '105',
        realized: '22.5',
      },
      {
        fill: { side: 'sell', amount: 1, price: 100 },
        size: '-0.5',
        entry: '100',
        realized: '-2.5',
      },
      { fill: { side: 'buy', amount: 0.5, price: 90 }, size: '0', entry: null, realized: '5' },
    ];
    let position = FLAT_TRADE_BOOK;
    for (const step of steps) {
      const outcome = applyTradeToBook(position, step.fill);
      expect(outcome.position).toEqual({ size: step.size, entryPrice: step.entry });
      expect(outcome.realizedPnl).toBe(step.realized);
      position = outcome.position;
    }
  });

  it('closes 0.1 + 0.2 exactly flat (decimal, not float)', () => {
    const opened = applyTradeToBook(
      applyTradeToBook(FLAT_TRADE_BOOK, { side: 'buy', amount: 0.1, price: 10 }).position,
      {
        side: 'buy',
        amount: 0.2,
        price: 10,
      },
    ).position;
    expect(applyTradeToBook(opened, { side: 'sell', amount: 0.3, price: 10 }).position.size).toBe(
      '0',
    );
  });
});

describe('inferred deposits and withdrawals', () => {
  const mark = (hour: number, equity: number, unrealizedPnl: number, realizedPnlCum: number) => ({
    timeMs: at(hour),
    equity,
    unrealizedPnl,
    realizedPnlCum,
  });
  it('finds a deposit and a withdrawal, not trading or funding noise', () => {
    const flows = inferCashFlows([
      mark(0, 1000, 0, 0),
      mark(1, 1100, 50, 50), // +50 realised, +50 unrealised: trading only
      mark(2, 2100, 50, 50), // +1000 from outside
      mark(3, 2098, 50, 50), // −2 funding: noise (0.1%)
      mark(4, 1600, 0, 100), // the position closes (+50 realised) and 498 is withdrawn
    ]);
    expect(flows).toEqual([
      { timeMs: at(2), amount: 1000 },
      { timeMs: at(4), amount: -498 },
    ]);
  });
});

describe('marks taken after fills between the hourly snapshots', () => {
  const snapshots = series(10_000, 10_100, 10_050, 10_200);
  const marks = [
    { timeMs: at(1), equity: 10_099 }, // the hourly mark: the snapshot counts
    { timeMs: at(3) + 10 * 60_000, equity: 10_400 },
  ];

  it('merge into one series, oldest first, the snapshot winning at a shared instant', () => {
    const merged = mergeEquitySeries(snapshots, marks);
    expect(merged.map((p) => p.equity)).toEqual([10_000, 10_100, 10_050, 10_200, 10_400]);
  });

  it('move return and drawdown, while the risk ratios stay on the hourly points', () => {
    const now = at(3) + 20 * 60_000;
    const base = { flows: [], fillTimesMs: [], closedTrades: [] };
    const hourly = periodFigures({ ...base, points: snapshots }, now, null);
    const live = periodFigures(
      { ...base, points: mergeEquitySeries(snapshots, marks), riskPoints: snapshots },
      now,
      null,
    );
    expect(hourly.returnPercent).toBeCloseTo(2, 10);
    expect(live.returnPercent).toBeCloseTo(4, 10);
    expect(live.sharpe).toBe(hourly.sharpe);
    expect(live.sortino).toBe(hourly.sortino);
    // Without riskPoints, the 10-minute step would count as an hour.
    const naive = periodFigures(
      { ...base, points: mergeEquitySeries(snapshots, marks) },
      now,
      null,
    );
    expect(naive.sharpe).not.toBe(hourly.sharpe);
  });
});
