import {
  RULE_INDICATORS,
  RULE_LIMITS,
  RULE_PRICE_FIELDS,
  type RuleIndicator,
  type RuleOperand,
  type RulePriceField,
} from '@quantsquare/contracts';
import { Flex, InputNumber, Select, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { BAND_INDICATORS, MACD_INDICATORS } from '../../shared/rules/describe-rules';
import { operandOfKind, type ProblemKey, withIndicator } from './rule-model';

type Kind = 'indicator' | 'price' | 'value';

const kindOf = (operand: RuleOperand): Kind =>
  'indicator' in operand ? 'indicator' : 'price' in operand ? 'price' : 'value';

interface Props {
  value: RuleOperand;
  onChange: (next: RuleOperand) => void;
  /** Problems of this operand's fields, by field name (`period`, `value`, …). */
  problems: ReadonlyMap<string, ProblemKey>;
  testId: string;
}

/** The candle price a price operand reads. */
function PriceFieldSelect({
  value,
  onChange,
  testId,
}: {
  value: RulePriceField;
  onChange: (next: RulePriceField) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Select<RulePriceField>
      size="small"
      data-testid={`${testId}-price`}
      aria-label={t('builder.kinds.price')}
      value={value}
      onChange={onChange}
      options={RULE_PRICE_FIELDS.map((name) => ({
        value: name,
        label: t(`builder.prices.${name}`),
      }))}
      style={{ width: 96 }}
    />
  );
}

/** How many candles back the operand is read (0: the last closed one). */
function OffsetInput({
  value,
  hasProblem,
  onChange,
}: {
  value: number;
  hasProblem: boolean;
  onChange: (next: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <InputNumber<number>
      size="small"
      aria-label={t('builder.offset')}
      prefix={t('builder.offset')}
      min={0}
      max={RULE_LIMITS.maxOffset}
      precision={0}
      status={hasProblem ? 'error' : undefined}
      value={value}
      onChange={(next) => onChange(next ?? 0)}
      style={{ width: 124 }}
    />
  );
}

/** One side of a comparison: an indicator with its settings, a price or a fixed value. */
export function OperandEditor({ value, onChange, problems, testId }: Props) {
  const { t } = useTranslation();
  const kind = kindOf(value);
  const status = (field: string) => (problems.has(field) ? 'error' : undefined);
  const problemText = (field: string) => {
    const key = problems.get(field);
    return key ? t(`builder.problems.${key}`, { min: 1, max: RULE_LIMITS.maxPeriod }) : undefined;
  };
  const whole = (
    field: 'period' | 'fast_period' | 'slow_period' | 'signal_period',
    label: string,
  ) => (
    <Tooltip title={problemText(field)} open={problems.has(field) ? undefined : false}>
      <InputNumber<number>
        size="small"
        aria-label={label}
        data-testid={`${testId}-${field}`}
        prefix={label}
        min={1}
        max={RULE_LIMITS.maxPeriod}
        precision={0}
        status={status(field)}
        value={'indicator' in value ? (value[field] ?? null) : null}
        onChange={(next) => onChange({ ...value, [field]: next ?? undefined } as RuleOperand)}
        style={{ width: 104 }}
      />
    </Tooltip>
  );

  return (
    <Flex wrap gap={4} align="center" data-testid={testId}>
      <Select<Kind>
        size="small"
        aria-label={t('builder.kinds.indicator')}
        data-testid={`${testId}-kind`}
        value={kind}
        onChange={(next) => onChange(operandOfKind(next))}
        options={(['indicator', 'price', 'value'] as const).map((k) => ({
          value: k,
          label: t(`builder.kinds.${k}`),
        }))}
        style={{ width: 100 }}
      />
      {'indicator' in value && (
        <>
          <Select<RuleIndicator>
            size="small"
            data-testid={`${testId}-indicator`}
            aria-label={t('builder.kinds.indicator')}
            value={value.indicator}
            onChange={(next) => onChange(withIndicator(value, next))}
            options={RULE_INDICATORS.map((name) => ({
              value: name,
              label: t(`builder.indicators.${name}`),
            }))}
            popupMatchSelectWidth={false}
            style={{ width: 128 }}
          />
          {MACD_INDICATORS.includes(value.indicator) ? (
            <>
              {whole('fast_period', t('builder.fastPeriod'))}
              {whole('slow_period', t('builder.slowPeriod'))}
              {whole('signal_period', t('builder.signalPeriod'))}
            </>
          ) : (
            whole('period', t('builder.period'))
          )}
          {BAND_INDICATORS.includes(value.indicator) && (
            <InputNumber<number>
              size="small"
              aria-label={t('builder.stdDev')}
              prefix={t('builder.stdDev')}
              min={RULE_LIMITS.minStdDev}
              max={RULE_LIMITS.maxStdDev}
              step={0.5}
              value={value.std_dev ?? null}
              onChange={(next) => onChange({ ...value, std_dev: next ?? undefined })}
              style={{ width: 120 }}
            />
          )}
        </>
      )}
      {'price' in value && (
        <PriceFieldSelect
          value={value.price}
          onChange={(price) => onChange({ ...value, price })}
          testId={testId}
        />
      )}
      {'value' in value && (
        <Tooltip title={problemText('value')} open={problems.has('value') ? undefined : false}>
          <InputNumber<number>
            size="small"
            aria-label={t('builder.value')}
            data-testid={`${testId}-value`}
            status={status('value')}
            value={Number.isFinite(value.value) ? value.value : null}
            onChange={(next) => onChange({ ...value, value: next ?? Number.NaN })}
            style={{ width: 96 }}
          />
        </Tooltip>
      )}
      <OffsetInput
        value={value.offset ?? 0}
        hasProblem={problems.has('offset')}
        onChange={(offset) => onChange({ ...value, offset })}
      />
    </Flex>
  );
}
