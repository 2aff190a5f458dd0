import { isStrategyType, STRATEGIES, STRATEGY_TYPES, type StrategyType } from '@quantsquare/engine';

// Strategy ids are 1..n in STRATEGY_TYPES order, as GET /trading/strategies/ numbers them.

export interface StrategyEntry {
  readonly id: number;
  readonly type: StrategyType;
  readonly name: string;
  readonly defaults: Record<string, number>;
}

function entry(type: StrategyType, index: number): StrategyEntry {
  const definition = STRATEGIES[type];
  const defaults: Record<string, number> = {};
  for (const spec of definition.parameters) defaults[spec.name] = spec.default;
  return { id: index + 1, type, name: definition.display_name, defaults };
}

export function strategyById(id: number): StrategyEntry | undefined {
  const type = STRATEGY_TYPES[id - 1];
  return type === undefined ? undefined : entry(type, id - 1);
}

export function strategyByType(type: string): StrategyEntry | undefined {
  return isStrategyType(type) ? entry(type, STRATEGY_TYPES.indexOf(type)) : undefined;
}
