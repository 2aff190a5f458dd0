// The simulated market: deterministic per (exchange, symbol), consistent across timeframes and
// moving in real time with the injected clock.
//
// Scheme. The log price at time t (in minutes, fractional allowed) is a sum of octaves of value
// noise: X(t) = Σ_k a_k · lerp(v_k(j), v_k(j+1), t/T_k − j), j = floor(t/T_k), with lattice
// spacings T_k = 1, 4, 16, … 65,536 minutes and v_k(j) unit-variance values hashed from
// (seed, k, j). Each octave is computed directly from its two lattice values, so the price at any
// minute costs O(octaves) — no walk over earlier minutes — and with a_k ∝ √T_k the increments
// behave like a random walk with the symbol's volatility from 1 minute up to ~11 days, then
// revert slowly, keeping each symbol near its realistic level. A 1m candle opens at P(m) and
// closes at P(m+1); its wicks and volume are hashed from (seed, minute). Every coarser candle is
// the aggregate of its 1m candles (first open, max high, min low, last close, summed volume), so
// timeframes agree exactly. The forming candle aggregates its closed minutes plus the current
// minute up to the clock's now (whole seconds); closed candles never change.
//
// Venues. One asset trades at nearly one price everywhere (arbitrage keeps the basis to a few
// bps), so the path X(t) is seeded by the symbol alone and each venue adds a small basis of its
// own: two octaves of value noise (60 and 7 minutes) bounded by BASIS_MAX_LOG (±4 bps). Wicks and
// volume are hashed per venue, so the venues' candles differ in detail but not in level.

