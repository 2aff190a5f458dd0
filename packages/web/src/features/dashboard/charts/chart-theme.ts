import { type ChartOptions, ColorType, type DeepPartial } from 'lightweight-charts';
import type { ChartPalette } from '../palette';

export type { ChartPalette } from '../palette';

/** Prices show 2 decimals (document 1 §9). */
export const PRICE_FORMAT = { type: 'price', precision: 2, minMove: 0.01 } as const;

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
    rightPriceScale: { borderColor: palette.border },
    timeScale: { borderColor: palette.border, timeVisible: true, secondsVisible: false },
  };
}
