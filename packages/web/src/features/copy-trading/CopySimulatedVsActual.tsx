import type { CopyRelation } from '@quantsquare/contracts';
import { Card, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useExchangeApis } from '../../api/accounts';
import { useCopySimulation } from '../../api/copy-trading';
import { formatPlain } from '../../shared/format/money';
import { PercentText } from './CopyParts';
import { comparisonDays } from './copy-format';

/**
 * A running copy's simulated and actual results side by side: the copy simulator at this copy's
 * amount, mode and venue over the period that covers its life, beside what it made.
 */
export function CopySimulatedVsActual({ relation }: { relation: CopyRelation }) {
  const { t } = useTranslation();
  const apis = useExchangeApis();
  const follower = apis.data?.results.find((a) => a.id === relation.follower_account_id);
  const days = comparisonDays(relation.created_at, Date.now());
  const simulation = useCopySimulation(
    apis.isPending
      ? null
      : {
          strategyId: relation.leader_account_id,
          copyAmount: Number(relation.copy_amount),
          mode: relation.copy_mode,
          days,
          venue: follower?.is_paper ? 'paper' : relation.follower_exchange,
        },
  );
  const data = simulation.data;
  const cell = (children: React.ReactNode, testId?: string) => (
    <Typography.Text strong data-testid={testId}>
      {children}
    </Typography.Text>
  );
  const label = (text: string) => (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {text}
    </Typography.Text>
  );
  return (
    <Card
      size="small"
      title={t('copy.simulation.compareTitle')}
      data-testid="copy-sim-vs-actual"
      extra={label(t('copy.simulation.days', { days }))}
    >
      {simulation.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : simulation.isError || !data ? (
        <Typography.Text type="secondary">{t('copy.simulation.failed')}</Typography.Text>
      ) : (
        <Flex vertical gap={8}>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'minmax(80px, 1fr) 1fr 1fr',
              gap: '6px 12px',
              alignItems: 'baseline',
            }}
          >
            <span />
            {label(t('copy.simulation.simulated'))}
            {label(t('copy.simulation.actual'))}
            {label(t('copy.simulation.return'))}
            {cell(<PercentText value={data.return_pct} />, 'sim-vs-simulated-return')}
            {cell(<PercentText value={relation.profit_percent} />, 'sim-vs-actual-return')}
            {label(t('copy.simulation.tradesLabel'))}
            {cell(data.trades, 'sim-vs-simulated-trades')}
            {cell(relation.total_copied_trades, 'sim-vs-actual-trades')}
            {label(t('copy.simulation.maxDrawdown'))}
            {cell(`${formatPlain(data.max_drawdown_pct, 2)}%`)}
            {cell('—')}
            {label(t('copy.simulation.fees'))}
            {cell(`${formatPlain(data.fees, 2)} USDT`)}
            {cell('—')}
          </div>
          {label(t('copy.simulation.compareHint', { days }))}
        </Flex>
      )}
    </Card>
  );
}
