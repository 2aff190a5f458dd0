import type { CopyDetailResponse } from '@quantsquare/contracts';
import { Card, Flex, Typography, theme } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartErrorBoundary } from '../../shared/charts/ChartErrorBoundary';
import { chartPalette } from '../../shared/charts/palette';
import { type CurvePoint, toEpochMs } from '../../shared/format/square-format';
import { Spinner } from '../../shared/ui/Spinner';

// The square's equity chart (lightweight-charts, its own chunk) draws the copy's P&L curve.
const LazyCurveChart = lazy(() => import('../../shared/charts/StrategyEquityChart'));

/** Points of the P&L series, one per second, ascending. */
/** The copy's P&L curve has no trade markers. */
const noMarkerText = () => '';

export function pnlPoints(series: CopyDetailResponse['pnl_series']): CurvePoint[] {
  const bySecond = new Map<number, CurvePoint>();
  for (const point of series) {
    const timeMs = toEpochMs(point.timestamp);
    if (timeMs === null || !Number.isFinite(point.pnl)) continue;
    bySecond.set(Math.floor(timeMs / 1000), { timeMs, value: point.pnl });
  }
  return [...bySecond.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/** The copy's cumulative P&L over time (USDT, UTC+8 axis). */
export function CopyPnlPanel({
  series,
  isMobile,
}: {
  series: CopyDetailResponse['pnl_series'];
  isMobile: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const points = useMemo(() => pnlPoints(series), [series]);
  const height = isMobile ? 220 : 280;
  const message = (text: string) => (
    <Flex align="center" justify="center" style={{ height }}>
      <Typography.Text type="secondary">{text}</Typography.Text>
    </Flex>
  );
  return (
    <Card
      size="small"
      title={t('copy.detail.chart')}
      data-testid="copy-pnl-chart"
      data-point-count={points.length}
    >
      {points.length < 2 ? (
        message(t('copy.detail.chartEmpty'))
      ) : (
        <ChartErrorBoundary fallback={message(t('copy.detail.chartFailed'))}>
          <Suspense
            fallback={
              <Flex align="center" justify="center" style={{ height }}>
                <Spinner />
              </Flex>
            }
          >
            <LazyCurveChart
              points={points}
              markers={[]}
              palette={palette}
              height={height}
              markerText={noMarkerText}
            />
          </Suspense>
        </ChartErrorBoundary>
      )}
    </Card>
  );
}
