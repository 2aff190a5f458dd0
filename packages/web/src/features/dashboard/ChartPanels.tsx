import { Flex } from 'antd';
import { type ReactNode, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartData } from '../../api/trading';
import { ChartErrorBoundary } from '../../shared/charts/ChartErrorBoundary';
import {
  type ChartSeriesData,
  cleanEquityCurve,
  type LinePoint,
  prepareChartSeries,
} from '../../shared/charts/chart-data';
import { LazyCandleChart, LazyEquityChart } from '../../shared/charts/lazy-charts';
import type { ChartPalette } from '../../shared/charts/palette';
import { Spinner } from '../../shared/ui/Spinner';
import { Text } from '../../shared/ui/ui';

/** The indicator lines the chart draws, by name (what the legend and the tests read). */
export function drawnLines(series: ChartSeriesData): string[] {
  const named: [string, LinePoint[]][] = [
    ['ma_fast', series.maFast],
    ['ma_slow', series.maSlow],
    ['bb_upper', series.bbUpper],
    ['bb_middle', series.bbMiddle],
    ['bb_lower', series.bbLower],
    ['rsi', series.rsi],
    ['macd', series.macd],
    ['macd_signal', series.macdSignal],
    ['macd_histogram', series.macdHistogram],
  ];
  return named.filter(([, points]) => points.length > 0).map(([name]) => name);
}

function Overlay({ children }: { children: ReactNode }) {
  return (
    <Flex
      align="center"
      justify="center"
      style={{ position: 'absolute', inset: 0, zIndex: 3, pointerEvents: 'none' }}
    >
      {children}
    </Flex>
  );
}

function ChartMessage({ text }: { text: string }) {
  return (
    <Overlay>
      <Text data-testid="chart-error" tone="secondary">
        {text}
      </Text>
    </Overlay>
  );
}

interface CandlePanelProps {
  data: ChartData | undefined;
  isLoading: boolean;
  isError: boolean;
  palette: ChartPalette;
  viewKey: string;
  height: number;
}

/**
 * The candle chart with its states. A failed load leaves the chart empty with a message; a
 * chart that throws is caught by the boundary and shows the same kind of message.
 */
export function CandlePanel({
  data,
  isLoading,
  isError,
  palette,
  viewKey,
  height,
}: CandlePanelProps) {
  const { t } = useTranslation();
  const series = useMemo(() => prepareChartSeries(data?.candles ?? [], data?.indicators), [data]);
  const first = series.candles[0];
  const last = series.candles[series.candles.length - 1];
  const loadingView = (
    <Overlay>
      <Flex vertical align="center" gap={8} data-testid="chart-loading">
        <Spinner />
        <Text tone="secondary">{t('dashboard.chart.loading')}</Text>
      </Flex>
    </Overlay>
  );
  return (
    <div
      data-testid="candle-chart"
      data-candle-count={series.candles.length}
      data-first-time={first?.timeMs ?? ''}
      data-last-time={last?.timeMs ?? ''}
      data-last-close={last?.close ?? ''}
      data-marker-count={series.signals.length}
      data-lines={drawnLines(series).join(' ')}
      style={{ position: 'relative', width: '100%', height }}
    >
      <ChartErrorBoundary
        key={viewKey}
        fallback={<ChartMessage text={t('dashboard.chart.renderFailed')} />}
      >
        <Suspense fallback={loadingView}>
          <LazyCandleChart
            data={series}
            palette={palette}
            viewKey={viewKey}
            buyText={t('dashboard.chart.buy')}
            sellText={t('dashboard.chart.sell')}
            height={height}
          />
        </Suspense>
      </ChartErrorBoundary>
      {isLoading && loadingView}
      {!isLoading && isError && <ChartMessage text={t('dashboard.chart.loadFailed')} />}
      {!isLoading && !isError && series.candles.length === 0 && (
        <Overlay>
          <Text tone="secondary">{t('dashboard.chart.empty')}</Text>
        </Overlay>
      )}
    </div>
  );
}

interface EquityPanelProps {
  curve: readonly unknown[] | undefined;
  fallbackTimesMs: readonly number[];
  isLoading: boolean;
  palette: ChartPalette;
  height: number;
}

export function EquityPanel({
  curve,
  fallbackTimesMs,
  isLoading,
  palette,
  height,
}: EquityPanelProps) {
  const { t } = useTranslation();
  const points: LinePoint[] = useMemo(
    () => cleanEquityCurve(curve, fallbackTimesMs),
    [curve, fallbackTimesMs],
  );
  if (isLoading) {
    return (
      <Flex align="center" justify="center" style={{ height }}>
        <Spinner />
      </Flex>
    );
  }
  return (
    <div
      data-testid="equity-chart"
      data-point-count={points.length}
      style={{ position: 'relative', width: '100%', height }}
    >
      {points.length === 0 ? (
        <Overlay>
          <Text tone="secondary">{t('dashboard.equity.empty')}</Text>
        </Overlay>
      ) : (
        <ChartErrorBoundary fallback={<ChartMessage text={t('dashboard.chart.renderFailed')} />}>
          <Suspense fallback={null}>
            <LazyEquityChart points={points} palette={palette} height={height} />
          </Suspense>
        </ChartErrorBoundary>
      )}
    </div>
  );
}
