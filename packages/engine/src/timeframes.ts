import type { Timeframe } from '@quantsquare/contracts';

const MINUTE_MS = 60_000;

/** Length of one candle of each timeframe, in milliseconds. */
export const TIMEFRAME_MS: Readonly<Record<Timeframe, number>> = Object.freeze({
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
  '4h': 240 * MINUTE_MS,
  '1d': 1440 * MINUTE_MS,
});

/** Open time of the candle of `timeframe` that contains `timeMs` (candles align to UTC). */
export function candleOpenTime(timeMs: number, timeframe: Timeframe): number {
  const lengthMs = TIMEFRAME_MS[timeframe];
  return Math.floor(timeMs / lengthMs) * lengthMs;
}
