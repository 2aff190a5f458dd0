// Number fields of the forms (bot form, Add API): a typed value is checked against its range and
// step and the problem is shown; antd's InputNumber would otherwise clamp or round it silently.

/** What is wrong with a number typed into a form, or null when it is fine. */
export type NumberFieldProblem = 'tooSmall' | 'tooBig' | 'step';

export interface NumberFieldRule {
  min: number;
  max: number;
  /** Decimals the field's step allows (0.01 → 2, 0.1 → 1). */
  decimals: number;
}

/**
 * Checks a number against its field's range and step. The form shows the problem and keeps the
 * value as typed: nothing is clamped or rounded behind the user's back.
 */
export function numberFieldProblem(
  value: number,
  rule: NumberFieldRule,
): NumberFieldProblem | null {
  if (!Number.isFinite(value)) return 'step';
  if (value < rule.min) return 'tooSmall';
  if (value > rule.max) return 'tooBig';
  const scaled = value * 10 ** rule.decimals;
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) return 'step';
  return null;
}
