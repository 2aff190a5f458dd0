import { AreaSeries, createChart, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { type LinePoint, toDisplayTime } from './chart-data';
import { type ChartPalette, chartOptions, PRICE_FORMAT, removeChart } from './chart-theme';

export interface EquityChartProps {
  points: LinePoint[];
  palette: ChartPalette;
  height: number;
}

/** The backtest's equity over time, at UTC+8 like the candle chart. */
export default function EquityChart({ points, palette, height }: EquityChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  // State, not a ref: a new chart (height or palette changed) must be filled again.
  const [current, setCurrent] = useState<{ fit: () => void; series: ISeriesApi<'Area'> } | null>(
    null,
  );

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, chartOptions(palette, height));
    const series = chart.addSeries(AreaSeries, {
      lineColor: palette.equity,
      topColor: `${palette.equity}66`,
      bottomColor: `${palette.equity}05`,
      lineWidth: 2,
      priceFormat: PRICE_FORMAT,
    });
    setCurrent({ series, fit: () => chart.timeScale().fitContent() });
    return () => {
      setCurrent(null);
      removeChart(chart, [series]);
    };
  }, [palette, height]);

  useEffect(() => {
    if (!current) return;
    current.series.setData(
      points.map((p) => ({ time: toDisplayTime(p.timeMs) as UTCTimestamp, value: p.value })),
    );
    current.fit();
  }, [current, points]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
