import {
  OPTIMISABLE_SETTINGS,
  type OptimisationAnswer,
  type OptimisationCombinationResult,
  type StrategyInfo,
  type Timeframe,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { type BotPreset, strategyParameterLabel } from '../../shared/format/bot-format';

// Pure helpers of the optimisation screen: the grid the form edits, its size, the heat map.

/**
 * A grid parameter's name in the reader's language: the stop/take-profit settings and the
 * built-ins' periods and levels have texts; anything else shows `fallback` (the server's name).
 */
export function parameterLabel(t: TFunction, name: string, fallback: string = name): string {
  if ((OPTIMISABLE_SETTINGS as readonly string[]).includes(name)) {
    return t(`optimise.form.settings.${name}` as never) as string;
  }
  return strategyParameterLabel(t, name, fallback);
}

/** One row of the form's grid: whether it varies, and its range. */
export interface AxisDraft {
  name: string;
  isEnabled: boolean;
  min: number | null;
  max: number | null;
  step: number | null;
  integer: boolean;
}

/** How many values a range holds (as the server counts them); 0 when it holds none. */
export function axisCount(axis: Pick<AxisDraft, 'min' | 'max' | 'step'>): number {
  const { min, max, step } = axis;
  if (min === null || max === null || step === null || !(step > 0) || max < min) return 0;
  return Math.floor((max - min) / step + 1e-9) + 1;
}

export function gridCount(axes: readonly AxisDraft[]): number {
  const enabled = axes.filter((axis) => axis.isEnabled);
  if (enabled.length === 0) return 0;
  return enabled.reduce((product, axis) => product * axisCount(axis), 1);
}

/** The request's `parameter_grid` from the enabled rows. */
export function gridOf(
  axes: readonly AxisDraft[],
): Record<string, { min: number; max: number; step: number }> {
  const grid: Record<string, { min: number; max: number; step: number }> = {};
  for (const axis of axes) {
    if (!axis.isEnabled || axis.min === null || axis.max === null || axis.step === null) continue;
    grid[axis.name] = { min: axis.min, max: axis.max, step: axis.step };
  }
  return grid;
}

const round = (value: number, integer: boolean) =>
  integer ? Math.round(value) : Math.round(value * 100) / 100;

/**
 * The starting grid of a strategy: its first two parameters vary in three steps around their
 * defaults (inside their bounds); the protective levels are offered but off.
 */
export function defaultAxes(strategy: StrategyInfo | undefined): AxisDraft[] {
  const own = (strategy?.parameter_specs ?? []).map((spec, index) => {
    const step = round(
      Math.max(spec.integer ? 1 : 0.1, Math.abs(spec.default) * 0.2),
      spec.integer,
    );
    const min = Math.max(spec.min, round(spec.default - step, spec.integer));
    const max = Math.min(spec.max, round(min + 2 * step, spec.integer));
    return { name: spec.name, isEnabled: index < 2, min, max, step, integer: spec.integer };
  });
  const settings = OPTIMISABLE_SETTINGS.map((name) => ({
    name,
    isEnabled: false,
    min: 1,
    max: 3,
    step: 1,
    integer: false,
  }));
  return [...own, ...settings];
}

/** Names the grid varies, in the request's order. */
export function gridNames(answer: Pick<OptimisationAnswer, 'parameter_grid'>): string[] {
  return Object.keys(answer.parameter_grid);
}

export interface HeatMap {
  xs: number[];
  ys: number[];
  /** cells[y][x]: the best out-of-sample objective there, null where nothing ran. */
  cells: (number | null)[][];
  min: number;
  max: number;
}

/** Out-of-sample objective over two parameters, the best over the others per cell. */
export function heatMapOf(
  results: readonly OptimisationCombinationResult[],
  xName: string,
  yName: string,
): HeatMap {
  const xs = [...new Set(results.map((r) => r.parameters[xName] ?? Number.NaN))]
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const ys = [...new Set(results.map((r) => r.parameters[yName] ?? Number.NaN))]
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const cells: (number | null)[][] = ys.map(() => xs.map(() => null));
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const result of results) {
    const x = xs.indexOf(result.parameters[xName] ?? Number.NaN);
    const y = ys.indexOf(result.parameters[yName] ?? Number.NaN);
    if (x < 0 || y < 0) continue;
    const row = cells[y]!;
    const value = result.out_of_sample_objective;
    if (row[x] === null || value > (row[x] as number)) row[x] = value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return { xs, ys, cells, min, max };
}

/** The bot form's preset from the best combination: strategy parameters and protective levels. */
export function botPresetOf(
  answer: Pick<OptimisationAnswer, 'strategy_type' | 'symbol' | 'timeframe'>,
  parameters: Record<string, number>,
): BotPreset {
  const own: Record<string, number> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (!(OPTIMISABLE_SETTINGS as readonly string[]).includes(name)) own[name] = value;
  }
  const stopLoss = parameters.stop_loss_percentage;
  const takeProfit = parameters.take_profit_percentage;
  return {
    strategyType: answer.strategy_type,
    parameters: own,
    symbol: answer.symbol,
    timeframe: answer.timeframe as Timeframe,
    ...(stopLoss === undefined ? {} : { stop_loss_percentage: stopLoss }),
    ...(takeProfit === undefined ? {} : { take_profit_percentage: takeProfit }),
  };
}
