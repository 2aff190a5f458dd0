import {
  CANDLE_LIMIT_MAX,
  DEFAULT_SYMBOLS,
  EXCHANGES,
  type Exchange,
  OPTIMISATION_MAX_COMBINATIONS,
  OPTIMISATION_MIN_IN_SAMPLE_BARS,
  OPTIMISATION_MIN_OUT_OF_SAMPLE_BARS,
  OPTIMISATION_OBJECTIVES,
  type OptimisationObjective,
  type OptimisationRequest,
  TIMEFRAMES,
  type Timeframe,
} from '@quantsquare/contracts';
import { Alert, Button, Checkbox, Flex, InputNumber, Select, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStrategies, useSymbols } from '../../api/trading';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import {
  type AxisDraft,
  axisCount,
  defaultAxes,
  gridCount,
  gridOf,
  parameterLabel,
} from './optimise-grid';

interface Props {
  initialStrategyType?: string;
  isSubmitting: boolean;
  /** The request's refusal, worded for the reader (null when none). */
  errorText: string | null;
  onSubmit: (request: OptimisationRequest) => void;
}

const labelStyle = { display: 'block', fontSize: 12, marginBottom: 4 } as const;

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={labelStyle}>
        {label}
      </Typography.Text>
      {children}
    </div>
  );
}

/** One parameter of the grid: whether it varies, and its range and step. */
function AxisRow({
  axis,
  label,
  isMobile,
  onChange,
}: {
  axis: AxisDraft;
  label: string;
  isMobile: boolean;
  onChange: (patch: Partial<AxisDraft>) => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      data-testid={`optimise-axis-${axis.name}`}
      style={{
        display: 'grid',
        gap: 8,
        alignItems: 'center',
        // A phone puts the name on its own line above the three inputs.
        gridTemplateColumns: isMobile
          ? 'repeat(3, minmax(0, 1fr)) 36px'
          : 'minmax(110px, 1.4fr) repeat(3, minmax(60px, 1fr)) 44px',
      }}
    >
      <Checkbox
        style={isMobile ? { gridColumn: '1 / -1' } : undefined}
        checked={axis.isEnabled}
        onChange={(event) => onChange({ isEnabled: event.target.checked })}
        data-testid={`optimise-axis-${axis.name}-vary`}
      >
        {label}
      </Checkbox>
      {(['min', 'max', 'step'] as const).map((part) => (
        <InputNumber
          key={part}
          aria-label={`${label} ${t(part === 'step' ? 'optimise.form.stepValue' : `optimise.form.${part}`)}`}
          placeholder={t(part === 'step' ? 'optimise.form.stepValue' : `optimise.form.${part}`)}
          disabled={!axis.isEnabled}
          value={axis[part]}
          precision={axis.integer ? 0 : 2}
          onChange={(value) => onChange({ [part]: value })}
          data-testid={`optimise-axis-${axis.name}-${part}`}
          style={{ width: '100%' }}
        />
      ))}
      <Typography.Text type="secondary" style={{ textAlign: 'right' }}>
        {axis.isEnabled ? `×${axisCount(axis)}` : ''}
      </Typography.Text>
    </div>
  );
}

type Bars = number | null;

