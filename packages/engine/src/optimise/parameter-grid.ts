// Grid expansion for parameter optimisation: each parameter is a list of values or a
// {min, max, step} range; the grid is their cartesian product, in a stable order (the first
// parameter varies slowest), so a combination's index means the same thing on every run.

export interface ParameterRange {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

export type ParameterAxis = readonly number[] | ParameterRange;
export type ParameterGrid = Readonly<Record<string, ParameterAxis>>;
export type ParameterCombination = Readonly<Record<string, number>>;

/** Decimals of a step such as 0.25 → 2 (range values are rounded to them: no 0.30000000000000004). */
function decimalsOf(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Values of a range, min first, max included when the steps land on it. Empty when invalid. */
export function rangeValues(range: ParameterRange, limit = Number.POSITIVE_INFINITY): number[] {
  const { min, max, step } = range;
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(step > 0) || max < min) return [];
  const decimals = Math.min(12, Math.max(decimalsOf(step), decimalsOf(min)));
  const scale = 10 ** decimals;
  const count = Math.floor((max - min) / step + 1e-9) + 1;
  const values: number[] = [];
  for (let k = 0; k < count && values.length <= limit; k++) {
    values.push(Math.round((min + k * step) * scale) / scale);
  }
  return values;
}

/** The distinct values of one axis, in the given (list) or ascending (range) order. */
export function axisValues(axis: ParameterAxis, limit = Number.POSITIVE_INFINITY): number[] {
  const values = Array.isArray(axis)
    ? [...(axis as readonly number[])]
    : rangeValues(axis as ParameterRange, limit);
  return [...new Set(values)];
}

/** How many combinations a grid expands to, without expanding it. */
export function gridSize(grid: ParameterGrid, limit = Number.POSITIVE_INFINITY): number {
  let size = 1;
  for (const axis of Object.values(grid)) {
    size *= axisValues(axis, limit).length;
    if (size > limit) return size;
  }
  return Object.keys(grid).length === 0 ? 0 : size;
}

/** Every combination of the grid, the first parameter varying slowest. */
export function expandGrid(grid: ParameterGrid): ParameterCombination[] {
  const names = Object.keys(grid);
  if (names.length === 0) return [];
  let combinations: Record<string, number>[] = [{}];
  for (const name of names) {
    const values = axisValues(grid[name]!);
    const next: Record<string, number>[] = [];
    for (const partial of combinations) {
      for (const value of values) next.push({ ...partial, [name]: value });
    }
    combinations = next;
  }
  return combinations;
}
