import {
  STOP_LOSS_MAX,
  STOP_LOSS_MIN,
  TAKE_PROFIT_MAX,
  TAKE_PROFIT_MIN,
  TRADE_AMOUNT_MAX,
  TRADE_AMOUNT_MIN,
  TRADE_AMOUNT_STEP,
} from '@quantsquare/contracts';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoneyLimit } from '../../shared/format/money';
import { type NumberFieldRule, numberFieldProblem } from '../../shared/forms/number-field';

// The form's number rules (document 1 §5). The inputs take what is typed; a value out of range or
// off its step is shown as an error and blocks the submit, never clamped or rounded.
const AMOUNT_RULE: NumberFieldRule = { min: TRADE_AMOUNT_MIN, max: TRADE_AMOUNT_MAX, decimals: 2 };
const STOP_LOSS_RULE: NumberFieldRule = { min: STOP_LOSS_MIN, max: STOP_LOSS_MAX, decimals: 1 };
const TAKE_PROFIT_RULE: NumberFieldRule = {
  min: TAKE_PROFIT_MIN,
  max: TAKE_PROFIT_MAX,
  decimals: 1,
};
const PERCENT_STEP = 0.1;

/** The bot form's trade amount, stop-loss and take-profit, with their rules. */
export function BotSizeFields() {
  const { t, i18n } = useTranslation();
  const numberRule = (rule: NumberFieldRule, rangeText: string, step: number) => ({
    validator: (_: unknown, value: unknown) => {
      if (value === null || value === undefined || value === '') return Promise.resolve();
      const problem = typeof value === 'number' ? numberFieldProblem(value, rule) : 'step';
      if (problem === null) return Promise.resolve();
      return Promise.reject(
        new Error(problem === 'step' ? t('bots.form.stepRule', { step }) : rangeText),
      );
    },
  });
  const amountRange = (value: number) => formatMoneyLimit(value, i18n.language);

  return (
    <>
      <Form.Item
        name="trade_amount"
        label={t('bots.form.amount')}
        rules={[
          { required: true, message: t('bots.form.amountRequired') },
          numberRule(
            AMOUNT_RULE,
            t('bots.form.amountRange', {
              min: amountRange(TRADE_AMOUNT_MIN),
              max: amountRange(TRADE_AMOUNT_MAX),
            }),
            TRADE_AMOUNT_STEP,
          ),
        ]}
      >
        <InputNumber
          data-testid="bot-form-amount"
          step={TRADE_AMOUNT_STEP}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <div style={{ display: 'grid', gap: '0 12px', gridTemplateColumns: '1fr 1fr' }}>
        <Form.Item
          name="stop_loss_percentage"
          label={t('bots.form.stopLoss')}
          tooltip={t('bots.form.optional')}
          rules={[
            numberRule(
              STOP_LOSS_RULE,
              t('bots.form.stopLossRange', { min: STOP_LOSS_MIN, max: STOP_LOSS_MAX }),
              PERCENT_STEP,
            ),
          ]}
        >
          <InputNumber
            data-testid="bot-form-stop-loss"
            step={PERCENT_STEP}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item
          name="take_profit_percentage"
          label={t('bots.form.takeProfit')}
          tooltip={t('bots.form.optional')}
          rules={[
            numberRule(
              TAKE_PROFIT_RULE,
              t('bots.form.takeProfitRange', { min: TAKE_PROFIT_MIN, max: TAKE_PROFIT_MAX }),
              PERCENT_STEP,
            ),
          ]}
        >
          <InputNumber
            data-testid="bot-form-take-profit"
            step={PERCENT_STEP}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </div>
    </>
  );
}
