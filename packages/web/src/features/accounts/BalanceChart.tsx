import type { BalanceSnapshot } from '@quantsquare/contracts';
import { Flex, Typography, theme } from 'antd';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartErrorBoundary } from '../../shared/charts/ChartErrorBoundary';
import { LazyEquityChart } from '../../shared/charts/lazy-charts';
import { chartPalette } from '../../shared/charts/palette';
import { balanceChartPoints } from '../../shared/format/account-format';

const CHART_HEIGHT_PX = 160;

/** The account's balance over its last 30 snapshots (document 1 §9), labels at UTC+8. */
export function BalanceChart({ snapshots }: { snapshots: readonly BalanceSnapshot[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const points = useMemo(() => balanceChartPoints(snapshots), [snapshots]);
  const message = (text: string) => (
    <Flex align="center" justify="center" style={{ height: CHART_HEIGHT_PX }}>
      <Typography.Text type="secondary">{text}</Typography.Text>
    </Flex>
  );
  return (
    <div data-testid="account-balance-chart" data-point-count={points.length}>
      {/* One snapshot draws no line: say that the history is still being recorded. */}
      {points.length < 2 ? (
        message(t('accounts.chartEmpty'))
      ) : (
        <ChartErrorBoundary fallback={message(t('accounts.chartFailed'))}>
          <Suspense fallback={<div style={{ height: CHART_HEIGHT_PX }} />}>
            <LazyEquityChart points={points} palette={palette} height={CHART_HEIGHT_PX} />
          </Suspense>
        </ChartErrorBoundary>
      )}
    </div>
  );
}
