// Crossing rules shared by the strategies. Each scans once and returns ascending indexes.

/**
 * Indexes i where `a` crosses above `b` at i: a[i] > b[i] and a[i-1] <= b[i-1], all four values
 * defined. Comparisons with NaN are false, so undefined stretches never signal.
 */
export function crossAbove(a: Float64Array, b: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < a.length; i++) {
    if (a[i]! > b[i]! && a[i - 1]! <= b[i - 1]!) out.push(i);
  }
  return out;
}

/** Indexes i where `a` crosses below `b`: a[i] < b[i] and a[i-1] >= b[i-1]. */
export function crossBelow(a: Float64Array, b: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < a.length; i++) {
    if (a[i]! < b[i]! && a[i - 1]! >= b[i - 1]!) out.push(i);
  }
  return out;
}

/**
 * Both crossings of `a` and `b` in one pass: `above` as crossAbove(a, b), `below` as
 * crossBelow(a, b). The strategies that trade a line pair use this (half the memory traffic).
 */
export function crossings(a: Float64Array, b: Float64Array): { above: number[]; below: number[] } {
  const above: number[] = [];
  const below: number[] = [];
  let previous = a[0]! - b[0]!;
  for (let i = 1; i < a.length; i++) {
    const current = a[i]! - b[i]!;
    // NaN differences compare false both ways, so undefined stretches never signal.
    if (current > 0 && previous <= 0) above.push(i);
    else if (current < 0 && previous >= 0) below.push(i);
    previous = current;
  }
  return { above, below };
}

/** Indexes where `series` crosses above the constant `level`. */
export function crossAboveLevel(series: Float64Array, level: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < series.length; i++) {
    if (series[i]! > level && series[i - 1]! <= level) out.push(i);
  }
  return out;
}

/** Indexes where `series` crosses below the constant `level`. */
export function crossBelowLevel(series: Float64Array, level: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < series.length; i++) {
    if (series[i]! < level && series[i - 1]! >= level) out.push(i);
  }
  return out;
}
