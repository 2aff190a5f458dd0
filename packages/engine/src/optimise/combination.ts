// Turning one grid combination into what a backtest runs: the strategy (a built-in compiled with
// the combination's strategy parameters, or a user's rule set as stored) and the backtest
// options (the combination's stop-loss / take-profit / trailing stop over the shared settings).
// Plain data in, so a worker thread rebuilds exactly what the API process would.
import type { OPTIMISABLE_SETTINGS } from '@quantsquare/contracts';
import type { BacktestOptions } from '../backtest/backtest.types.js';
import { type CompiledStrategy, compileStrategy } from '../strategies/compile-strategy.js';
import {
  compileRuleStrategy,
  type StrategyProtections,
} from '../strategies/rules/rule-strategy.js';
import type { ParameterCombination } from './parameter-grid.js';

/** The strategy an optimisation varies, as plain (cloneable) data. */
export type StrategySource =
  | { readonly kind: 'builtin'; readonly type: string }
  | {
      readonly kind: 'rules';
      readonly type: string;
      readonly rules: unknown;
      readonly protections: StrategyProtections;
    };

export type CombinationCompilation =
  | { readonly ok: true; readonly strategy: CompiledStrategy; readonly options: BacktestOptions }
  | { readonly ok: false; readonly fields: Record<string, string[]> };

const SETTING_OPTION = {
  stop_loss_percentage: 'stopLossPercent',
  take_profit_percentage: 'takeProfitPercent',
  trailing_stop_percentage: 'trailingStopPercent',
} as const satisfies Record<(typeof OPTIMISABLE_SETTINGS)[number], keyof BacktestOptions>;

const isSetting = (name: string): name is keyof typeof SETTING_OPTION => name in SETTING_OPTION;

/**
 * `base`: the options every combination shares (already holding the request's settings). The
 * protections of a rule set apply where neither the settings nor the combination set a level,
 * as in the plain backtest.
 */
export function compileCombination(
  source: StrategySource,
  combination: ParameterCombination,
  base: BacktestOptions,
): CombinationCompilation {
  const strategyParameters: Record<string, number> = {};
  const overrides: Record<string, number> = {};
  for (const [name, value] of Object.entries(combination)) {
    if (isSetting(name)) overrides[SETTING_OPTION[name]] = value;
    else strategyParameters[name] = value;
  }
  let strategy: CompiledStrategy;
  if (source.kind === 'builtin') {
    const compiled = compileStrategy(source.type, strategyParameters);
    if (!compiled.ok) return { ok: false, fields: compiled.fields };
    strategy = compiled.strategy;
  } else {
    const unknown = Object.keys(strategyParameters);
    if (unknown.length > 0) {
      return {
        ok: false,
        fields: Object.fromEntries(
          unknown.map((name) => [name, ['Unknown parameter for a rule set']]),
        ),
      };
    }
    const compiled = compileRuleStrategy(source.type, source.rules, source.protections);
    if (!compiled.ok) return { ok: false, fields: { strategy_type: ['Invalid rules'] } };
    strategy = compiled.strategy;
  }
  const protections = strategy.protections;
  const options: BacktestOptions = {
    ...base,
    stopLossPercent: base.stopLossPercent ?? protections?.stopLossPercent,
    takeProfitPercent: base.takeProfitPercent ?? protections?.takeProfitPercent,
    trailingStopPercent: base.trailingStopPercent ?? protections?.trailingStopPercent,
    ...overrides,
  };
  return { ok: true, strategy, options };
}
