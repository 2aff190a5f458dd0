/**
 * Candles in columnar form: one typed array per field, index i is the i-th closed candle,
 * oldest first. `time` is the candle's open time in milliseconds (exact in a Float64Array).
 * Strategies and the backtest read these arrays directly so the hot loops never allocate.
 */
export interface Candles {
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

/** A candle as the market feed and the API carry it (`time` or `timestamp`, milliseconds). */
export interface CandleRow {
  readonly time?: number;
  readonly timestamp?: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume?: number;
}

export function candleCount(candles: Candles): number {
  return candles.close.length;
}

/** Turns row candles into the columnar form (one allocation per column). */
export function candlesFromRows(rows: readonly CandleRow[]): Candles {
  const length = rows.length;
  const candles = {
    time: new Float64Array(length),
    open: new Float64Array(length),
    high: new Float64Array(length),
    low: new Float64Array(length),
    close: new Float64Array(length),
    volume: new Float64Array(length),
  };
  for (let i = 0; i < length; i++) {
    const row = rows[i]!;
    candles.time[i] = row.time ?? row.timestamp ?? 0;
    candles.open[i] = row.open;
    candles.high[i] = row.high;
    candles.low[i] = row.low;
    candles.close[i] = row.close;
    candles.volume[i] = row.volume ?? 0;
  }
  return candles;
}

/** The first `count` candles, sharing memory with `candles` (no copy). */
export function sliceCandles(candles: Candles, count: number): Candles {
  return {
    time: candles.time.subarray(0, count),
    open: candles.open.subarray(0, count),
    high: candles.high.subarray(0, count),
    low: candles.low.subarray(0, count),
    close: candles.close.subarray(0, count),
    volume: candles.volume.subarray(0, count),
  };
}

/** A series for JSON: NaN (undefined value) becomes null. */
export function seriesToJson(series: Float64Array): (number | null)[] {
  const out: (number | null)[] = new Array(series.length);
  for (let i = 0; i < series.length; i++) {
    const value = series[i]!;
    out[i] = Number.isNaN(value) ? null : value;
  }
  return out;
}
