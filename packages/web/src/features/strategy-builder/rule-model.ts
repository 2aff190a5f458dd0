// The builder's rule set: plain contracts data edited immutably, and the client's own checks (the
// server repeats them with the engine's). The sentence is shared/rules/describe-rules.ts.
import {
  RULE_INDICATOR_DEFAULTS,
  RULE_LIMITS,
  RULE_SLOTS,
  type RuleCondition,
  type RuleIndicator,
  type RuleLeaf,
  type RuleOperand,
  type RuleSet,
  type RuleSlot,
} from '@quantsquare/contracts';
import {
  BAND_INDICATORS,
  childrenOf,
  isLeaf,
  MACD_INDICATORS,
} from '../../shared/rules/describe-rules';

export type EditableRules = Record<RuleSlot, RuleCondition | null>;

export function emptyRules(): EditableRules {
  return { entry_long: null, exit_long: null, entry_short: null, exit_short: null };
}

/** The builder's starting point: "SMA(10) crosses above SMA(30) → long; below → exit long". */
export function starterRules(): EditableRules {
  return {
    ...emptyRules(),
    entry_long: newLeaf(),
    exit_long: { ...newLeaf(), op: 'crosses_below' },
  };
}

export function newLeaf(): RuleLeaf {
  return {
    left: { indicator: 'sma', period: 10 },
    op: 'crosses_above',
    right: { indicator: 'sma', period: 30 },
  };
}

export function leafCount(condition: RuleCondition | null): number {
  if (condition === null) return 0;
  if (isLeaf(condition)) return 1;
  return childrenOf(condition).reduce((sum, child) => sum + leafCount(child), 0);
}

export function totalLeaves(rules: EditableRules): number {
  return RULE_SLOTS.reduce((sum, slot) => sum + leafCount(rules[slot]), 0);
}

/** A default operand of `kind`, for the operand editor's kind switch. */
export function operandOfKind(kind: 'indicator' | 'price' | 'value'): RuleOperand {
  if (kind === 'price') return { price: 'close' };
  if (kind === 'value') return { value: 50 };
  return { indicator: 'sma', period: 20 };
}

export function withIndicator(operand: RuleOperand, indicator: RuleIndicator): RuleOperand {
  const offset = operand.offset;
  const keep = offset ? { offset } : {};
  if (MACD_INDICATORS.includes(indicator)) {
    return { indicator, ...RULE_INDICATOR_DEFAULTS.macd, ...keep };
  }
  const period = 'period' in operand && operand.period ? operand.period : 14;
  if (BAND_INDICATORS.includes(indicator)) {
    return { indicator, period, std_dev: RULE_INDICATOR_DEFAULTS.bollinger.std_dev, ...keep };
  }
  return { indicator, period, ...keep };
}

export type ProblemKey =
  | 'needEntry'
  | 'tooManyLeaves'
  | 'periodRange'
  | 'valueRequired'
  | 'offsetRange'
  | 'fastBelowSlow'
  | 'constantComparison';

/** One of the client's findings; `path` as the server names fields (`entry_long.all.0.left`). */
export interface Problem {
  readonly path: string;
  readonly key: ProblemKey;
}

const isWhole = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function operandProblems(operand: RuleOperand, path: string, out: Problem[]): void {
  if (operand.offset !== undefined && !isWhole(operand.offset, 0, RULE_LIMITS.maxOffset)) {
    out.push({ path: `${path}.offset`, key: 'offsetRange' });
  }
  if ('value' in operand) {
    if (typeof operand.value !== 'number' || !Number.isFinite(operand.value)) {
      out.push({ path: `${path}.value`, key: 'valueRequired' });
    }
    return;
  }
  if (!('indicator' in operand)) return;
  const { maxPeriod } = RULE_LIMITS;
  if (MACD_INDICATORS.includes(operand.indicator)) {
    for (const name of ['fast_period', 'slow_period', 'signal_period'] as const) {
      if (!isWhole(operand[name], 1, maxPeriod)) {
        out.push({ path: `${path}.${name}`, key: 'periodRange' });
      }
    }
    if ((operand.fast_period ?? 0) >= (operand.slow_period ?? 0)) {
      out.push({ path: `${path}.fast_period`, key: 'fastBelowSlow' });
    }
    return;
  }
  const floor = operand.indicator === 'sma' || operand.indicator === 'ema' ? 1 : 2;
  if (!isWhole(operand.period, floor, maxPeriod)) {
    out.push({ path: `${path}.period`, key: 'periodRange' });
  }
}

function conditionProblems(condition: RuleCondition, path: string, out: Problem[]): void {
  if (isLeaf(condition)) {
    operandProblems(condition.left, `${path}.left`, out);
    operandProblems(condition.right, `${path}.right`, out);
    if ('value' in condition.left && 'value' in condition.right) {
      out.push({ path, key: 'constantComparison' });
    }
    return;
  }
  const key = 'all' in condition ? 'all' : 'any';
  childrenOf(condition).forEach((child, k) => {
    conditionProblems(child, `${path}.${key}.${k}`, out);
  });
}

/** What keeps the rules from being saved, before the server is asked. */
export function ruleProblems(rules: EditableRules): Problem[] {
  const out: Problem[] = [];
  if (rules.entry_long === null && rules.entry_short === null) {
    out.push({ path: 'entry_long', key: 'needEntry' });
  }
  if (totalLeaves(rules) > RULE_LIMITS.maxLeaves) out.push({ path: '', key: 'tooManyLeaves' });
  for (const slot of RULE_SLOTS) {
    const condition = rules[slot];
    if (condition) conditionProblems(condition, slot, out);
  }
  return out;
}

/** The stored form back into the editor's (null slots kept). */
export function editableFrom(rules: RuleSet | Record<string, unknown>): EditableRules {
  const out = emptyRules();
  for (const slot of RULE_SLOTS) {
    const value = (rules as Record<string, unknown>)[slot];
    out[slot] = value ? (value as RuleCondition) : null;
  }
  return out;
}
