import {
  type ChartOptions,
  ColorType,
  type DeepPartial,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
} from 'lightweight-charts';
import { formatPrice } from '../format/money';
import type { ChartPalette } from './palette';

export type { ChartPalette } from './palette';

/**
 * Prices show 2 decimals (document 1 §9) with thousands separators on the axes and the
 * crosshair ("93,535.69", the same grouping in zh-CN and en).
 */
export const PRICE_FORMAT = {
  type: 'custom',
  minMove: 0.01,
  formatter: (price: number) => formatPrice(price, 'en-US'),
} as const;

/**
 * Removes a chart for good. Its plugins and series go first, while the chart is whole: removing
 * them inside `chart.remove()` asks for one more draw, which then ran on disposed canvases
 * ("Object is disposed" when leaving a chart page).
 */
export function removeChart(
  chart: IChartApi,
  series: readonly ISeriesApi<SeriesType>[],
  plugins: readonly { detach(): void }[] = [],
): void {
  for (const plugin of plugins) plugin.detach();
  for (const one of series) chart.removeSeries(one);
  chart.remove();
}

export function chartOptions(palette: ChartPalette, height: number): DeepPartial<ChartOptions> {
  return {
    autoSize: true,
    height,
    layout: {
      background: { type: ColorType.Solid, color: palette.background },
      textColor: palette.text,
    },
    grid: {
      vertLines: { color: palette.grid },
      horzLines: { color: palette.grid },
    },
    // Wide enough for a grouped price, so a short label is not cut at the edge ("0").
    rightPriceScale: { borderColor: palette.border, minimumWidth: 64 },
    // Room right of the last point for its time label, which is centred on it ("08:4" cut).
    timeScale: {
      borderColor: palette.border,
      timeVisible: true,
      secondsVisible: false,
      rightOffsetPixels: 32,
    },
  };
}
