import {
  WEBHOOK_AMOUNT_MAX,
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_LEVERAGE_MAX,
  WEBHOOK_LEVERAGE_MIN,
  WEBHOOK_MAX_SIGNAL_AGE_MAX,
  WEBHOOK_MAX_SIGNAL_AGE_MIN,
} from '@quantsquare/contracts';
import { Form, InputNumber } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatGrouped } from '../../shared/format/money';
import { type NumberFieldRule, numberFieldProblem } from '../../shared/forms/number-field';

const isWholeInRange = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
/** The amount fields' rule, checked as the bot form checks its numbers (shown, never clamped). */
const AMOUNT_RULE: NumberFieldRule = {
  min: WEBHOOK_AMOUNT_MIN,
  max: WEBHOOK_AMOUNT_MAX,
  decimals: 2,
};

/** An amount's rules: in range and in cents; a missing one is allowed when `optional`. */
function amountRulesFor(t: TFunction, optional: boolean): Rule[] {
  const amountText = t('webhooks.form.rules.amountRange', {
    min: WEBHOOK_AMOUNT_MIN,
    max: formatGrouped(WEBHOOK_AMOUNT_MAX, 'en-US'),
  });
  return [
    {
      validator: (_, value: unknown) => {
        if (value === null || value === undefined) {
          return optional ? Promise.resolve() : Promise.reject(new Error(amountText));
        }
        const problem = typeof value === 'number' ? numberFieldProblem(value, AMOUNT_RULE) : 'step';
        if (problem === null) return Promise.resolve();
        return Promise.reject(
          new Error(problem === 'step' ? t('webhooks.form.rules.amountStep') : amountText),
        );
      },
    },
  ];
}

/** The largest amount is not below the default one. */
const notBelowDefault =
  (t: TFunction): Rule =>
  ({ getFieldValue }) => ({
    validator: (_, value: unknown) => {
      const base = getFieldValue('default_amount');
      if (typeof value === 'number' && typeof base === 'number' && value < base) {
        return Promise.reject(new Error(t('webhooks.form.rules.maxBelowDefault')));
      }
      return Promise.resolve();
    },
  });

/** A whole number from `min` to `max`, else `text`. */
const wholeInRange = (min: number, max: number, text: string): Rule => ({
  validator: (_, value: unknown) =>
    isWholeInRange(value, min, max) ? Promise.resolve() : Promise.reject(new Error(text)),
});

/** How much each signal trades: default and largest amount, leverage, and the oldest signal. */
export function ConfigSizeFields() {
  const { t } = useTranslation();
  const amountRules = (optional: boolean) => amountRulesFor(t, optional);

  return (
    <div
      style={{
        display: 'grid',
        gap: '0 12px',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))',
      }}
    >
      <Form.Item
        name="default_amount"
        label={t('webhooks.form.defaultAmount')}
        tooltip={t('webhooks.form.defaultAmountHint')}
        rules={amountRules(false)}
      >
        {/* No min/max/precision on these numbers: antd would change a typed value unseen
            (-100 became 10); the rules above say what is wrong instead. */}
        <InputNumber
          step={1}
          style={{ width: '100%' }}
          suffix="USDT"
          data-testid="webhook-form-amount"
        />
      </Form.Item>
      <Form.Item
        name="max_amount"
        label={t('webhooks.form.maxAmount')}
        dependencies={['default_amount']}
        rules={[...amountRules(true), notBelowDefault(t)]}
      >
        <InputNumber
          step={1}
          style={{ width: '100%' }}
          placeholder={t('webhooks.form.maxAmountPlaceholder')}
          suffix="USDT"
          data-testid="webhook-form-max-amount"
        />
      </Form.Item>
      <Form.Item
        name="leverage"
        label={t('webhooks.form.leverage')}
        tooltip={t('webhooks.form.leverageHint')}
        rules={[
          wholeInRange(
            WEBHOOK_LEVERAGE_MIN,
            WEBHOOK_LEVERAGE_MAX,
            t('webhooks.form.rules.leverageRange', {
              min: WEBHOOK_LEVERAGE_MIN,
              max: WEBHOOK_LEVERAGE_MAX,
            }),
          ),
        ]}
      >
        <InputNumber
          step={1}
          style={{ width: '100%' }}
          suffix="x"
          data-testid="webhook-form-leverage"
        />
      </Form.Item>
      <Form.Item
        name="max_signal_age"
        label={t('webhooks.form.maxSignalAge')}
        tooltip={t('webhooks.form.maxSignalAgeHint')}
        rules={[
          wholeInRange(
            WEBHOOK_MAX_SIGNAL_AGE_MIN,
            WEBHOOK_MAX_SIGNAL_AGE_MAX,
            t('webhooks.form.rules.maxAgeRange', {
              min: WEBHOOK_MAX_SIGNAL_AGE_MIN,
              max: WEBHOOK_MAX_SIGNAL_AGE_MAX,
            }),
          ),
        ]}
      >
        <InputNumber step={1} style={{ width: '100%' }} data-testid="webhook-form-max-age" />
      </Form.Item>
    </div>
  );
}
