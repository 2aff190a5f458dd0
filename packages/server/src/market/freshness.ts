import type { DataFreshness, MarketDataSource, Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';

/**
 * Freshness rule. `delay_seconds` = now − the time until which the series is known complete
 * (`coveredUntilMs`: the last successful exchange read, or the close of the newest candle the
 * exchange returned when that is earlier — a stalled exchange answers but its candles stop).
 * Fresh when the delay is at most max(120 s, a tenth of the timeframe): a healthy live feed is
 * refreshed every few seconds, a stalled or unreachable one goes stale within minutes.
 * The simulated feed is complete up to now, so it is always fresh.
 */
export const MIN_ALLOWED_DELAY_SECONDS = 120;

export function maxAllowedDelaySeconds(timeframe: Timeframe): number {
  return Math.max(MIN_ALLOWED_DELAY_SECONDS, TIMEFRAME_MS[timeframe] / 1000 / 10);
}

export function computeFreshness(input: {
  source: MarketDataSource;
  timeframe: Timeframe;
  nowMs: number;
  coveredUntilMs: number | null;
  lastCandleTimeMs: number | null;
}): DataFreshness {
  const maxAllowed = maxAllowedDelaySeconds(input.timeframe);
  const delaySeconds =
    input.coveredUntilMs === null
      ? Number.POSITIVE_INFINITY
      : Math.max(0, Math.floor((input.nowMs - input.coveredUntilMs) / 1000));
  const finiteDelay = Number.isFinite(delaySeconds) ? delaySeconds : 0;
  return {
    is_fresh: input.coveredUntilMs !== null && delaySeconds <= maxAllowed,
    delay_seconds: finiteDelay,
    max_allowed_delay: maxAllowed,
    source: input.source,
    last_candle_time: input.lastCandleTimeMs,
  };
}
