// A rule set in words, in the reader's language: the builder's preview and a published
// strategy's page say the same sentence ("Open long when SMA(10) crosses above SMA(30).").
import '../../i18n/builder-texts';
import {
  RULE_INDICATOR_DEFAULTS,
  RULE_SLOTS,
  type RuleCondition,
  type RuleIndicator,
  type RuleLeaf,
  type RuleOperand,
  type RuleSlot,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';

export const MACD_INDICATORS: readonly RuleIndicator[] = ['macd', 'macd_signal', 'macd_hist'];
export const BAND_INDICATORS: readonly RuleIndicator[] = ['bb_upper', 'bb_mid', 'bb_lower'];

export function isLeaf(condition: RuleCondition): condition is RuleLeaf {
  return 'left' in condition;
}

export function childrenOf(condition: RuleCondition): readonly RuleCondition[] {
  if (isLeaf(condition)) return [];
  return 'all' in condition ? condition.all : condition.any;
}

/** The operand in words: "SMA(10)", "close", "RSI(14) 2 bars ago", "30". */
export function describeOperand(t: TFunction, operand: RuleOperand): string {
  let text: string;
  if ('value' in operand) {
    text = String(operand.value);
  } else if ('price' in operand) {
    text = t(`builder.prices.${operand.price}`);
  } else {
    const name = t(`builder.indicators.${operand.indicator}`);
    text = MACD_INDICATORS.includes(operand.indicator)
      ? `${name}(${operand.fast_period},${operand.slow_period},${operand.signal_period})`
      : BAND_INDICATORS.includes(operand.indicator)
        ? `${name}(${operand.period},${operand.std_dev ?? RULE_INDICATOR_DEFAULTS.bollinger.std_dev})`
        : `${name}(${operand.period})`;
  }
  return operand.offset
    ? t('builder.sentence.ago', { operand: text, count: operand.offset })
    : text;
}

export function describeCondition(
  t: TFunction,
  condition: RuleCondition,
  isNested = false,
): string {
  if (isLeaf(condition)) {
    return t('builder.sentence.leaf', {
      left: describeOperand(t, condition.left),
      op: t(`builder.operators.${condition.op}`),
      right: describeOperand(t, condition.right),
    });
  }
  const joiner = t('all' in condition ? 'builder.sentence.and' : 'builder.sentence.or');
  const text = childrenOf(condition)
    .map((child) => describeCondition(t, child, true))
    .join(joiner);
  return isNested && childrenOf(condition).length > 1 ? `(${text})` : text;
}

/** One sentence per slot that has a condition. */
export function describeRules(
  t: TFunction,
  rules: Readonly<Record<RuleSlot, RuleCondition | null>>,
): string[] {
  return RULE_SLOTS.flatMap((slot) => {
    const condition = rules[slot];
    if (!condition) return [];
    return [t(`builder.sentence.${slot}`, { condition: describeCondition(t, condition) })];
  });
}
