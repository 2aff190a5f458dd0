import type { RuleSet } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/backtest.js';
import type { BacktestOptions } from '../../backtest/backtest.types.js';
import { type Candles, candlesFromRows, sliceCandles } from '../../candles.js';
import { randomWalkCandles, seededRandom } from '../../testing/random-candles.fixture.js';
import { compileStrategyOrThrow } from '../compile-strategy.js';
import { signalAt } from '../latest-signal.js';
import { compileRuleStrategy } from './rule-strategy.js';

const sma = (period: number, offset?: number) => ({
  indicator: 'sma' as const,
  period,
  ...(offset === undefined ? {} : { offset }),
});

const rules = (partial: Partial<RuleSet>): RuleSet => ({
  entry_long: null,
  exit_long: null,
  entry_short: null,
  exit_short: null,
  ...partial,
});

function compile(set: unknown) {
  const compiled = compileRuleStrategy('custom:1', set);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
  return compiled.strategy;
}

const closes = (values: number[]): Candles =>
  candlesFromRows(
    values.map((close, i) => ({
      time: i * 3_600_000,
      open: close,
      high: close,
      low: close,
      close,
    })),
  );

describe('a rule set against the built-in ma_cross', () => {
  const MA_CROSS_LONG = rules({
    entry_long: { left: sma(10), op: 'crosses_above', right: sma(30) },
    exit_long: { left: sma(10), op: 'crosses_below', right: sma(30) },
  });
  const MA_CROSS_BOTH = rules({
    ...MA_CROSS_LONG,
    entry_short: { left: sma(10), op: 'crosses_below', right: sma(30) },
    exit_short: { left: sma(10), op: 'crosses_above', right: sma(30) },
  });
  const builtIn = compileStrategyOrThrow('ma_cross', { fast_period: 10, slow_period: 30 });
  const OPTIONS: BacktestOptions = { slippageBps: 5, stopLossPercent: 3, takeProfitPercent: 6 };

  it.each([11, 12, 13])(
    '"SMA(10) crosses above SMA(30) → long, below → exit" trades as ma_cross long-only (seed %i)',
    (seed) => {
      const candles = randomWalkCandles(3_000, seed);
      const fromRules = runBacktest(candles, compile(MA_CROSS_LONG).compute(candles), OPTIONS);
      const fromBuiltIn = runBacktest(candles, builtIn.compute(candles), {
        ...OPTIONS,
        direction: 'long_only',
      });
      expect(fromRules.trade_count).toBeGreaterThan(5);
      expect(fromRules.trades).toEqual(fromBuiltIn.trades);
      expect(fromRules.final_balance).toBe(fromBuiltIn.final_balance);
    },
  );

  it('with the short side too, trades as ma_cross long_short', () => {
    const candles = randomWalkCandles(3_000, 21);
    const fromRules = runBacktest(candles, compile(MA_CROSS_BOTH).compute(candles), OPTIONS);
    const fromBuiltIn = runBacktest(candles, builtIn.compute(candles), OPTIONS);
    expect(fromRules.trades.some((trade) => trade.side === 'short')).toBe(true);
    expect(fromRules.trades).toEqual(fromBuiltIn.trades);
  });

  it('draws its two moving averages as the chart lines', () => {
    const candles = randomWalkCandles(200, 5);
    const signals = compile(MA_CROSS_LONG).compute(candles);
    const reference = builtIn.compute(candles);
    expect(Array.from(signals.indicators.ma_fast)).toEqual(
      Array.from(reference.indicators.ma_fast),
    );
    expect(Array.from(signals.indicators.ma_slow)).toEqual(
      Array.from(reference.indicators.ma_slow),
    );
  });
});

interface ConditionCase {
  readonly name: string;
  readonly closes: number[];
  readonly rules: RuleSet;
  readonly buy: number[];
  readonly sell?: number[];
  readonly exitLong?: number[];
}

