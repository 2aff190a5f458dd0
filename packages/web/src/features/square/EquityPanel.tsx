import { SQUARE_PERIODS, type SquarePeriod, type StrategyDetail } from '@quantsquare/contracts';
import { Card, Flex, Segmented, Typography, theme } from 'antd';
import { lazy, Suspense, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartErrorBoundary } from '../../shared/charts/ChartErrorBoundary';
import { chartPalette } from '../../shared/charts/palette';
import { effectMarkers, type MarkerEffect } from '../../shared/charts/trade-effects';
import { equityPoints } from '../../shared/format/square-format';
import { Spinner } from '../../shared/ui/Spinner';

// lightweight-charts loads with this chart only (its own chunk), as on the dashboard.
const LazyStrategyEquityChart = lazy(() => import('../../shared/charts/StrategyEquityChart'));

interface Props {
  strategy: StrategyDetail;
  period: SquarePeriod;
  onPeriodChange: (period: SquarePeriod) => void;
  isMobile: boolean;
}

/** The equity curve card with B/S markers, at UTC+8, over a chosen period (document 2 §2). */
export function EquityPanel({ strategy, period, onPeriodChange, isMobile }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const points = useMemo(() => equityPoints(strategy.equity_curve), [strategy.equity_curve]);
  const markers = useMemo(() => effectMarkers(strategy.trades, points), [strategy.trades, points]);
  const markerText = useCallback(
    (side: 'buy' | 'sell', effect: MarkerEffect) =>
      `${t(side === 'buy' ? 'strategy.buyMark' : 'strategy.sellMark')} · ${t(`strategy.markEffects.${effect}`)}`,
    [t],
  );
  const height = isMobile ? 240 : 320;
  const message = (text: string) => (
    <Flex align="center" justify="center" style={{ height }}>
      <Typography.Text type="secondary">{text}</Typography.Text>
    </Flex>
  );
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="baseline">
          {t('strategy.chart')}
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 400 }}>
            {t('strategy.chartHint')}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Segmented<SquarePeriod>
          size="small"
          value={period}
          onChange={onPeriodChange}
          options={SQUARE_PERIODS.map((p) => ({ value: p, label: t(`square.periodShort.${p}`) }))}
          data-testid="strategy-chart-period"
        />
      }
      data-testid="strategy-chart"
      data-point-count={points.length}
      data-marker-count={markers.length}
      data-marker-effects={markers.map((m) => `${m.side}:${m.effect}`).join(' ')}
    >
      {points.length < 2 ? (
        message(t('strategy.chartEmpty'))
      ) : (
        <ChartErrorBoundary fallback={message(t('strategy.chartFailed'))}>
          <Suspense
            fallback={
              <Flex align="center" justify="center" style={{ height }}>
                <Spinner />
              </Flex>
            }
          >
            <LazyStrategyEquityChart
              points={points}
              markers={markers}
              palette={palette}
              height={height}
              markerText={markerText}
            />
          </Suspense>
        </ChartErrorBoundary>
      )}
    </Card>
  );
}
