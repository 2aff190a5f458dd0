// The built-in strategies: pure signal functions on closed candles. The backtest and the live
// bot call the same `compute` on the same closed candles (no look-ahead: every series at index i
// depends only on candles 0..i).
import { bollinger, ema, macd, rsi, sma } from '../indicators/indicators.js';
import {
  bollingerLastTwo,
  emaLastTwo,
  type LastTwo,
  macdLastTwo,
  rsiLastTwo,
} from '../indicators/last-values.js';
import type { SignalAction } from './latest-signal.js';
import {
  crossAbove,
  crossAboveLevel,
  crossBelow,
  crossBelowLevel,
  crossings,
} from './signal-rules.js';
import { smaCrossingAtEnd, smaCrossings } from './sma-crossings.js';
import type { StrategyDefinition, StrategyParameters } from './strategy.types.js';

/** The dashboard's pair for strategies without a natural moving-average pair. */
const DASHBOARD_FAST_PERIOD = 7;
const DASHBOARD_SLOW_PERIOD = 25;

function param(parameters: StrategyParameters, name: string): number {
  const value = parameters[name];
  if (value === undefined) throw new RangeError(`missing strategy parameter ${name}`);
  return value;
}

function fastBelowSlow(parameters: StrategyParameters): Record<string, string[]> {
  const fast = parameters.fast_period;
  const slow = parameters.slow_period;
  if (fast !== undefined && slow !== undefined && fast >= slow) {
    return { fast_period: ['fast_period must be smaller than slow_period'] };
  }
  return {};
}

/** Buy where `fast` crosses above `slow`, sell where it crosses below. */
function pairSignals(fast: Float64Array, slow: Float64Array) {
  const { above, below } = crossings(fast, slow);
  return { buy_signals: above, sell_signals: below };
}

/** `crossings(a, b)` at the last index, given both series' last two values. */
function crossingAtEnd(a: LastTwo, b: LastTwo): SignalAction | null {
  const current = a.last - b.last;
  const previous = a.previous - b.previous;
  if (current > 0 && previous <= 0) return 'buy';
  if (current < 0 && previous >= 0) return 'sell';
  return null;
}

/** Buy and sell on one candle cancel out, as in `signalAt`. */
function eitherAction(isBuy: boolean, isSell: boolean): SignalAction | null {
  if (isBuy === isSell) return null;
  return isBuy ? 'buy' : 'sell';
}

const lastIndexOf = (candles: { close: Float64Array }) => candles.close.length - 1;

const period = (name: string, displayName: string, value: number, min: number, max: number) => ({
  name,
  display_name: displayName,
  default: value,
  min,
  max,
  integer: true,
});

/** ma_fast/ma_slow: SMA(fast_period)/SMA(slow_period) of close; buy when fast crosses above. */
const maCross: StrategyDefinition = {
  type: 'ma_cross',
  display_name: 'MA Cross',
  description:
    'Buys when the fast simple moving average of close crosses above the slow one, sells on the cross below.',
  parameters: [
    period('fast_period', 'Fast MA period', 7, 1, 200),
    period('slow_period', 'Slow MA period', 25, 2, 500),
  ],
  checkParameters: fastBelowSlow,
  compute(candles, parameters) {
    // pairSignals(sma(fast), sma(slow)) in one pass over the closes.
    const { fast, slow, above, below } = smaCrossings(
      candles.close,
      param(parameters, 'fast_period'),
      param(parameters, 'slow_period'),
    );
    return {
      buy_signals: above,
      sell_signals: below,
      indicators: { ma_fast: fast, ma_slow: slow },
    };
  },
  latest(candles, parameters) {
    const crossing = smaCrossingAtEnd(
      candles.close,
      param(parameters, 'fast_period'),
      param(parameters, 'slow_period'),
    );
    return crossing === 1 ? 'buy' : crossing === -1 ? 'sell' : null;
  },
};

/** ma_fast/ma_slow: its own EMA(fast_period)/EMA(slow_period) of close. */
const emaCross: StrategyDefinition = {
  type: 'ema_cross',
  display_name: 'EMA Cross',
  description:
    'Buys when the fast exponential moving average of close crosses above the slow one, sells on the cross below.',
  parameters: [
    period('fast_period', 'Fast EMA period', 12, 1, 200),
    period('slow_period', 'Slow EMA period', 26, 2, 500),
  ],
  checkParameters: fastBelowSlow,
  compute(candles, parameters) {
    const maFast = ema(candles.close, param(parameters, 'fast_period'));
    const maSlow = ema(candles.close, param(parameters, 'slow_period'));
    return {
      ...pairSignals(maFast, maSlow),
      indicators: { ma_fast: maFast, ma_slow: maSlow },
    };
  },
  latest(candles, parameters) {
    if (lastIndexOf(candles) < 1) return null;
    return crossingAtEnd(
      emaLastTwo(candles.close, param(parameters, 'fast_period')),
      emaLastTwo(candles.close, param(parameters, 'slow_period')),
    );
  },
};

/**
 * Mean reversion on RSI: buy when RSI climbs back above `oversold`, sell when it falls back
 * below `overbought`. ma_fast/ma_slow: the dashboard's SMA(7)/SMA(25) of close.
 */
