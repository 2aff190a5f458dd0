import { type ChartIndicators, DISPLAY_UTC_OFFSET_HOURS } from '@quantsquare/contracts';

// Pure preparation of the dashboard's chart data (document 1 §3 and §5). No chart library here:
// the chart module turns these plain values into series.

/** Candles outside this window are treated as broken data (document 1 §5). */
export const CANDLE_MIN_TIME_MS = Date.UTC(2020, 0, 1);
export const CANDLE_MAX_TIME_MS = Date.UTC(2030, 0, 1);

/** Epoch values above this are milliseconds, the rest seconds (document 1 §3). */
const MILLISECONDS_THRESHOLD = 1e10;
const DISPLAY_OFFSET_SECONDS = DISPLAY_UTC_OFFSET_HOURS * 3600;

export interface CandleBar {
  /** Open time in UTC milliseconds, as the server sent it. */
  timeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface LinePoint {
  timeMs: number;
  value: number;
}

export interface SignalMark {
  timeMs: number;
  side: 'buy' | 'sell';
}

export interface ChartSeriesData {
  candles: CandleBar[];
  maFast: LinePoint[];
  maSlow: LinePoint[];
  /** Bollinger bands, drawn over the candles (empty for other strategies). */
  bbUpper: LinePoint[];
  bbMiddle: LinePoint[];
  bbLower: LinePoint[];
  /** Oscillators, drawn in a pane below the candles (empty for other strategies). */
  rsi: LinePoint[];
  macd: LinePoint[];
  macdSignal: LinePoint[];
  macdHistogram: LinePoint[];
  signals: SignalMark[];
}

/** The pane drawn below the candles: the strategy's oscillator, if it has one. */
export function oscillatorOf(data: ChartSeriesData): 'rsi' | 'macd' | null {
  if (data.rsi.length > 0) return 'rsi';
  if (data.macd.length > 0) return 'macd';
  return null;
}

const isPositiveNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * Chart time for a UTC instant: lightweight-charts draws times as UTC, so the instant is shifted
 * by the display offset (UTC+8) and given in whole seconds.
 */
export function toDisplayTime(timeMs: number): number {
  return Math.floor(timeMs / 1000) + DISPLAY_OFFSET_SECONDS;
}

/** A candle the chart may draw: positive numeric prices and a timestamp inside the window. */
export function isValidCandle(candle: unknown): candle is CandleBar & { timestamp: number } {
  if (typeof candle !== 'object' || candle === null) return false;
  const c = candle as Record<string, unknown>;
  const time = c.timestamp;
  if (typeof time !== 'number' || !Number.isFinite(time)) return false;
  if (time < CANDLE_MIN_TIME_MS || time >= CANDLE_MAX_TIME_MS) return false;
  return (
    isPositiveNumber(c.open) &&
    isPositiveNumber(c.high) &&
    isPositiveNumber(c.low) &&
    isPositiveNumber(c.close)
  );
}

/** Keeps the last entry per time and sorts ascending (the chart needs strictly rising times). */
function uniqueSorted<T extends { timeMs: number }>(items: readonly T[]): T[] {
  const byTime = new Map<number, T>();
  for (const item of items) byTime.set(item.timeMs, item);
  return [...byTime.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/**
 * Cleans candles and their per-candle indicators together: indicator values and signal indexes
 * point at candle positions, so a dropped candle drops its line points and markers too.
 */
export function prepareChartSeries(
  rawCandles: readonly unknown[],
  indicators: Partial<ChartIndicators> | null | undefined,
): ChartSeriesData {
  const kept = new Map<number, number>(); // candle index → open time (ms)
  const candles: CandleBar[] = [];
  rawCandles.forEach((raw, index) => {
    if (!isValidCandle(raw)) return;
    kept.set(index, raw.timestamp);
    candles.push({
      timeMs: raw.timestamp,
      open: raw.open,
      high: raw.high,
      low: raw.low,
      close: raw.close,
    });
  });

  const line = (values: readonly (number | null)[] | undefined): LinePoint[] => {
    const points: LinePoint[] = [];
    (values ?? []).forEach((value, index) => {
      const timeMs = kept.get(index);
      if (timeMs === undefined || typeof value !== 'number' || !Number.isFinite(value)) return;
      points.push({ timeMs, value });
    });
    return uniqueSorted(points);
  };

  const signals: SignalMark[] = [];
  const addSignals = (indexes: readonly number[] | undefined, side: SignalMark['side']) => {
    for (const index of indexes ?? []) {
      const timeMs = kept.get(index);
      if (timeMs !== undefined) signals.push({ timeMs, side });
    }
  };
  addSignals(indicators?.buy_signals, 'buy');
  addSignals(indicators?.sell_signals, 'sell');
  signals.sort((a, b) => a.timeMs - b.timeMs);

  return {
    candles: uniqueSorted(candles),
    maFast: line(indicators?.ma_fast),
    maSlow: line(indicators?.ma_slow),
    bbUpper: line(indicators?.bb_upper),
    bbMiddle: line(indicators?.bb_middle),
    bbLower: line(indicators?.bb_lower),
    rsi: line(indicators?.rsi),
    macd: line(indicators?.macd),
    macdSignal: line(indicators?.macd_signal),
    macdHistogram: line(indicators?.macd_histogram),
    signals,
  };
}

/** Epoch seconds or milliseconds (document 1 §3) as milliseconds; null when not a time. */
export function normalizeEpochMs(time: unknown): number | null {
  if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) return null;
  return time > MILLISECONDS_THRESHOLD ? time : time * 1000;
}

/**
 * The equity curve as the chart draws it (document 1 §3): entries are numbers or objects with
 * `time` and `equity` (or `value`). Plain numbers take the time of the candle at their position
 * (`fallbackTimesMs`). Invalid entries are dropped and the rest sorted ascending.
 */
export function cleanEquityCurve(
  raw: readonly unknown[] | null | undefined,
  fallbackTimesMs: readonly number[] = [],
): LinePoint[] {
  if (!Array.isArray(raw)) return [];
  const points: LinePoint[] = [];
  raw.forEach((entry: unknown, index) => {
    let time: unknown;
    let value: unknown;
    if (typeof entry === 'number') {
      time = fallbackTimesMs[index];
      value = entry;
    } else if (typeof entry === 'object' && entry !== null) {
      const e = entry as Record<string, unknown>;
      time = e.time;
      value = e.equity ?? e.value;
    }
    const timeMs = normalizeEpochMs(time);
    if (timeMs === null || typeof value !== 'number' || !Number.isFinite(value)) return;
    points.push({ timeMs, value });
  });
  return uniqueSorted(points);
}

/** The logical range that shows the most recent `count` bars of `total`. */
export function recentLogicalRange(total: number, count: number): { from: number; to: number } {
  return { from: Math.max(0, total - count), to: Math.max(0, total - 1) };
}
