import type { MarketCandle } from './market.types.js';

// Chart data cleaning (document 1 §5): candles with a non-positive or non-numeric price or an
// invalid timestamp are dropped, and so are timestamps outside 2020-01-01 … 2030-01-01 (UTC).
export const CLEAN_FROM_MS = Date.UTC(2020, 0, 1);
export const CLEAN_UNTIL_MS = Date.UTC(2030, 0, 1);

const isPositivePrice = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

export function isCleanCandle(candle: {
  timestamp: unknown;
  open: unknown;
  high: unknown;
  low: unknown;
  close: unknown;
  volume: unknown;
}): boolean {
  const { timestamp, volume } = candle;
  return (
    typeof timestamp === 'number' &&
    Number.isInteger(timestamp) &&
    timestamp >= CLEAN_FROM_MS &&
    timestamp < CLEAN_UNTIL_MS &&
    isPositivePrice(candle.open) &&
    isPositivePrice(candle.high) &&
    isPositivePrice(candle.low) &&
    isPositivePrice(candle.close) &&
    typeof volume === 'number' &&
    Number.isFinite(volume) &&
    volume >= 0
  );
}

/** Turns raw OHLCV rows ([ms, o, h, l, c, v], as ccxt answers) into clean candles. */
export function cleanOhlcvRows(rows: readonly (readonly unknown[])[]): MarketCandle[] {
  const out: MarketCandle[] = [];
  for (const row of rows) {
    const candle = {
      timestamp: row[0],
      open: row[1],
      high: row[2],
      low: row[3],
      close: row[4],
      volume: row[5] ?? 0,
    };
    if (isCleanCandle(candle)) out.push(candle as MarketCandle);
  }
  return out;
}

export function cleanCandles(candles: readonly MarketCandle[]): MarketCandle[] {
  return candles.filter(isCleanCandle);
}