// Each case: closes (open = high = low = close) and the candles where the rules fire.
const CASES: readonly ConditionCase[] = [
  {
    name: 'close above a value holds on every such candle',
    closes: [9, 11, 12, 8, 13],
    rules: rules({ entry_long: { left: 'close', op: 'gt', right: { value: 10 } } as never }),
    buy: [1, 2, 4],
  },
  {
    name: 'gte includes the level, lt excludes it',
    closes: [10, 9, 10, 11],
    rules: rules({
      entry_long: { left: { price: 'close' }, op: 'gte', right: { value: 10 } },
      exit_long: { left: { price: 'close' }, op: 'lt', right: { value: 10 } },
    }),
    buy: [0, 2, 3],
    exitLong: [1],
  },
  {
    name: 'close crosses above its own value one bar back (an offset reads the past)',
    closes: [5, 4, 6, 7, 3, 4],
    rules: rules({
      entry_long: {
        left: { price: 'close' },
        op: 'gt',
        right: { price: 'close', offset: 1 },
      },
    }),
    buy: [2, 3, 5],
  },
  {
    name: 'all needs every condition, any one of them',
    closes: [1, 2, 3, 4, 5, 6],
    rules: rules({
      entry_long: {
        all: [
          { left: { price: 'close' }, op: 'gt', right: { value: 2 } },
          {
            any: [
              { left: { price: 'close' }, op: 'lt', right: { value: 4 } },
              { left: { price: 'close' }, op: 'gte', right: { value: 6 } },
            ],
          },
        ],
      },
    }),
    buy: [2, 5],
  },
  {
    name: 'an undefined indicator never holds (SMA(3) starts at candle 2)',
    closes: [10, 10, 10, 13, 13],
    rules: rules({ entry_long: { left: { price: 'close' }, op: 'gt', right: sma(3) } }),
    buy: [3, 4],
  },
  {
    name: 'a long and a short entry on one candle cancel out; an exit blocks its own entry',
    closes: [1, 5, 9],
    rules: rules({
      entry_long: { left: { price: 'close' }, op: 'gt', right: { value: 0 } },
      entry_short: { left: { price: 'close' }, op: 'gt', right: { value: 4 } },
      exit_short: { left: { price: 'close' }, op: 'gt', right: { value: 8 } },
    }),
    buy: [0, 2],
    sell: [],
  },
];

describe('rule conditions (tables of closes)', () => {
  it.each(CASES)('$name', (scenario) => {
    const signals = compile(scenario.rules).compute(closes(scenario.closes));
    expect(signals.buy_signals).toEqual(scenario.buy);
    expect(signals.sell_signals).toEqual(scenario.sell ?? []);
    expect(signals.exit_long_signals).toEqual(scenario.exitLong ?? []);
  });
});

const RANDOM_RULES: readonly RuleSet[] = [
  rules({
    entry_long: {
      all: [
        { left: { indicator: 'rsi', period: 14 }, op: 'lt', right: { value: 40 } },
        { left: { indicator: 'macd' }, op: 'crosses_above', right: { indicator: 'macd_signal' } },
      ],
    },
    exit_long: { left: { indicator: 'rsi', period: 14 }, op: 'gt', right: { value: 60 } },
    entry_short: {
      any: [
        { left: 'close', op: 'crosses_below', right: { indicator: 'bb_lower', period: 20 } },
        { left: sma(5, 2), op: 'gt', right: { indicator: 'ema', period: 8, offset: 1 } },
      ],
    } as never,
    exit_short: {
      left: { indicator: 'atr', period: 14 },
      op: 'gt',
      right: { indicator: 'atr', period: 14, offset: 5 },
    },
  }),
  rules({
    entry_long: {
      left: { indicator: 'bb_upper', period: 10, std_dev: 1.5 },
      op: 'lt',
      right: 'high',
    } as never,
    exit_long: { left: 'volume', op: 'gt', right: { value: 1 } } as never,
  }),
];

describe('no look-ahead', () => {
  it.each(RANDOM_RULES.map((set, k) => [k, set] as const))(
    'rule set %i: signals and decisions up to candle n never change when later candles change',
    (_k, set) => {
      const strategy = compile(set);
      const random = seededRandom(97);
      let decided = 0;
      for (let round = 0; round < 4; round++) {
        const candles = randomWalkCandles(800, Math.floor(random() * 1e9));
        const other = randomWalkCandles(800, Math.floor(random() * 1e9));
        const prefix = 100 + Math.floor(random() * 600);
        // Same first `prefix` candles, different ones after.
        const mixed = spliceCandles(candles, other, prefix);
        const full = strategy.compute(candles);
        const changed = strategy.compute(mixed);
        for (let i = 0; i < prefix; i++) {
          expect(signalAt(changed, i)).toBe(signalAt(full, i));
          if (signalAt(full, i) !== null) decided++;
        }
        // The live path decides the last closed candle alike.
        const window = sliceCandles(candles, prefix);
        expect(strategy.latest(window)).toBe(signalAt(full, prefix - 1));
      }
      expect(decided).toBeGreaterThan(0);
    },
  );
});

/** The first `count` candles of `a`, then `b`'s candles from `count` on. */
function spliceCandles(a: Candles, b: Candles, count: number): Candles {
  const mix = (x: Float64Array, y: Float64Array) => {
    const out = Float64Array.from(y);
    out.set(x.subarray(0, count));
    return out;
  };
  return {
    time: a.time,
    open: mix(a.open, b.open),
    high: mix(a.high, b.high),
    low: mix(a.low, b.low),
    close: mix(a.close, b.close),
    volume: mix(a.volume, b.volume),
  };
}
