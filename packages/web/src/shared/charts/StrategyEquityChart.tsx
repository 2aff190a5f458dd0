import {
  AreaSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { type CurvePoint, displayTimeLabel } from '../format/square-format';
import { toDisplayTime } from './chart-data';
import { type ChartPalette, chartOptions, PRICE_FORMAT, removeChart } from './chart-theme';
import type { EffectMarker, MarkerEffect } from './trade-effects';

export interface StrategyEquityChartProps {
  points: CurvePoint[];
  markers: EffectMarker[];
  palette: ChartPalette;
  height: number;
  /** A marker's text by side and effect, e.g. "S · close". */
  markerText: (side: 'buy' | 'sell', effect: MarkerEffect) => string;
}

interface ChartParts {
  chart: IChartApi;
  series: ISeriesApi<'Area'>;
  markers: ISeriesMarkersPluginApi<Time>;
}

const time = (timeMs: number) => toDisplayTime(timeMs) as UTCTimestamp;

/**
 * Axis labels of shifted (UTC+8) times: dates as MM/DD, times of day as HH:mm, and with seconds
 * where the ticks are seconds apart (HH:mm alone repeated one label along the axis).
 */
export function tickLabel(value: Time, type: TickMarkType): string {
  const label = displayTimeLabel(value as number);
  if (type === TickMarkType.TimeWithSeconds) {
    const seconds = new Date((value as number) * 1000).getUTCSeconds();
    return `${label.slice(6)}:${String(seconds).padStart(2, '0')}`;
  }
  return type === TickMarkType.Time ? label.slice(6) : label.slice(0, 5);
}

/**
 * The strategy's equity with buy (green arrow up, B) and sell (red arrow down, S) markers,
 * each saying whether it opened, closed or reversed;
 * times at UTC+8 shown as MM/DD HH:mm, prices with 2 decimals (document 2 §2, §9).
 */
export default function StrategyEquityChart({
  points,
  markers,
  palette,
  height,
  markerText,
}: StrategyEquityChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [parts, setParts] = useState<ChartParts | null>(null);
  // The view fits the curve when a new range arrives; a live update keeps the user's zoom.
  const fittedRangeRef = useRef<string | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const options = chartOptions(palette, height);
    const chart = createChart(container, {
      ...options,
      localization: { timeFormatter: (value: Time) => displayTimeLabel(value as number) },
      // Seconds are on for the ticks only (the labels say HH:mm:ss only where ticks are seconds
      // apart): a copy's first P&L points can be seconds apart, and HH:mm repeated one label.
      timeScale: { ...options.timeScale, secondsVisible: true, tickMarkFormatter: tickLabel },
    });
    const series = chart.addSeries(AreaSeries, {
      lineColor: palette.equity,
      topColor: `${palette.equity}55`,
      bottomColor: `${palette.equity}05`,
      lineWidth: 2,
      priceFormat: PRICE_FORMAT,
    });
    fittedRangeRef.current = null;
    // autoSize measures the container after the first fit (often at width 0): the curve is fitted
    // again once the chart has its real width, else it sits squeezed at the right edge.
    let fittedWidth = 0;
    const refit = (width: number) => {
      if (width > 0 && Math.abs(width - fittedWidth) > 1) {
        fittedWidth = width;
        chart.timeScale().fitContent();
      }
    };
    chart.timeScale().subscribeSizeChange(refit);
    const markers = createSeriesMarkers(series, []);
    setParts({ chart, series, markers });
    return () => {
      chart.timeScale().unsubscribeSizeChange(refit);
      setParts(null);
      removeChart(chart, [series], [markers]);
    };
  }, [palette, height]);

  useEffect(() => {
    if (!parts) return;
    parts.series.setData(points.map((p) => ({ time: time(p.timeMs), value: p.value })));
    const list: SeriesMarker<Time>[] = markers.map((marker) =>
      marker.side === 'buy'
        ? {
            time: time(marker.timeMs),
            position: 'belowBar',
            shape: 'arrowUp',
            color: palette.up,
            text: markerText('buy', marker.effect),
          }
        : {
            time: time(marker.timeMs),
            position: 'aboveBar',
            shape: 'arrowDown',
            color: palette.down,
            text: markerText('sell', marker.effect),
          },
    );
    parts.markers.setMarkers(list);
    const range = `${points[0]?.timeMs ?? ''}`;
    if (fittedRangeRef.current !== range) {
      parts.chart.timeScale().fitContent();
      fittedRangeRef.current = range;
    }
  }, [parts, points, markers, palette, markerText]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
