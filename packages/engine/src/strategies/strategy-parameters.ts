import type { Candles } from '../candles.js';
import { isStrategyType, STRATEGIES, type StrategyType } from './strategies.js';
import type { StrategyParameters, StrategySignals } from './strategy.types.js';

export type ParameterValidation =
  | { readonly ok: true; readonly parameters: StrategyParameters }
  | { readonly ok: false; readonly fields: Record<string, string[]> };

/** The defaults of a strategy's parameters, e.g. {fast_period: 7, slow_period: 25}. */
export function defaultParameters(type: StrategyType): StrategyParameters {
  const out: Record<string, number> = {};
  for (const spec of STRATEGIES[type].parameters) out[spec.name] = spec.default;
  return out;
}

/**
 * Checks user-supplied parameters of strategy `type`. Missing keys take their defaults; unknown
 * keys, non-numbers, non-integers where an integer is needed, out-of-bounds values and
 * cross-field rules answer field errors keyed by parameter name (an unknown type by
 * `strategy_type`), ready for a 400 answer's `fields`.
 */
export function validateParameters(type: unknown, parameters: unknown): ParameterValidation {
  if (!isStrategyType(type)) {
    return { ok: false, fields: { strategy_type: [`Unknown strategy type: ${String(type)}`] } };
  }
  const definition = STRATEGIES[type];
  if (parameters === undefined || parameters === null) {
    return { ok: true, parameters: defaultParameters(type) };
  }
  if (typeof parameters !== 'object' || Array.isArray(parameters)) {
    return { ok: false, fields: { parameters: ['Parameters must be an object'] } };
  }
  const given = parameters as Record<string, unknown>;
  const fields: Record<string, string[]> = {};
  const out: Record<string, number> = {};
  const known = new Set(definition.parameters.map((spec) => spec.name));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) fields[key] = [`Unknown parameter for ${type}`];
  }
  for (const spec of definition.parameters) {
    const value = given[spec.name];
    if (value === undefined) {
      out[spec.name] = spec.default;
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      fields[spec.name] = ['Must be a number'];
    } else if (spec.integer && !Number.isInteger(value)) {
      fields[spec.name] = ['Must be a whole number'];
    } else if (value < spec.min || value > spec.max) {
      fields[spec.name] = [`Must be between ${spec.min} and ${spec.max}`];
    } else {
      out[spec.name] = value;
    }
  }
  if (Object.keys(fields).length === 0 && definition.checkParameters) {
    Object.assign(fields, definition.checkParameters(out));
  }
  return Object.keys(fields).length === 0 ? { ok: true, parameters: out } : { ok: false, fields };
}

/** Validates and runs a strategy; throws RangeError on invalid parameters (validate first). */
export function runStrategy(
  type: StrategyType,
  candles: Candles,
  parameters?: Readonly<Record<string, unknown>>,
): StrategySignals {
  const validation = validateParameters(type, parameters);
  if (!validation.ok) {
    throw new RangeError(`invalid ${type} parameters: ${JSON.stringify(validation.fields)}`);
  }
  return STRATEGIES[type].compute(candles, validation.parameters);
}
