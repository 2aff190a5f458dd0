// A deterministic funding-rate series for the simulated market (labelled simulated wherever it
// is used): one rate per 8-hour mark (00:00, 08:00, 16:00 UTC), from -0.01% to +0.03% around the
// usual +0.01%, the same for the same (exchange, symbol, mark) on every run.
import type { FundingSeries } from '@quantsquare/engine';
import { hashUnit, seedFromString } from './seeded-random.js';

export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
const FUNDING_STREAM = 91;

/** True for a perpetual swap symbol (ccxt's `BASE/QUOTE:SETTLE`). */
export function isPerpetual(symbol: string): boolean {
  return symbol.includes(':');
}

/** The marks in [fromMs, toMs] with their simulated rates. */
export function simulatedFunding(
  exchange: string,
  symbol: string,
  fromMs: number,
  toMs: number,
): FundingSeries {
  const seed = seedFromString(`funding|${exchange}|${symbol}`);
  const first = Math.ceil(fromMs / FUNDING_INTERVAL_MS);
  const last = Math.floor(toMs / FUNDING_INTERVAL_MS);
  const count = Math.max(0, last - first + 1);
  const time = new Float64Array(count);
  const rate = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const mark = first + k;
    time[k] = mark * FUNDING_INTERVAL_MS;
    // Rounded to 1e-6 (what venues publish), so the figures read as real rates.
    rate[k] =
      Math.round((0.0001 + (hashUnit(seed, FUNDING_STREAM, mark) - 0.5) * 0.0004) * 1e6) / 1e6;
  }
  return { time, rate, source: 'simulated' };
}