const rsiReversion: StrategyDefinition = {
  type: 'rsi_reversion',
  display_name: 'RSI Reversion',
  description:
    'Buys when RSI rises back above the oversold level, sells when it falls back below the overbought level.',
  parameters: [
    period('period', 'RSI period', 14, 2, 100),
    {
      name: 'oversold',
      display_name: 'Oversold level',
      default: 30,
      min: 1,
      max: 50,
      integer: false,
    },
    {
      name: 'overbought',
      display_name: 'Overbought level',
      default: 70,
      min: 50,
      max: 99,
      integer: false,
    },
  ],
  checkParameters(parameters): Record<string, string[]> {
    const { oversold, overbought } = parameters;
    if (oversold !== undefined && overbought !== undefined && oversold >= overbought) {
      return { oversold: ['oversold must be below overbought'] };
    }
    return {};
  },
  compute(candles, parameters) {
    const rsiSeries = rsi(candles.close, param(parameters, 'period'));
    return {
      buy_signals: crossAboveLevel(rsiSeries, param(parameters, 'oversold')),
      sell_signals: crossBelowLevel(rsiSeries, param(parameters, 'overbought')),
      indicators: {
        ma_fast: sma(candles.close, DASHBOARD_FAST_PERIOD),
        ma_slow: sma(candles.close, DASHBOARD_SLOW_PERIOD),
        rsi: rsiSeries,
      },
    };
  },
  latest(candles, parameters) {
    if (lastIndexOf(candles) < 1) return null;
    const value = rsiLastTwo(candles.close, param(parameters, 'period'));
    const oversold = param(parameters, 'oversold');
    const overbought = param(parameters, 'overbought');
    return eitherAction(
      value.last > oversold && value.previous <= oversold,
      value.last < overbought && value.previous >= overbought,
    );
  },
};

/**
 * Buy when the MACD line crosses above its signal line, sell on the cross below.
 * ma_fast/ma_slow: its own EMA(fast_period)/EMA(slow_period) of close (the line is their gap).
 */
const macdCross: StrategyDefinition = {
  type: 'macd_cross',
  display_name: 'MACD Cross',
  description: 'Buys when the MACD line crosses above its signal line, sells on the cross below.',
  parameters: [
    period('fast_period', 'Fast EMA period', 12, 1, 200),
    period('slow_period', 'Slow EMA period', 26, 2, 500),
    period('signal_period', 'Signal period', 9, 1, 100),
  ],
  checkParameters: fastBelowSlow,
  compute(candles, parameters) {
    const fastPeriod = param(parameters, 'fast_period');
    const slowPeriod = param(parameters, 'slow_period');
    const series = macd(candles.close, fastPeriod, slowPeriod, param(parameters, 'signal_period'));
    return {
      ...pairSignals(series.line, series.signal),
      indicators: {
        ma_fast: ema(candles.close, fastPeriod),
        ma_slow: ema(candles.close, slowPeriod),
        macd: series.line,
        macd_signal: series.signal,
        macd_histogram: series.histogram,
      },
    };
  },
  latest(candles, parameters) {
    if (lastIndexOf(candles) < 1) return null;
    const series = macdLastTwo(
      candles.close,
      param(parameters, 'fast_period'),
      param(parameters, 'slow_period'),
      param(parameters, 'signal_period'),
    );
    return crossingAtEnd(series.line, series.signal);
  },
};

/**
 * Breakout: buy when close crosses above the upper band, sell when it crosses below the lower
 * band. ma_fast/ma_slow: the dashboard's SMA(7)/SMA(25) of close.
 */
const bollingerBreakout: StrategyDefinition = {
  type: 'bollinger_breakout',
  display_name: 'Bollinger Breakout',
  description:
    'Buys when close breaks above the upper Bollinger band, sells when it breaks below the lower band.',
  parameters: [
    period('period', 'Band period', 20, 2, 200),
    {
      name: 'std_dev',
      display_name: 'Standard deviations',
      default: 2,
      min: 0.5,
      max: 5,
      integer: false,
    },
  ],
  compute(candles, parameters) {
    const bands = bollinger(
      candles.close,
      param(parameters, 'period'),
      param(parameters, 'std_dev'),
    );
    return {
      buy_signals: crossAbove(candles.close, bands.upper),
      sell_signals: crossBelow(candles.close, bands.lower),
      indicators: {
        ma_fast: sma(candles.close, DASHBOARD_FAST_PERIOD),
        ma_slow: sma(candles.close, DASHBOARD_SLOW_PERIOD),
        bb_upper: bands.upper,
        bb_middle: bands.middle,
        bb_lower: bands.lower,
      },
    };
  },
  latest(candles, parameters) {
    const last = lastIndexOf(candles);
    if (last < 1) return null;
    const bands = bollingerLastTwo(
      candles.close,
      param(parameters, 'period'),
      param(parameters, 'std_dev'),
    );
    const close = candles.close[last]!;
    const closeBefore = candles.close[last - 1]!;
    return eitherAction(
      close > bands.upper.last && closeBefore <= bands.upper.previous,
      close < bands.lower.last && closeBefore >= bands.lower.previous,
    );
  },
};

export const STRATEGY_TYPES = [
  'ma_cross',
  'ema_cross',
  'rsi_reversion',
  'macd_cross',
  'bollinger_breakout',
] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];

export const STRATEGIES: Readonly<Record<StrategyType, StrategyDefinition>> = Object.freeze({
  ma_cross: maCross,
  ema_cross: emaCross,
  rsi_reversion: rsiReversion,
  macd_cross: macdCross,
  bollinger_breakout: bollingerBreakout,
});

export function isStrategyType(value: unknown): value is StrategyType {
  return typeof value === 'string' && Object.hasOwn(STRATEGIES, value);
}
