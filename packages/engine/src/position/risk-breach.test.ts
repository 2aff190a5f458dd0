import { describe, expect, it } from 'vitest';
import { type BreachInput, evaluateBreach } from './risk-breach.js';

// An account's equity judged against its loss limits, one scenario per row.

const DAY = 1_764_000_000_000;
const base: BreachInput = {
  equity: '10000',
  dayStartMs: DAY,
  dayOpenEquity: '10000',
  dayStartedAtMs: DAY,
  peakEquity: '10000',
  dailyLossLimitPct: null,
  trailingDrawdownPct: null,
};

const cases: [string, Partial<BreachInput>, Partial<ReturnType<typeof evaluateBreach>>][] = [
  ['no limits: never a breach', { equity: '1' }, { breach: null }],
  [
    'daily loss below its limit',
    { equity: '9801', dailyLossLimitPct: '2' },
    { breach: null, dailyLossPct: '1.9900' },
  ],
  [
    'daily loss reaching its limit trips',
    { equity: '9800', dailyLossLimitPct: '2' },
    { breach: 'daily_loss', dailyLossPct: '2.0000' },
  ],
  [
    'a new day opens at the equity first seen in it (yesterday’s loss forgotten)',
    { equity: '9000', dayStartedAtMs: DAY - 86_400_000, dailyLossLimitPct: '2' },
    { breach: null, dayOpenEquity: '9000', dayStartedAtMs: DAY },
  ],
  [
    'the peak rises with the equity',
    { equity: '12000', trailingDrawdownPct: '10' },
    { breach: null, peakEquity: '12000' },
  ],
  [
    'a fall of 10 % from the peak trips the trailing drawdown',
    { equity: '10800', peakEquity: '12000', trailingDrawdownPct: '10' },
    { breach: 'trailing_drawdown', drawdownPct: '10.0000', peakEquity: '12000' },
  ],
  [
    'no peak yet: it starts at the equity read',
    { equity: '7000', peakEquity: null, trailingDrawdownPct: '10' },
    { breach: null, peakEquity: '7000' },
  ],
  [
    'both limits reached: daily loss is named',
    { equity: '8000', dailyLossLimitPct: '5', trailingDrawdownPct: '10' },
    { breach: 'daily_loss' },
  ],
];

describe('evaluateBreach', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    expect(evaluateBreach({ ...base, ...input })).toMatchObject(expected);
  });
});
