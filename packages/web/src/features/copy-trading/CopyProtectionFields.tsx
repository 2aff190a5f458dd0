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

/** What is wrong with the protections (none: both null). */
export function protectionProblems(value: CopyProtection) {
  return {
    slippage: optionalPercentProblem(value.slippage, COPY_SLIPPAGE_MAX_PERCENT),
    drift: optionalPercentProblem(value.drift, COPY_DRAWDOWN_LIMIT_MAX_PERCENT),
  };
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
  const problems = protectionProblems(value);
  return (
    <Flex gap={12} wrap>
      <Form.Item
        label={t('copy.modal.slippage')}
        style={{ flex: '1 1 180px', marginBottom: 12 }}
        validateStatus={problems.slippage ? 'error' : undefined}
        help={
          problems.slippage
            ? t('copy.modal.percentRange', { max: COPY_SLIPPAGE_MAX_PERCENT })
            : undefined
        }
        extra={
          problems.slippage
            ? undefined
            : t('copy.modal.slippageHint', {
                major: COPY_SLIPPAGE_MAJOR_DEFAULT_PERCENT,
                other: COPY_SLIPPAGE_OTHER_DEFAULT_PERCENT,
              })
        }
      >
        <InputNumber<number>
          step={0.1}
          value={value.slippage}
          onChange={(slippage) => onChange({ ...value, slippage })}
          placeholder={t('copy.modal.byDefault')}
          style={{ width: '100%' }}
          data-testid="copy-slippage"
        />
      </Form.Item>
      <Form.Item
        label={t('copy.modal.drift')}
        style={{ flex: '1 1 180px', marginBottom: 12 }}
        validateStatus={problems.drift ? 'error' : undefined}
        help={
          problems.drift
            ? t('copy.modal.percentRange', { max: COPY_DRAWDOWN_LIMIT_MAX_PERCENT })
            : undefined
        }
        extra={problems.drift ? undefined : t(`copy.modal.driftHint.${mode}`)}
      >
        <InputNumber<number>
          step={1}
          value={value.drift}
          onChange={(drift) => onChange({ ...value, drift })}
          placeholder={t('copy.modal.off')}
          style={{ width: '100%' }}
          data-testid="copy-drift"
        />
      </Form.Item>
    </Flex>
  );
}
