// A user's rule set compiled to the strategy interface of the built-ins (CompiledStrategy), so
// the one backtest loop and the one live decision path run it. No code is generated or
// evaluated: the rules are data walked by `conditionMask`.
//
// Per candle i, with EL/XL/ES/XS the four conditions on i's close:
//   buy  (close a short, open a long) where EL and not XL, unless a short entry also fires;
//   sell (close a long, open a short) where ES and not XS, unless a long entry also fires;
//   exit_long where XL, exit_short where XS (close only).
import type { RuleCondition, RuleOperand, RuleSet } from '@quantsquare/contracts';
import type { Candles } from '../../candles.js';
import { sma } from '../../indicators/indicators.js';
import type { CompiledStrategy } from '../compile-strategy.js';
import { signalAt } from '../latest-signal.js';
import type { StrategySignals } from '../strategy.types.js';
import { conditionHits, newRunCache, operandSeries } from './rule-series.js';
import { validateRuleSet } from './validate-rule-set.js';

/** The protections a rule set carries, in percent of the entry fill (null: none). */
export interface StrategyProtections {
  readonly stopLossPercent: number | null;
  readonly takeProfitPercent: number | null;
  readonly trailingStopPercent: number | null;
}

export const NO_PROTECTIONS: StrategyProtections = Object.freeze({
  stopLossPercent: null,
  takeProfitPercent: null,
  trailingStopPercent: null,
});

const DASHBOARD_FAST_PERIOD = 7;
const DASHBOARD_SLOW_PERIOD = 25;

function movingAverages(condition: RuleCondition | null, out: RuleOperand[]): void {
  if (condition === null) return;
  if ('left' in condition) {
    for (const operand of [condition.left, condition.right]) {
      if ('indicator' in operand && (operand.indicator === 'sma' || operand.indicator === 'ema')) {
        out.push(operand);
      }
    }
    return;
  }
  for (const child of 'all' in condition ? condition.all : condition.any) {
    movingAverages(child, out);
  }
}

/** Runs a rule set already checked by `validateRuleSet`. */
export function computeRuleSignals(candles: Candles, rules: RuleSet): StrategySignals {
  const cache = newRunCache();
  const NONE: readonly number[] = [];
  const hits = (condition: RuleCondition | null) =>
    condition === null ? NONE : conditionHits(candles, condition, cache);
  const entryLong = hits(rules.entry_long);
  const exitLong = hits(rules.exit_long);
  const entryShort = hits(rules.entry_short);
  const exitShort = hits(rules.exit_short);
  const buy: number[] = [];
  const sell: number[] = [];
  // One walk over the four ascending lists, candle by candle where any of them holds. Reads
  // stay in bounds (an out-of-bounds read is slow in V8): an exhausted list reads as END.
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  const END = 2 ** 31;
  let nextEntryLong = entryLong.length > 0 ? entryLong[0]! : END;
  let nextExitLong = exitLong.length > 0 ? exitLong[0]! : END;
  let nextEntryShort = entryShort.length > 0 ? entryShort[0]! : END;
  let nextExitShort = exitShort.length > 0 ? exitShort[0]! : END;
  for (;;) {
    let i = nextEntryLong < nextExitLong ? nextEntryLong : nextExitLong;
    if (nextEntryShort < i) i = nextEntryShort;
    if (nextExitShort < i) i = nextExitShort;
    if (i === END) break;
    const isEntryLong = nextEntryLong === i;
    const isExitLong = nextExitLong === i;
    const isEntryShort = nextEntryShort === i;
    const isExitShort = nextExitShort === i;
    if (isEntryLong) nextEntryLong = ++a < entryLong.length ? entryLong[a]! : END;
    if (isExitLong) nextExitLong = ++b < exitLong.length ? exitLong[b]! : END;
    if (isEntryShort) nextEntryShort = ++c < entryShort.length ? entryShort[c]! : END;
    if (isExitShort) nextExitShort = ++d < exitShort.length ? exitShort[d]! : END;
    const isLong = isEntryLong && !isExitLong;
    const isShort = isEntryShort && !isExitShort;
    if (isLong !== isShort) (isLong ? buy : sell).push(i);
  }

  // The chart's two lines: the rule set's first two moving averages by period, else the
  // dashboard's SMA pair.
  const averages: RuleOperand[] = [];
  for (const slot of [rules.entry_long, rules.exit_long, rules.entry_short, rules.exit_short]) {
    movingAverages(slot, averages);
  }
  const lines = averages
    .map((operand) => ({
      period: 'period' in operand ? (operand.period ?? 0) : 0,
      series: operandSeries(candles, { ...operand, offset: 0 }, cache.series)!,
    }))
    .filter((line, k, all) => all.findIndex((other) => other.series === line.series) === k)
    .sort((a, b) => a.period - b.period);
  const maFast = lines[0]?.series ?? sma(candles.close, DASHBOARD_FAST_PERIOD);
  const maSlow = lines[1]?.series ?? sma(candles.close, DASHBOARD_SLOW_PERIOD);

  return {
    buy_signals: buy,
    sell_signals: sell,
    exit_long_signals: exitLong.slice(),
    exit_short_signals: exitShort.slice(),
    indicators: { ma_fast: maFast, ma_slow: maSlow },
  };
}

export type RuleStrategyCompilation =
  | { readonly ok: true; readonly strategy: CompiledStrategy }
  | {
      readonly ok: false;
      readonly issues: readonly { path: string; code: string; message: string }[];
    };

/**
 * Checks `rules` and compiles them as strategy `type` (`custom:<id>`). The key is the rules'
 * normal form, so two bots running equal rules share one evaluation per candle.
 */
export function compileRuleStrategy(
  type: string,
  rules: unknown,
  protections: StrategyProtections = NO_PROTECTIONS,
): RuleStrategyCompilation {
  const validation = validateRuleSet(rules);
  if (!validation.ok) return { ok: false, issues: validation.issues };
  const checked = validation.rules;
  return {
    ok: true,
    strategy: {
      type,
      parameters: {},
      key: `rules${JSON.stringify(checked)}`,
      protections,
      compute: (candles) => computeRuleSignals(candles, checked),
      // The last candle's action from the whole series: the same function as the backtest's,
      // over the bot's window (the indicators are causal, so nothing later is needed).
      latest: (candles) =>
        candles.close.length === 0
          ? null
          : signalAt(computeRuleSignals(candles, checked), candles.close.length - 1),
    },
  };
}