import type { Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import type { MarketCandle } from './market.types.js';
import { hashUnit, seedFromString } from './seeded-random.js';
import { symbolProfile } from './simulated-levels.js';

const MINUTE_MS = 60_000;
const OCTAVE_SPACINGS_MIN = [1, 4, 16, 64, 256, 1024, 4096, 16_384, 65_536] as const;
/** The top octave is damped so the level stays realistic over years. */
const TOP_OCTAVE_DAMPING = 0.5;
/** Makes Σ a_k² · (variance of an octave's increment) ≈ σ² per minute (see the header). */
const AMPLITUDE_SCALE = Math.sqrt(0.3);
const SQRT3 = Math.sqrt(3);
const STREAM_WICK_HIGH = 100;
const STREAM_WICK_LOW = 101;
const STREAM_VOLUME = 102;
const STREAM_LEVEL = 103;
const STREAM_BASIS = 104;
/** Per-venue basis octaves (minutes) and their amplitudes (log price); |basis| ≤ their sum. */
const BASIS_OCTAVES: readonly { spacingMin: number; amplitude: number }[] = [
  { spacingMin: 60, amplitude: 0.0003 },
  { spacingMin: 7, amplitude: 0.0001 },
];
export const BASIS_MAX_LOG = BASIS_OCTAVES.reduce((sum, octave) => sum + octave.amplitude, 0);

/** One simulated instrument: prices are a pure function of (seed, time). */
export class SimulatedInstrument {
  /** Seeds the asset's path, shared by every venue. */
  private readonly pathSeed: number;
  /** Seeds what is the venue's own: its basis, wicks and volume. */
  private readonly seed: number;
  private readonly basePrice: number;
  private readonly amplitudes: number[];
  private readonly minuteVolatility: number;
  private readonly baseVolumePerMinute: number;
  /** Prices are rounded to 6 significant digits (a realistic tick), volumes to 3 decimals. */
  private readonly priceScale: number;
  private readonly cachedCells = new Float64Array(OCTAVE_SPACINGS_MIN.length).fill(-1);
  private readonly cachedStart = new Float64Array(OCTAVE_SPACINGS_MIN.length);
  private readonly cachedEnd = new Float64Array(OCTAVE_SPACINGS_MIN.length);

  constructor(exchange: string, symbol: string) {
    this.pathSeed = seedFromString(symbol);
    this.seed = seedFromString(`${exchange}:${symbol}`);
    const profile = symbolProfile(symbol, hashUnit(this.pathSeed, STREAM_LEVEL, 0));
    this.basePrice = profile.basePrice;
    this.minuteVolatility = profile.dailyVolatility / Math.sqrt(1440);
    this.baseVolumePerMinute = profile.baseVolumePerMinute;
    this.amplitudes = OCTAVE_SPACINGS_MIN.map(
      (spacing, k) =>
        AMPLITUDE_SCALE *
        this.minuteVolatility *
        Math.sqrt(spacing) *
        (k === OCTAVE_SPACINGS_MIN.length - 1 ? TOP_OCTAVE_DAMPING : 1),
    );
    this.priceScale = 10 ** Math.max(0, 5 - Math.floor(Math.log10(profile.basePrice)));
  }

  private latticeValue(octave: number, index: number): number {
    return (2 * hashUnit(this.pathSeed, octave, index) - 1) * SQRT3;
  }

  /** The venue's basis (log price) at `minute`: bounded noise in [−BASIS_MAX_LOG, BASIS_MAX_LOG]. */
  private basisAt(minute: number): number {
    let sum = 0;
    for (let k = 0; k < BASIS_OCTAVES.length; k++) {
      const { spacingMin, amplitude } = BASIS_OCTAVES[k]!;
      const position = minute / spacingMin;
      const cell = Math.floor(position);
      const v0 = 2 * hashUnit(this.seed, STREAM_BASIS + k, cell) - 1;
      const v1 = 2 * hashUnit(this.seed, STREAM_BASIS + k, cell + 1) - 1;
      sum += amplitude * (v0 + (v1 - v0) * (position - cell));
    }
    return sum;
  }

  private roundPrice(price: number): number {
    return Math.round(price * this.priceScale) / this.priceScale;
  }

  /**
   * Log-price offset at `minute` (fractional allowed). The lattice values of each octave are
   * kept between calls, so walking consecutive minutes hashes ~1.3 values per minute.
   */
  private offsetAt(minute: number): number {
    let sum = 0;
    for (let k = 0; k < OCTAVE_SPACINGS_MIN.length; k++) {
      const position = minute / OCTAVE_SPACINGS_MIN[k]!;
      const cell = Math.floor(position);
      if (this.cachedCells[k] !== cell) {
        this.cachedCells[k] = cell;
        this.cachedStart[k] = this.latticeValue(k, cell);
        this.cachedEnd[k] = this.latticeValue(k, cell + 1);
      }
      const v0 = this.cachedStart[k]!;
      sum += this.amplitudes[k]! * (v0 + (this.cachedEnd[k]! - v0) * (position - cell));
    }
    return sum + this.basisAt(minute);
  }

  /** Price at `timeMs` (rounded to the tick). */
  priceAt(timeMs: number): number {
    return this.roundPrice(this.basePrice * Math.exp(this.offsetAt(timeMs / MINUTE_MS)));
  }

  /**
   * Aggregates the 1m candles of minutes [fromMinute, toMinute) and, when `partialFraction` > 0,
   * the minute `toMinute` up to that fraction. Walks the minutes once, reusing price endpoints.
   */
  private aggregate(fromMinute: number, toMinute: number, partialFraction: number): MarketCandle {
    let open = Number.NaN;
    let high = -Infinity;
    let low = Infinity;
    let close = Number.NaN;
    let volume = 0;
    let startPrice = this.roundPrice(this.basePrice * Math.exp(this.offsetAt(fromMinute)));
    const addMinute = (minute: number, endPrice: number, fraction: number) => {
      if (Number.isNaN(open)) open = startPrice;
      const wickHigh = hashUnit(this.seed, STREAM_WICK_HIGH, minute) * 0.6 * this.minuteVolatility;
      const wickLow = hashUnit(this.seed, STREAM_WICK_LOW, minute) * 0.6 * this.minuteVolatility;
      const minuteHigh = this.roundPrice(
        Math.max(startPrice, endPrice) * (1 + wickHigh * fraction),
      );
      const minuteLow = this.roundPrice(Math.min(startPrice, endPrice) * (1 - wickLow * fraction));
      if (minuteHigh > high) high = minuteHigh;
      if (minuteLow < low) low = minuteLow;
      const move = Math.abs(Math.log(endPrice / startPrice)) / this.minuteVolatility;
      const minuteVolume =
        this.baseVolumePerMinute *
        (0.4 + 1.2 * hashUnit(this.seed, STREAM_VOLUME, minute)) *
        (1 + 0.3 * move);
      volume += Math.round(minuteVolume * fraction * 1000) / 1000;
      close = endPrice;
      startPrice = endPrice;
    };
    for (let minute = fromMinute; minute < toMinute; minute++) {
      addMinute(minute, this.roundPrice(this.basePrice * Math.exp(this.offsetAt(minute + 1))), 1);
    }
    if (partialFraction > 0) {
      const end = this.roundPrice(
        this.basePrice * Math.exp(this.offsetAt(toMinute + partialFraction)),
      );
      addMinute(toMinute, end, partialFraction);
    }
    volume = Math.round(volume * 1000) / 1000;
    return { timestamp: fromMinute * MINUTE_MS, open, high, low, close, volume };
  }

  /** The closed candles of `timeframe` with open times in [fromOpenMs, toOpenMs), oldest first. */
  closedCandles(timeframe: Timeframe, fromOpenMs: number, toOpenMs: number): MarketCandle[] {
    const lengthMs = TIMEFRAME_MS[timeframe];
    const minutes = lengthMs / MINUTE_MS;
    const out: MarketCandle[] = [];
    for (let openMs = fromOpenMs; openMs < toOpenMs; openMs += lengthMs) {
      const fromMinute = openMs / MINUTE_MS;
      out.push(this.aggregate(fromMinute, fromMinute + minutes, 0));
    }
    return out;
  }

  /** The candle of `timeframe` containing `nowMs`, as it stands at `nowMs`. */
  formingCandle(timeframe: Timeframe, nowMs: number): MarketCandle {
    const lengthMs = TIMEFRAME_MS[timeframe];
    const openMs = Math.floor(nowMs / lengthMs) * lengthMs;
    const nowMinute = Math.floor(nowMs / MINUTE_MS);
    const fraction = (nowMs - nowMinute * MINUTE_MS) / MINUTE_MS;
    const candle = this.aggregate(openMs / MINUTE_MS, nowMinute, fraction);
    // At the very start of a candle nothing has traded yet: a flat candle at the open.
    if (Number.isNaN(candle.open)) {
      const price = this.priceAt(openMs);
      return { timestamp: openMs, open: price, high: price, low: price, close: price, volume: 0 };
    }
    return candle;
  }
}
