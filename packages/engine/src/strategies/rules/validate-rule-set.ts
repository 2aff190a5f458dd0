// Checks a user's rule set (issue 26 §1) and answers it in normal form: every operand an object,
// indicator settings filled with their defaults. Field paths name the offending value
// (`entry_long.all.1.left.period`), each with a stable code from contracts.
import {
  FIELD_ERROR_CODES,
  RULE_ERROR_CODES,
  RULE_INDICATOR_DEFAULTS,
  RULE_INDICATORS,
  RULE_LIMITS,
  RULE_OPERATORS,
  RULE_PRICE_FIELDS,
  RULE_SLOTS,
  type RuleCondition,
  type RuleIndicator,
  type RuleOperand,
  type RuleOperator,
  type RulePriceField,
  type RuleSet,
} from '@quantsquare/contracts';

export interface RuleIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

export type RuleSetValidation =
  | { readonly ok: true; readonly rules: RuleSet }
  | { readonly ok: false; readonly issues: readonly RuleIssue[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const INDICATOR_SET: ReadonlySet<string> = new Set(RULE_INDICATORS);
const PRICE_SET: ReadonlySet<string> = new Set(RULE_PRICE_FIELDS);
const OPERATOR_SET: ReadonlySet<string> = new Set(RULE_OPERATORS);
const MACD_INDICATORS: ReadonlySet<string> = new Set(['macd', 'macd_signal', 'macd_hist']);
const BAND_INDICATORS: ReadonlySet<string> = new Set(['bb_upper', 'bb_mid', 'bb_lower']);

class Checker {
  readonly issues: RuleIssue[] = [];
  leaves = 0;

  /** Records an issue; answers null, the checked value of a refused field. */
  fail(path: string, code: string, message: string): null {
    this.issues.push({ path, code, message });
    return null;
  }

  /** A whole number in [min, max], or the fallback when absent; null (and an issue) if bad. */
  integer(value: unknown, path: string, min: number, max: number, fallback?: number) {
    if (value === undefined && fallback !== undefined) return fallback;
    if (value === undefined) return this.fail(path, FIELD_ERROR_CODES.required, 'Required');
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.fail(path, FIELD_ERROR_CODES.invalidType, 'Must be a number');
    }
    if (!Number.isInteger(value)) {
      return this.fail(path, FIELD_ERROR_CODES.notInteger, 'Must be a whole number');
    }
    if (value < min) return this.fail(path, FIELD_ERROR_CODES.tooSmall, `At least ${min}`);
    if (value > max) return this.fail(path, FIELD_ERROR_CODES.tooBig, `At most ${max}`);
    return value;
  }

  number(value: unknown, path: string, min: number, max: number, fallback: number) {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.fail(path, FIELD_ERROR_CODES.invalidType, 'Must be a number');
    }
    if (value < min) return this.fail(path, FIELD_ERROR_CODES.tooSmall, `At least ${min}`);
    if (value > max) return this.fail(path, FIELD_ERROR_CODES.tooBig, `At most ${max}`);
    return value;
  }

  unknownKeys(given: Json, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(given)) {
      if (!allowed.includes(key)) {
        this.fail(`${path}.${key}`, FIELD_ERROR_CODES.unknownField, 'Unknown field');
      }
    }
  }

  operand(raw: unknown, path: string): RuleOperand | null {
    // A bare price name is the short form of {price}.
    const given = typeof raw === 'string' && PRICE_SET.has(raw) ? { price: raw } : raw;
    if (!isObject(given)) {
      this.fail(path, RULE_ERROR_CODES.invalidOperand, 'An indicator, a price or a value');
      return null;
    }
    const offset = this.integer(given.offset, `${path}.offset`, 0, RULE_LIMITS.maxOffset, 0);
    if ('value' in given) {
      this.unknownKeys(given, ['value', 'offset'], path);
      const value = given.value;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        this.fail(`${path}.value`, FIELD_ERROR_CODES.invalidType, 'Must be a number');
        return null;
      }
      return offset === null ? null : { value, offset };
    }
    if ('price' in given) {
      this.unknownKeys(given, ['price', 'offset'], path);
      if (typeof given.price !== 'string' || !PRICE_SET.has(given.price)) {
        this.fail(`${path}.price`, FIELD_ERROR_CODES.invalidChoice, 'Unknown price field');
        return null;
      }
      return offset === null ? null : { price: given.price as RulePriceField, offset };
    }
    if ('indicator' in given) return this.indicator(given, path, offset);
    this.fail(path, RULE_ERROR_CODES.invalidOperand, 'An indicator, a price or a value');
    return null;
  }

  indicator(given: Json, path: string, offset: number | null): RuleOperand | null {
    const name = given.indicator;
    if (typeof name !== 'string' || !INDICATOR_SET.has(name)) {
      this.fail(`${path}.indicator`, FIELD_ERROR_CODES.invalidChoice, 'Unknown indicator');
      return null;
    }
    const indicator = name as RuleIndicator;
    const { minPeriod, maxPeriod } = RULE_LIMITS;
    if (MACD_INDICATORS.has(indicator)) {
      this.unknownKeys(
        given,
        ['indicator', 'fast_period', 'slow_period', 'signal_period', 'offset'],
        path,
      );
      const defaults = RULE_INDICATOR_DEFAULTS.macd;
      const fast = this.integer(
        given.fast_period,
        `${path}.fast_period`,
        minPeriod,
        maxPeriod,
        defaults.fast_period,
      );
      const slow = this.integer(
        given.slow_period,
        `${path}.slow_period`,
        minPeriod + 1,
        maxPeriod,
        defaults.slow_period,
      );
      const signal = this.integer(
        given.signal_period,
        `${path}.signal_period`,
        minPeriod,
        maxPeriod,
        defaults.signal_period,
      );
      if (fast === null || slow === null || signal === null || offset === null) return null;
      if (fast >= slow) {
        this.fail(`${path}.fast_period`, FIELD_ERROR_CODES.invalid, 'Fast below slow');
        return null;
      }
      return {
        indicator,
        fast_period: fast,
        slow_period: slow,
        signal_period: signal,
        offset,
      };
    }
    const isBand = BAND_INDICATORS.has(indicator);
    this.unknownKeys(
      given,
      isBand ? ['indicator', 'period', 'std_dev', 'offset'] : ['indicator', 'period', 'offset'],
      path,
    );
    // RSI and the bands need a window of at least two values to mean anything.
    const floor = indicator === 'sma' || indicator === 'ema' ? minPeriod : 2;
    const period = this.integer(given.period, `${path}.period`, floor, maxPeriod);
    if (!isBand) return period === null || offset === null ? null : { indicator, period, offset };
    const stdDev = this.number(
      given.std_dev,
      `${path}.std_dev`,
      RULE_LIMITS.minStdDev,
      RULE_LIMITS.maxStdDev,
      RULE_INDICATOR_DEFAULTS.bollinger.std_dev,
    );
    if (period === null || stdDev === null || offset === null) return null;
    return { indicator, period, std_dev: stdDev, offset };
  }

  condition(raw: unknown, path: string, depth: number): RuleCondition | null {
    if (!isObject(raw)) {
      this.fail(path, FIELD_ERROR_CODES.invalidType, 'A group or a comparison');
      return null;
    }
    const groupKey = 'all' in raw ? 'all' : 'any' in raw ? 'any' : null;
    if (groupKey !== null) {
      if (depth > RULE_LIMITS.maxDepth) {
        this.fail(path, RULE_ERROR_CODES.tooDeep, `Groups nest at most ${RULE_LIMITS.maxDepth}`);
        return null;
      }
      this.unknownKeys(raw, [groupKey], path);
      const items = raw[groupKey];
      if (!Array.isArray(items)) {
        this.fail(`${path}.${groupKey}`, FIELD_ERROR_CODES.invalidType, 'Must be a list');
        return null;
      }
      if (items.length === 0) {
        this.fail(`${path}.${groupKey}`, RULE_ERROR_CODES.emptyGroup, 'An empty group');
        return null;
      }
      const children = items.map((item, k) =>
        this.condition(item, `${path}.${groupKey}.${k}`, depth + 1),
      );
      if (children.some((child) => child === null)) return null;
      const checked = children as RuleCondition[];
      return groupKey === 'all' ? { all: checked } : { any: checked };
    }
    this.leaves++;
    this.unknownKeys(raw, ['left', 'op', 'right'], path);
    const left = this.operand(raw.left, `${path}.left`);
    const right = this.operand(raw.right, `${path}.right`);
    const op = raw.op;
    if (typeof op !== 'string' || !OPERATOR_SET.has(op)) {
      this.fail(`${path}.op`, FIELD_ERROR_CODES.invalidChoice, 'Unknown operator');
      return null;
    }
    if (left === null || right === null) return null;
    if ('value' in left && 'value' in right) {
      this.fail(path, RULE_ERROR_CODES.constantComparison, 'Compares two fixed values');
      return null;
    }
    return { left, op: op as RuleOperator, right };
  }
}

