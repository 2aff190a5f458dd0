import { describe, expect, it } from 'vitest';
import { validateRuleSet } from './validate-rule-set.js';

const leaf = { left: { price: 'close' }, op: 'gt', right: { value: 1 } };
const nest = (depth: number): unknown => (depth === 0 ? leaf : { all: [nest(depth - 1)] });

// Each case: a rule set and the (path, code) pairs it is refused with.
const REFUSED: readonly { name: string; rules: unknown; issues: [string, string][] }[] = [
  { name: 'not an object', rules: [], issues: [['', 'invalid_type']] },
  { name: 'no entry at all', rules: { exit_long: leaf }, issues: [['entry_long', 'no_entry']] },
  {
    name: 'an unknown slot',
    rules: { entry_long: leaf, enter: leaf },
    issues: [['enter', 'unknown_field']],
  },
  {
    name: 'groups nested five deep',
    rules: { entry_long: nest(5) },
    issues: [['entry_long.all.0.all.0.all.0.all.0', 'too_deep']],
  },
  {
    name: 'twenty-one comparisons',
    rules: { entry_long: { any: Array.from({ length: 21 }, () => leaf) } },
    issues: [['', 'too_many_leaves']],
  },
  {
    name: 'an empty group',
    rules: { entry_long: { all: [] } },
    issues: [['entry_long.all', 'empty_group']],
  },
  {
    name: 'an unknown operator',
    rules: { entry_long: { ...leaf, op: 'eq' } },
    issues: [['entry_long.op', 'invalid_choice']],
  },
  {
    name: 'an unknown indicator',
    rules: { entry_long: { ...leaf, left: { indicator: 'vwap', period: 3 } } },
    issues: [['entry_long.left.indicator', 'invalid_choice']],
  },
  {
    name: 'an indicator without its period',
    rules: { entry_long: { ...leaf, left: { indicator: 'sma' } } },
    issues: [['entry_long.left.period', 'required']],
  },
  {
    name: 'a fractional period, a negative offset',
    rules: {
      entry_long: {
        all: [
          { ...leaf, left: { indicator: 'ema', period: 2.5 } },
          { ...leaf, right: { value: 1, offset: -1 } },
        ],
      },
    },
    issues: [
      ['entry_long.all.0.left.period', 'not_integer'],
      ['entry_long.all.1.right.offset', 'too_small'],
    ],
  },
  {
    name: 'a period too long',
    rules: { entry_long: { ...leaf, left: { indicator: 'rsi', period: 501 } } },
    issues: [['entry_long.left.period', 'too_big']],
  },
  {
    name: 'MACD with fast not below slow',
    rules: {
      entry_long: { ...leaf, left: { indicator: 'macd', fast_period: 30, slow_period: 20 } },
    },
    issues: [['entry_long.left.fast_period', 'invalid']],
  },
  {
    name: 'a price that is not one',
    rules: { entry_long: { ...leaf, left: { price: 'vwap' } } },
    issues: [['entry_long.left.price', 'invalid_choice']],
  },
  {
    name: 'two fixed values',
    rules: { entry_long: { left: { value: 1 }, op: 'gt', right: { value: 2 } } },
    issues: [['entry_long', 'constant_comparison']],
  },
  {
    name: 'a string as a value (no expressions)',
    rules: { entry_long: { ...leaf, right: { value: '1+1' } } },
    issues: [['entry_long.right.value', 'invalid_type']],
  },
];

describe('validateRuleSet', () => {
  it.each(REFUSED)('refuses $name', ({ rules, issues }) => {
    const validation = validateRuleSet(rules);
    expect(validation.ok).toBe(false);
    if (validation.ok) return;
    expect(validation.issues.map((issue) => [issue.path, issue.code])).toEqual(issues);
  });

  it('accepts four levels of groups and twenty comparisons', () => {
    const twenty = { any: [nest(3), ...Array.from({ length: 19 }, () => leaf)] };
    expect(validateRuleSet({ entry_long: twenty }).ok).toBe(true);
  });

  it('answers the normal form: prices as objects, offsets and indicator defaults filled', () => {
    const validation = validateRuleSet({
      entry_short: {
        left: 'close',
        op: 'crosses_below',
        right: { indicator: 'bb_lower', period: 20 },
      },
      exit_short: { left: { indicator: 'macd_hist' }, op: 'gt', right: { value: 0 } },
    });
    expect(validation).toEqual({
      ok: true,
      rules: {
        entry_long: null,
        exit_long: null,
        entry_short: {
          left: { price: 'close', offset: 0 },
          op: 'crosses_below',
          right: { indicator: 'bb_lower', period: 20, std_dev: 2, offset: 0 },
        },
        exit_short: {
          left: {
            indicator: 'macd_hist',
            fast_period: 12,
            slow_period: 26,
            signal_period: 9,
            offset: 0,
          },
          op: 'gt',
          right: { value: 0, offset: 0 },
        },
      },
    });
  });
});
