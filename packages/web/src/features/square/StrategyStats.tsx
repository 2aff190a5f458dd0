import { QuestionCircleOutlined } from '@ant-design/icons';
import type { StrategyDetail } from '@quantsquare/contracts';
import { Card, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { abbreviateNumber, formatPercent } from '../../shared/format/money';
import { copyFigureTexts, drawdownShown } from '../../shared/format/square-format';
import { useToneColor } from './StrategyCardView';

function StatCard({
  label,
  children,
  testId,
}: {
  label: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card size="small" style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <div
        style={{ fontSize: 22, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId}
      >
        {children}
      </div>
    </Card>
  );
}

/**
 * The four stat cards (document 2 §2): total return, daily P&L, max drawdown (negative), copiers;
 * then the copiers' P&L and the copy efficiency (the same in every period: since each copy began).
 */
export function StrategyStats({ strategy }: { strategy: StrategyDetail }) {
  const { t, i18n } = useTranslation();
  const tone = useToneColor();
  const locale = i18n.language;
  const copy = strategy.metrics.total;
  const copyTexts = copyFigureTexts(copy, locale);
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 150px), 1fr))',
        gap: 12,
      }}
    >
      <StatCard label={t('strategy.stats.totalReturn')} testId="strategy-total-return">
        <span style={{ color: tone(strategy.total_pnl_percent) }}>
          {formatPercent(strategy.total_pnl_percent, locale, true)}
        </span>
      </StatCard>
      <StatCard label={t('strategy.stats.dailyPnl')} testId="strategy-daily-pnl">
        <span style={{ color: tone(strategy.daily_pnl_percent) }}>
          {formatPercent(strategy.daily_pnl_percent, locale, true)}
        </span>
      </StatCard>
      <StatCard label={t('strategy.stats.maxDrawdown')} testId="strategy-max-drawdown">
        <span style={{ color: tone(drawdownShown(strategy.max_drawdown)) }}>
          {formatPercent(drawdownShown(strategy.max_drawdown), locale)}
        </span>
      </StatCard>
      <StatCard label={t('strategy.stats.copiers')} testId="strategy-copiers">
        {abbreviateNumber(strategy.share_settings.copiers_count, locale, 0)}
      </StatCard>
      <StatCard label={t('strategy.stats.copierPnl')} testId="strategy-copier-pnl">
        <span style={{ color: tone(copy.copier_pnl) }}>{copyTexts.pnl}</span>
      </StatCard>
      <StatCard
        label={
          <Tooltip title={t('strategy.stats.copyEfficiencyHint')}>
            <span>
              {t('strategy.stats.copyEfficiency')} <QuestionCircleOutlined />
            </span>
          </Tooltip>
        }
        testId="strategy-copy-efficiency"
      >
        {copyTexts.efficiency}
      </StatCard>
    </div>
  );
}
