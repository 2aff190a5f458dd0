import { CHART_INITIAL_VIEW_CANDLES } from '@quantsquare/contracts';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineSeries,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { type ChartSeriesData, recentLogicalRange, toDisplayTime } from '../chart-data';
import { type ChartPalette, chartOptions, PRICE_FORMAT } from './chart-theme';

export interface CandleChartProps {
  data: ChartSeriesData;
  palette: ChartPalette;
  /** Changes with the selection: the view then jumps back to the most recent candles. */
  viewKey: string;
  buyText: string;
  sellText: string;
  height: number;
}

interface ChartParts {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  maFast: ISeriesApi<'Line'>;
  maSlow: ISeriesApi<'Line'>;
  markers: ISeriesMarkersPluginApi<Time>;
}

const time = (timeMs: number) => toDisplayTime(timeMs) as UTCTimestamp;

/** Candlesticks with buy/sell markers and the strategy's two moving averages (lightweight-charts). */
export default function CandleChart({
  data,
  palette,
  viewKey,
  buyText,
  sellText,
  height,
}: CandleChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  // State, not a ref: a new chart (height or palette changed, e.g. a phone rotated or the theme
  // toggled) must run the data effect again, or it would stay empty.
  const [parts, setParts] = useState<ChartParts | null>(null);
  const shownViewKeyRef = useRef<string | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, chartOptions(palette, height));
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: palette.up,
      downColor: palette.down,
      borderVisible: false,
      wickUpColor: palette.up,
      wickDownColor: palette.down,
      priceFormat: PRICE_FORMAT,
    });
    const line = (color: string) =>
      chart.addSeries(LineSeries, {
        color,
        lineWidth: 2,
        priceFormat: PRICE_FORMAT,
        lastValueVisible: false,
        priceLineVisible: false,
        crosshairMarkerVisible: false,
      });
    const maFast = line(palette.maFast);
    const maSlow = line(palette.maSlow);
    const markers = createSeriesMarkers(candles, []);
    shownViewKeyRef.current = null;
    setParts({ chart, candles, maFast, maSlow, markers });
    return () => {
      setParts(null);
      chart.remove();
    };
  }, [palette, height]);

  useEffect(() => {
    if (!parts) return;
    parts.candles.setData(
      data.candles.map((c) => ({
        time: time(c.timeMs),
        open: c.open,
        high: c.high,
        low: c.low,
        close: c.close,
      })),
    );
    parts.maFast.setData(data.maFast.map((p) => ({ time: time(p.timeMs), value: p.value })));
    parts.maSlow.setData(data.maSlow.map((p) => ({ time: time(p.timeMs), value: p.value })));
    const markers: SeriesMarker<Time>[] = data.signals.map((signal) =>
      signal.side === 'buy'
        ? {
            time: time(signal.timeMs),
            position: 'belowBar',
            shape: 'arrowUp',
            color: palette.up,
            text: buyText,
          }
        : {
            time: time(signal.timeMs),
            position: 'aboveBar',
            shape: 'arrowDown',
            color: palette.down,
            text: sellText,
          },
    );
    parts.markers.setMarkers(markers);
    // A refresh keeps the user's scroll position; a new selection shows the latest candles.
    if (shownViewKeyRef.current !== viewKey && data.candles.length > 0) {
      parts.chart
        .timeScale()
        .setVisibleLogicalRange(
          recentLogicalRange(data.candles.length, CHART_INITIAL_VIEW_CANDLES),
        );
      shownViewKeyRef.current = viewKey;
    }
  }, [parts, data, viewKey, palette, buyText, sellText]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
