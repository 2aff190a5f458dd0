// Helpers the indicator functions share (kept out of the package's public exports).

/**
 * A zeroed array whose first `definedFrom` entries are NaN. The callers write every index from
 * `definedFrom` on, so only the undefined prefix needs filling (not all `length` entries).
 */
export function nanArray(length: number, definedFrom = length): Float64Array {
  const out = new Float64Array(length);
  if (definedFrom > 0) out.fill(Number.NaN, 0, Math.min(definedFrom, length));
  return out;
}

export function firstDefinedIndex(values: Float64Array): number {
  let i = 0;
  while (i < values.length && Number.isNaN(values[i]!)) i++;
  return i;
}

export function assertPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`period must be a positive integer, got ${period}`);
  }
}
