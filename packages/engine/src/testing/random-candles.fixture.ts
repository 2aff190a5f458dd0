// Deterministic test data: a seeded PRNG and random-walk candles. Test support only.
import type { Candles } from '../candles.js';

/** mulberry32: a small, fast, seeded 32-bit PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 0, 1);

/** A random walk of hourly candles around `startPrice` with moves of up to ±stepPercent. */
export function randomWalkCandles(
  count: number,
  seed: number,
  startPrice = 100,
  stepPercent = 1,
): Candles {
  const random = seededRandom(seed);
  const candles = {
    time: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
  };
  let price = startPrice;
  for (let i = 0; i < count; i++) {
    const open = price;
    const close = open * (1 + ((random() * 2 - 1) * stepPercent) / 100);
    const high = Math.max(open, close) * (1 + (random() * stepPercent) / 200);
    const low = Math.min(open, close) * (1 - (random() * stepPercent) / 200);
    candles.time[i] = START_MS + i * HOUR_MS;
    candles.open[i] = open;
    candles.high[i] = high;
    candles.low[i] = low;
    candles.close[i] = close;
    candles.volume[i] = 1 + random() * 100;
    price = close;
  }
  return candles;
}