/** Checks `input` as a rule set; answers it in normal form or every issue found. */
export function validateRuleSet(input: unknown): RuleSetValidation {
  const checker = new Checker();
  if (!isObject(input)) {
    return {
      ok: false,
      issues: [{ path: '', code: FIELD_ERROR_CODES.invalidType, message: 'Must be an object' }],
    };
  }
  checker.unknownKeys(input, RULE_SLOTS, '');
  const rules: Record<string, RuleCondition | null> = {};
  for (const slot of RULE_SLOTS) {
    const raw = input[slot];
    rules[slot] = raw === undefined || raw === null ? null : checker.condition(raw, slot, 1);
  }
  if (checker.leaves > RULE_LIMITS.maxLeaves) {
    checker.fail(
      '',
      RULE_ERROR_CODES.tooManyLeaves,
      `At most ${RULE_LIMITS.maxLeaves} comparisons`,
    );
  }
  const hasEntry =
    (input.entry_long !== undefined && input.entry_long !== null) ||
    (input.entry_short !== undefined && input.entry_short !== null);
  if (!hasEntry) checker.fail('entry_long', RULE_ERROR_CODES.noEntry, 'No entry condition');
  if (checker.issues.length > 0) {
    // Paths of the top level start with a dot (`.foo`) when the key is unknown; trim it.
    const issues = checker.issues.map((issue) =>
      issue.path.startsWith('.') ? { ...issue, path: issue.path.slice(1) } : issue,
    );
    return { ok: false, issues };
  }
  return { ok: true, rules: rules as RuleSet };
}
