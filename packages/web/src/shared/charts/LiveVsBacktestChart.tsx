import {
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  LineStyle,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { toDisplayTime } from './chart-data';
import { type ChartPalette, chartOptions, PRICE_FORMAT, removeChart } from './chart-theme';

export interface CurvePoint {
  readonly time: number;
  readonly equity: number;
}

export interface LiveVsBacktestChartProps {
  live: readonly CurvePoint[];
  backtest: readonly CurvePoint[];
  palette: ChartPalette;
  height: number;
}

interface ChartParts {
  chart: IChartApi;
  live: ISeriesApi<'Line'>;
  backtest: ISeriesApi<'Line'>;
}

const two = (n: number) => String(n).padStart(2, '0');

/** "MM/DD HH:mm" of a time already shifted to UTC+8. */
function label(displaySeconds: number): string {
  const d = new Date(displaySeconds * 1000);
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(
    d.getUTCMinutes(),
  )}`;
}

const toData = (points: readonly CurvePoint[]) =>
  points.map((p) => ({ time: toDisplayTime(p.time) as UTCTimestamp, value: p.equity }));

/** The bot's live equity (solid) over its backtest's (dashed), UTC+8, prices with 2 decimals. */
export default function LiveVsBacktestChart({
  live,
  backtest,
  palette,
  height,
}: LiveVsBacktestChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [parts, setParts] = useState<ChartParts | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const options = chartOptions(palette, height);
    const chart = createChart(container, {
      ...options,
      localization: { timeFormatter: (value: Time) => label(value as number) },
    });
    const backtestSeries = chart.addSeries(LineSeries, {
      color: palette.maSlow,
      lineWidth: 2,
      lineStyle: LineStyle.Dashed,
      priceFormat: PRICE_FORMAT,
    });
    const liveSeries = chart.addSeries(LineSeries, {
      color: palette.equity,
      lineWidth: 2,
      priceFormat: PRICE_FORMAT,
    });
    // autoSize measures the container after the first fit: fit again at the real width.
    let fittedWidth = 0;
    const refit = (width: number) => {
      if (width > 0 && Math.abs(width - fittedWidth) > 1) {
        fittedWidth = width;
        chart.timeScale().fitContent();
      }
    };
    chart.timeScale().subscribeSizeChange(refit);
    setParts({ chart, live: liveSeries, backtest: backtestSeries });
    return () => {
      chart.timeScale().unsubscribeSizeChange(refit);
      setParts(null);
      removeChart(chart, [liveSeries, backtestSeries]);
    };
  }, [palette, height]);

  useEffect(() => {
    if (!parts) return;
    parts.live.setData(toData(live));
    parts.backtest.setData(toData(backtest));
    parts.chart.timeScale().fitContent();
  }, [parts, live, backtest]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
