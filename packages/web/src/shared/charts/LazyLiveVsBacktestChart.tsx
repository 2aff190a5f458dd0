import { Flex } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { Spinner } from '../ui/Spinner';
import { ChartErrorBoundary } from './ChartErrorBoundary';
import type { LiveVsBacktestChartProps } from './LiveVsBacktestChart';

// lightweight-charts in its own chunk: live solid, backtest dashed.
const Chart = lazy(() => import('./LiveVsBacktestChart'));

/**
 * The live-against-backtest chart, loaded when first shown: a spinner of the chart's height
 * meanwhile, and `failed` in its place when the chart cannot load or draw.
 */
export function LazyLiveVsBacktestChart({
  failed,
  ...props
}: LiveVsBacktestChartProps & { failed: ReactNode }) {
  return (
    <ChartErrorBoundary fallback={failed}>
      <Suspense
        fallback={
          <Flex align="center" justify="center" style={{ height: props.height }}>
            <Spinner />
          </Flex>
        }
      >
        <Chart {...props} />
      </Suspense>
    </ChartErrorBoundary>
  );
}
