import {
  COPY_SIMULATION_DAYS,
  type CopySimulationDays,
  type CopySimulationResponse,
} from '@quantsquare/contracts';
import { Alert, Flex, Popover, Segmented, Skeleton, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CopySimulationParams, useCopySimulation } from '../../api/copy-trading';
import { formatPlain } from '../../shared/format/money';
import { Sparkline } from '../../shared/ui/Sparkline';

// The copy simulator's preview (the copy modal): the strategy's recorded fills over the chosen
// period replayed as the copy engine would copy them for this amount, mode and venue — a small
// equity chart and four figures (return, max drawdown, fees, skipped orders).

function Figure({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string;
  tone?: 'up' | 'down';
  testId: string;
}) {
  const { token } = theme.useToken();
  const color =
    tone === 'up' ? token.colorSuccess : tone === 'down' ? token.colorError : token.colorText;
  return (
    <Flex vertical gap={0} style={{ flex: '1 1 96px', minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
        {label}
      </Typography.Text>
      <Typography.Text strong style={{ color, fontSize: 15 }} data-testid={testId}>
        {value}
      </Typography.Text>
    </Flex>
  );
}

/** The four figures of a simulation. */
export function SimulationFigures({ data }: { data: CopySimulationResponse }) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} wrap>
      <Figure
        label={t('copy.simulation.return')}
        value={`${formatPlain(data.return_pct, 2, 'withSign')}%`}
        tone={data.return_pct > 0 ? 'up' : data.return_pct < 0 ? 'down' : undefined}
        testId="sim-return"
      />
      <Figure
        label={t('copy.simulation.maxDrawdown')}
        value={`${formatPlain(data.max_drawdown_pct, 2)}%`}
        testId="sim-drawdown"
      />
      <Figure
        label={t('copy.simulation.fees')}
        value={`${formatPlain(data.fees, 2)} USDT`}
        testId="sim-fees"
      />
      <Figure
        label={t('copy.simulation.skipped')}
        value={String(data.skipped_orders)}
        testId="sim-skipped"
      />
    </Flex>
  );
}

interface Props {
  /** Null while the modal cannot ask yet (no valid amount). */
  params: Omit<CopySimulationParams, 'days'> | null;
  days: CopySimulationDays;
  onDaysChange: (days: CopySimulationDays) => void;
}

export function CopySimulationPanel({ params, days, onDaysChange }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const query = useCopySimulation(params ? { ...params, days } : null);
  const data = query.data;
  const isSwitching = query.isFetching && query.isPlaceholderData;

  let content: React.ReactNode;
  if (!params) {
    content = (
      <Typography.Text type="secondary" data-testid="sim-waiting">
        {t('copy.simulation.needAmount')}
      </Typography.Text>
    );
  } else if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 2 }} title={false} data-testid="sim-loading" />;
  } else if (query.isError || !data) {
    content = (
      <Alert type="warning" showIcon title={t('copy.simulation.failed')} data-testid="sim-error" />
    );
  } else if (data.leader_changes === 0) {
    content = (
      <Typography.Text type="secondary" data-testid="sim-empty">
        {t('copy.simulation.empty', { days: data.days })}
      </Typography.Text>
    );
  } else {
    content = (
      <Flex vertical gap={8}>
        <Sparkline
          values={data.equity_curve.map((p) => p.equity)}
          height={56}
          sign={data.return_pct}
        />
        <SimulationFigures data={data} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="sim-trades">
          {t('copy.simulation.trades', { trades: data.trades, changes: data.leader_changes })}
        </Typography.Text>
      </Flex>
    );
  }

  return (
    <div
      data-testid="copy-simulation"
      data-days={days}
      data-state={
        !params
          ? 'waiting'
          : query.isPending
            ? 'loading'
            : query.isError
              ? 'error'
              : data && data.leader_changes === 0
                ? 'empty'
                : isSwitching
                  ? 'loading'
                  : 'ready'
      }
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        padding: 12,
        marginBottom: 12,
      }}
    >
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Flex align="center" gap={6}>
          <Typography.Text strong>{t('copy.simulation.title')}</Typography.Text>
          {data && data.assumptions.length > 0 && (
            <Popover
              trigger="click"
              title={t('copy.simulation.assumptions')}
              content={
                <ul
                  style={{ maxWidth: 360, paddingInlineStart: 18, margin: 0, fontSize: 12 }}
                  data-testid="sim-assumptions"
                >
                  {data.assumptions.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              }
            >
              <Typography.Link style={{ fontSize: 12 }} data-testid="sim-assumptions-link">
                {t('copy.simulation.how')}
              </Typography.Link>
            </Popover>
          )}
        </Flex>
        <Segmented<CopySimulationDays>
          size="small"
          value={days}
          onChange={onDaysChange}
          options={COPY_SIMULATION_DAYS.map((d) => ({
            value: d,
            label: t('copy.simulation.days', { days: d }),
          }))}
          data-testid="sim-days"
        />
      </Flex>
      <Spin spinning={isSwitching} size="small">
        {content}
      </Spin>
    </div>
  );
}