/** How many candles, and the walk-forward windows: in sample, out of sample, and the step. */
function WindowFields(props: {
  limit: Bars;
  onLimit: (value: Bars) => void;
  inSample: Bars;
  onInSample: (value: Bars) => void;
  outOfSample: Bars;
  onOutOfSample: (value: Bars) => void;
  step: Bars;
  onStep: (value: Bars) => void;
}) {
  const { t } = useTranslation();
  const { limit, inSample, outOfSample, step } = props;
  const [setLimit, setInSample, setOutOfSample, setStep] = [
    props.onLimit,
    props.onInSample,
    props.onOutOfSample,
    props.onStep,
  ];
  return (
    <>
      <Field label={t('optimise.form.candles')}>
        <InputNumber
          min={OPTIMISATION_MIN_IN_SAMPLE_BARS + OPTIMISATION_MIN_OUT_OF_SAMPLE_BARS}
          max={CANDLE_LIMIT_MAX}
          precision={0}
          value={limit}
          onChange={setLimit}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.inSample')}>
        <InputNumber
          data-testid="optimise-in-sample"
          min={OPTIMISATION_MIN_IN_SAMPLE_BARS}
          max={CANDLE_LIMIT_MAX}
          precision={0}
          value={inSample}
          onChange={setInSample}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.outOfSample')}>
        <InputNumber
          data-testid="optimise-out-of-sample"
          min={OPTIMISATION_MIN_OUT_OF_SAMPLE_BARS}
          max={CANDLE_LIMIT_MAX}
          precision={0}
          value={outOfSample}
          onChange={setOutOfSample}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.step')}>
        <InputNumber
          data-testid="optimise-step"
          min={1}
          max={CANDLE_LIMIT_MAX}
          precision={0}
          value={step}
          onChange={setStep}
          style={{ width: '100%' }}
        />
      </Field>
    </>
  );
}

