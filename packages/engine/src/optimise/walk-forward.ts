// Walk-forward windows: an in-sample stretch to judge parameters on, followed directly by an
// out-of-sample stretch they have not seen; the pair moves on by `stepBars` until the
// out-of-sample stretch would run past the data. The windows are aligned to the newest candle
// (the last out-of-sample stretch ends on it); the oldest candles left over are not used.

export interface WalkForwardSettings {
  readonly inSampleBars: number;
  readonly outOfSampleBars: number;
  readonly stepBars: number;
}

/** Candle index range [start, end). */
export interface BarRange {
  readonly start: number;
  readonly end: number;
}

export interface WalkForwardWindow {
  readonly index: number;
  readonly inSample: BarRange;
  readonly outOfSample: BarRange;
}

/** The windows over `candleCount` candles, oldest first; empty when not even one fits. */
export function walkForwardWindows(
  candleCount: number,
  settings: WalkForwardSettings,
): WalkForwardWindow[] {
  const { inSampleBars, outOfSampleBars, stepBars } = settings;
  const isValid = [inSampleBars, outOfSampleBars, stepBars].every(
    (bars) => Number.isInteger(bars) && bars > 0,
  );
  if (!isValid) return [];
  const spanBars = inSampleBars + outOfSampleBars;
  if (candleCount < spanBars) return [];
  const count = Math.floor((candleCount - spanBars) / stepBars) + 1;
  const firstStart = candleCount - (spanBars + (count - 1) * stepBars);
  const windows: WalkForwardWindow[] = [];
  for (let start = firstStart; start + spanBars <= candleCount; start += stepBars) {
    const split = start + inSampleBars;
    windows.push({
      index: windows.length,
      inSample: { start, end: split },
      outOfSample: { start: split, end: split + outOfSampleBars },
    });
  }
  return windows;
}
