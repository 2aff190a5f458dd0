import { CHART_INITIAL_VIEW_CANDLES } from '@quantsquare/contracts';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineSeries,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import {
  type ChartSeriesData,
  type LinePoint,
  oscillatorOf,
  recentLogicalRange,
  toDisplayTime,
} from './chart-data';
import { type ChartPalette, chartOptions, PRICE_FORMAT, removeChart } from './chart-theme';

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
  /** The strategy's lines: moving averages, bands, or its oscillator in the lower pane. */
  lines: { series: ISeriesApi<'Line'>; points: (data: ChartSeriesData) => LinePoint[] }[];
  histogram: ISeriesApi<'Histogram'> | null;
  markers: ISeriesMarkersPluginApi<Time>;
}

const time = (timeMs: number) => toDisplayTime(timeMs) as UTCTimestamp;
/** Share of the chart's height given to the oscillator pane. */
const OSCILLATOR_SHARE = 0.3;

/** A new chart in `container`: candles, the indicator lines, the oscillator pane, markers. */
function buildChart(
  container: HTMLElement,
  palette: ChartPalette,
  height: number,
  oscillator: ReturnType<typeof oscillatorOf>,
): ChartParts {
  const chart = createChart(container, chartOptions(palette, height));
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: palette.up,
    downColor: palette.down,
    borderVisible: false,
    wickUpColor: palette.up,
    wickDownColor: palette.down,
    priceFormat: PRICE_FORMAT,
  });
  const line = (color: string, points: (d: ChartSeriesData) => LinePoint[], pane = 0) => ({
    series: chart.addSeries(
      LineSeries,
      {
        color,
        lineWidth: pane === 0 ? 2 : 1,
        priceFormat: PRICE_FORMAT,
        lastValueVisible: false,
        priceLineVisible: false,
        crosshairMarkerVisible: false,
      },
      pane,
    ),
    points,
  });
  const lines = [
    line(palette.maFast, (d) => d.maFast),
    line(palette.maSlow, (d) => d.maSlow),
    line(palette.band, (d) => d.bbUpper),
    line(palette.bandMiddle, (d) => d.bbMiddle),
    line(palette.band, (d) => d.bbLower),
  ];
  let histogram: ISeriesApi<'Histogram'> | null = null;
  if (oscillator === 'rsi') {
    const rsi = line(palette.oscillator, (d) => d.rsi, 1);
    // The reversion strategy's thresholds.
    for (const level of [30, 70]) {
      rsi.series.createPriceLine({
        price: level,
        color: palette.grid,
        lineWidth: 1,
        axisLabelVisible: true,
      });
    }
    lines.push(rsi);
  } else if (oscillator === 'macd') {
    histogram = chart.addSeries(
      HistogramSeries,
      { priceFormat: PRICE_FORMAT, lastValueVisible: false, priceLineVisible: false },
      1,
    );
    lines.push(line(palette.oscillator, (d) => d.macd, 1));
    lines.push(line(palette.signalLine, (d) => d.macdSignal, 1));
  }
  const lowerPane = chart.panes()[1];
  if (lowerPane) lowerPane.setStretchFactor(OSCILLATOR_SHARE / (1 - OSCILLATOR_SHARE));
  const markers = createSeriesMarkers(candles, []);
  return { chart, candles, lines, histogram, markers };
}

/** The strategy's signals as arrows under (buy) and over (sell) their candles. */
function signalMarkers(
  data: ChartSeriesData,
  palette: ChartPalette,
  buyText: string,
  sellText: string,
): SeriesMarker<Time>[] {
  return data.signals.map((signal) =>
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
}

/**
 * Candlesticks with buy/sell markers and the strategy's own indicators (lightweight-charts):
 * moving averages or Bollinger bands over the candles, the RSI or MACD in a pane below.
 */
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
  const oscillator = oscillatorOf(data);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const built = buildChart(container, palette, height, oscillator);
    const { chart, candles, lines, histogram, markers } = built;
    shownViewKeyRef.current = null;
    setParts(built);
    return () => {
      setParts(null);
      removeChart(
        chart,
        [candles, ...lines.map((l) => l.series), ...(histogram ? [histogram] : [])],
        [markers],
      );
    };
  }, [palette, height, oscillator]);

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
    for (const { series, points } of parts.lines) {
      series.setData(points(data).map((p) => ({ time: time(p.timeMs), value: p.value })));
    }
    parts.histogram?.setData(
      data.macdHistogram.map((p) => ({
        time: time(p.timeMs),
        value: p.value,
        color: p.value >= 0 ? palette.up : palette.down,
      })),
    );
    parts.markers.setMarkers(signalMarkers(data, palette, buyText, sellText));
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