/** What is optimised: the strategy, the market and the objective. */
function MarketFields({
  strategyType,
  onStrategyType,
  strategies,
  exchange,
  onExchange,
  symbol,
  onSymbol,
  symbolList,
  timeframe,
  onTimeframe,
  objective,
  onObjective,
}: {
  strategyType: string;
  onStrategyType: (value: string) => void;
  strategies: ReturnType<typeof useStrategies>;
  exchange: Exchange;
  onExchange: (value: Exchange) => void;
  symbol: string;
  onSymbol: (value: string) => void;
  symbolList: readonly string[];
  timeframe: Timeframe;
  onTimeframe: (value: Timeframe) => void;
  objective: OptimisationObjective;
  onObjective: (value: OptimisationObjective) => void;
}) {
  const { t } = useTranslation();
  const list = strategies.data?.results ?? [];
  return (
    <>
      <Field label={t('optimise.form.strategy')}>
        <Select
          data-testid="optimise-strategy"
          value={strategyType}
          onChange={onStrategyType}
          loading={strategies.isPending}
          options={list.map((s) => ({ value: s.type, label: s.name }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.exchange')}>
        <Select
          value={exchange}
          onChange={onExchange}
          options={EXCHANGES.map((value) => ({ value, label: t(`bots.exchanges.${value}`) }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.symbol')}>
        <Select
          data-testid="optimise-symbol"
          showSearch
          value={symbol}
          onChange={onSymbol}
          options={symbolList.map((value) => ({ value, label: value }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.timeframe')}>
        <Select
          value={timeframe}
          onChange={onTimeframe}
          options={TIMEFRAMES.map((value) => ({ value, label: value }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('optimise.form.objective')}>
        <Select
          data-testid="optimise-objective"
          value={objective}
          onChange={onObjective}
          options={OPTIMISATION_OBJECTIVES.map((value) => ({
            value,
            label: t(`optimise.objectives.${value}`),
          }))}
          style={{ width: '100%' }}
        />
      </Field>
    </>
  );
}

/** How many combinations the grid makes, or why it cannot run. */
function CombinationCount({ count, hasAxis }: { count: number; hasAxis: boolean }) {
  const { t } = useTranslation();
  const isTooMany = count > OPTIMISATION_MAX_COMBINATIONS;
  return (
    <Typography.Text
      type={isTooMany ? 'danger' : 'secondary'}
      data-testid="optimise-combination-count"
    >
      {isTooMany
        ? t('optimise.form.tooMany', { max: OPTIMISATION_MAX_COMBINATIONS })
        : hasAxis
          ? t('optimise.form.combinations', { count, max: OPTIMISATION_MAX_COMBINATIONS })
          : t('optimise.form.noParameter')}
    </Typography.Text>
  );
}

/** The optimisation's request: strategy, market, windows, objective and the parameter grid. */
export function OptimiseForm({ initialStrategyType, isSubmitting, errorText, onSubmit }: Props) {
  const { t } = useTranslation();
  const strategies = useStrategies();
  const isMobile = useIsMobile();
  const list = strategies.data?.results ?? [];
  const [strategyType, setStrategyType] = useState(initialStrategyType ?? 'ma_cross');
  const [exchange, setExchange] = useState<Exchange>('binance');
  const symbols = useSymbols(exchange);
  const symbolList = symbols.data?.symbols ?? [...DEFAULT_SYMBOLS];
  const [symbol, setSymbol] = useState<string>(DEFAULT_SYMBOLS[1] ?? 'BTC/USDT:USDT');
  const [timeframe, setTimeframe] = useState<Timeframe>('1h');
  const [objective, setObjective] = useState<OptimisationObjective>('sharpe');
  const [limit, setLimit] = useState<number | null>(CANDLE_LIMIT_MAX);
  const [inSample, setInSample] = useState<number | null>(300);
  const [outOfSample, setOutOfSample] = useState<number | null>(100);
  const [step, setStep] = useState<number | null>(100);
  const strategy = list.find((s) => s.type === strategyType);
  const [axes, setAxes] = useState<AxisDraft[]>(() => defaultAxes(strategy));
  // A new strategy (or the catalogue arriving) starts from its own default grid.
  useEffect(() => setAxes(defaultAxes(strategy)), [strategy]);

  const count = useMemo(() => gridCount(axes), [axes]);
  const isTooMany = count > OPTIMISATION_MAX_COMBINATIONS;
  const hasAxis = axes.some((axis) => axis.isEnabled);
  const canSubmit =
    hasAxis && !isTooMany && count > 0 && !!limit && !!inSample && !!outOfSample && !!step;
  const change = (name: string, patch: Partial<AxisDraft>) =>
    setAxes((current) =>
      current.map((axis) => (axis.name === name ? { ...axis, ...patch } : axis)),
    );
  const axisLabel = (name: string) =>
    parameterLabel(
      t,
      name,
      strategy?.parameter_specs.find((spec) => spec.name === name)?.display_name,
    );

  const submit = () => {
    if (!canSubmit) return;
    onSubmit({
      strategy_type: strategyType,
      exchange,
      symbol,
      timeframe,
      objective,
      limit,
      windows: { in_sample_bars: inSample, out_of_sample_bars: outOfSample, step_bars: step },
      parameter_grid: gridOf(axes),
    });
  };

  return (
    <Flex vertical gap={16} data-testid="optimise-form">
      <div
        style={{
          display: 'grid',
          gap: 12,
          gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
        }}
      >
        <MarketFields
          strategyType={strategyType}
          onStrategyType={setStrategyType}
          strategies={strategies}
          exchange={exchange}
          onExchange={setExchange}
          symbol={symbol}
          onSymbol={setSymbol}
          symbolList={symbolList}
          timeframe={timeframe}
          onTimeframe={setTimeframe}
          objective={objective}
          onObjective={setObjective}
        />
        <WindowFields
          limit={limit}
          onLimit={setLimit}
          inSample={inSample}
          onInSample={setInSample}
          outOfSample={outOfSample}
          onOutOfSample={setOutOfSample}
          step={step}
          onStep={setStep}
        />
      </div>

      <div>
        <Typography.Text strong>{t('optimise.form.parameters')}</Typography.Text>
        <Flex vertical gap={8} style={{ marginTop: 8 }}>
          {axes.map((axis) => (
            <AxisRow
              key={axis.name}
              axis={axis}
              label={axisLabel(axis.name)}
              isMobile={isMobile}
              onChange={(patch) => change(axis.name, patch)}
            />
          ))}
        </Flex>
      </div>

      <CombinationCount count={count} hasAxis={hasAxis} />
      {errorText && <Alert type="error" showIcon title={errorText} data-testid="optimise-error" />}
      <div>
        <Button
          type="primary"
          onClick={submit}
          disabled={!canSubmit}
          loading={isSubmitting}
          data-testid="optimise-start"
        >
          {t('optimise.form.start')}
        </Button>
      </div>
    </Flex>
  );
}
