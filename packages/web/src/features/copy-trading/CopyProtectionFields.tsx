import {
  COPY_DRAWDOWN_LIMIT_MAX_PERCENT,
  COPY_SLIPPAGE_MAJOR_DEFAULT_PERCENT,
  COPY_SLIPPAGE_MAX_PERCENT,
  COPY_SLIPPAGE_OTHER_DEFAULT_PERCENT,
  type CopyMode,
} from '@quantsquare/contracts';
import { Flex, Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { optionalPercentProblem } from './copy-format';

/** A relation's optional protections: empty is the default cap per symbol / no drift breaker. */
export interface CopyProtection {
  slippage: number | null;
  drift: number | null;
}

/** Whether a protection is out of its range (the form cannot be sent). */
export function isProtectionRefused(value: CopyProtection): boolean {
  return (
    optionalPercentProblem(value.slippage, COPY_SLIPPAGE_MAX_PERCENT) !== null ||
    optionalPercentProblem(value.drift, COPY_DRAWDOWN_LIMIT_MAX_PERCENT) !== null
  );
}

/** One optional percent limit: empty shows `placeholder`; out of (0, max] says the range. */
function PercentLimitField({
  label,
  value,
  onChange,
  max,
  step,
  hint,
  placeholder,
  testId,
}: {
  label: string;
  value: number | null;
  onChange: (next: number | null) => void;
  max: number;
  step: number;
  hint: string;
  placeholder: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const refused = optionalPercentProblem(value, max) !== null;
  return (
    <Form.Item
      label={label}
      style={{ flex: '1 1 180px', marginBottom: 12 }}
      validateStatus={refused ? 'error' : undefined}
      help={refused ? t('copy.modal.percentRange', { max }) : undefined}
      extra={refused ? undefined : hint}
    >
      <InputNumber<number>
        step={step}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        style={{ width: '100%' }}
        data-testid={testId}
      />
    </Form.Item>
  );
}

/**
 * The entry slippage cap and the leader-drift limit, as the copy and edit modals ask them. The
 * drift's hint follows the mode: a normal copy's leader drifts down from its high, a reverse
 * copy's up from its low.
 */
export function CopyProtectionFields({
  value,
  onChange,
  mode,
}: {
  value: CopyProtection;
  onChange: (next: CopyProtection) => void;
  mode: CopyMode;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={12} wrap>
      <PercentLimitField
        label={t('copy.modal.slippage')}
        value={value.slippage}
        onChange={(slippage) => onChange({ ...value, slippage })}
        max={COPY_SLIPPAGE_MAX_PERCENT}
        step={0.1}
        hint={t('copy.modal.slippageHint', {
          major: COPY_SLIPPAGE_MAJOR_DEFAULT_PERCENT,
          other: COPY_SLIPPAGE_OTHER_DEFAULT_PERCENT,
        })}
        placeholder={t('copy.modal.byDefault')}
        testId="copy-slippage"
      />
      <PercentLimitField
        label={t('copy.modal.drift')}
        value={value.drift}
        onChange={(drift) => onChange({ ...value, drift })}
        max={COPY_DRAWDOWN_LIMIT_MAX_PERCENT}
        step={1}
        hint={t(`copy.modal.driftHint.${mode}`)}
        placeholder={t('copy.modal.off')}
        testId="copy-drift"
      />
    </Flex>
  );
}
