// The one place a strategy is chosen and its parameters checked: the backtest route and the live
// bots both compile here, then run the same `compute` on the same closed candles. Ids of the
// catalogue are 1..n in STRATEGY_TYPES order (stable: new strategies are appended).
import type { Candles } from '../candles.js';
import type { SignalAction } from './latest-signal.js';
import type { StrategyProtections } from './rules/rule-strategy.js';
import { STRATEGIES, STRATEGY_TYPES, type StrategyType } from './strategies.js';
import type {
  StrategyParameterSpec,
  StrategyParameters,
  StrategySignals,
} from './strategy.types.js';
import { defaultParameters, validateParameters } from './strategy-parameters.js';

/** A strategy with checked parameters: evaluating it skips the per-call checks. */
export interface CompiledStrategy {
  /** A built-in StrategyType or `custom:<id>` for a user's rule set. */
  readonly type: string;
  readonly parameters: StrategyParameters;
  /** Equal for equal (type, parameters): evaluations may be shared between their users. */
  readonly key: string;
  readonly compute: (candles: Candles) => StrategySignals;
  /** signalAt(compute(candles), last index), without computing the series. */
  readonly latest: (candles: Candles) => SignalAction | null;
  /** Stop-loss, take-profit and trailing stop the strategy itself carries (rule sets only). */
  readonly protections?: StrategyProtections;
}

export type StrategyCompilation =
  | { readonly ok: true; readonly strategy: CompiledStrategy }
  /** Field errors keyed by parameter name (`strategy_type` for an unknown type). */
  | { readonly ok: false; readonly fields: Record<string, string[]> };

/** Equal for equal strategies. */
export function strategyKey(type: string, parameters: Readonly<Record<string, unknown>>): string {
  return `${type}${JSON.stringify(parameters)}`;
}

/** Checks `type` and `parameters` (missing ones take their defaults) once. */
export function compileStrategy(type: unknown, parameters: unknown): StrategyCompilation {
  const validation = validateParameters(type, parameters);
  if (!validation.ok) return { ok: false, fields: validation.fields };
  const strategyType = type as StrategyType;
  const checked = validation.parameters;
  const definition = STRATEGIES[strategyType];
  return {
    ok: true,
    strategy: {
      type: strategyType,
      parameters: checked,
      key: strategyKey(strategyType, checked),
      compute: (candles) => definition.compute(candles, checked),
      latest: (candles) => definition.latest(candles, checked),
    },
  };
}

/** `compileStrategy` for stored settings that must be valid: throws RangeError otherwise. */
export function compileStrategyOrThrow(type: unknown, parameters: unknown): CompiledStrategy {
  const compiled = compileStrategy(type, parameters);
  if (!compiled.ok) {
    throw new RangeError(`invalid ${String(type)} strategy: ${JSON.stringify(compiled.fields)}`);
  }
  return compiled.strategy;
}

/** One entry of the strategy catalogue (GET /trading/strategies/, the bot form). */
export interface StrategyCatalogEntry {
  readonly id: number;
  readonly type: StrategyType;
  readonly name: string;
  readonly description: string;
  readonly defaults: StrategyParameters;
  readonly parameterSpecs: readonly StrategyParameterSpec[];
}

const CATALOG: readonly StrategyCatalogEntry[] = STRATEGY_TYPES.map((type, index) => ({
  id: index + 1,
  type,
  name: STRATEGIES[type].display_name,
  description: STRATEGIES[type].description,
  defaults: defaultParameters(type),
  parameterSpecs: STRATEGIES[type].parameters,
}));

export function strategyCatalog(): readonly StrategyCatalogEntry[] {
  return CATALOG;
}

export function strategyById(id: number): StrategyCatalogEntry | undefined {
  return CATALOG[id - 1];
}

export function strategyByType(type: string): StrategyCatalogEntry | undefined {
  return CATALOG.find((entry) => entry.type === type);
}
