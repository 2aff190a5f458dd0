import type { OptimisationCombinationResult } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { applyFrame } from '../src/api/optimisations';
import {
  axisCount,
  botPresetOf,
  defaultAxes,
  gridCount,
  gridOf,
  heatMapOf,
} from '../src/features/optimise/optimise-grid';

const result = (
  index: number,
  parameters: Record<string, number>,
  out: number,
): OptimisationCombinationResult => ({
  index,
  parameters,
  in_sample_objective: out * 2,
  out_of_sample_objective: out,
  overfitting_ratio: out > 0 ? 2 : null,
  windows: [],
});

describe('the optimisation grid', () => {
  it('counts a range as the server does and multiplies the enabled rows', () => {
    expect(axisCount({ min: 5, max: 9, step: 2 })).toBe(3);
    expect(axisCount({ min: 0.1, max: 0.5, step: 0.1 })).toBe(5);
    expect(axisCount({ min: 9, max: 5, step: 1 })).toBe(0);
    const axes = [
      { name: 'a', isEnabled: true, min: 1, max: 3, step: 1, integer: true },
      { name: 'b', isEnabled: true, min: 10, max: 40, step: 10, integer: true },
      { name: 'c', isEnabled: false, min: 1, max: 100, step: 1, integer: true },
    ];
    expect(gridCount(axes)).toBe(12);
    expect(gridOf(axes)).toEqual({
      a: { min: 1, max: 3, step: 1 },
      b: { min: 10, max: 40, step: 10 },
    });
  });

  it('starts ma_cross with its two periods around their defaults, protective levels off', () => {
    const axes = defaultAxes({
      id: 1,
      type: 'ma_cross',
      name: 'MA',
      description: '',
      parameters: { fast_period: 7, slow_period: 25 },
      parameter_specs: [
        { name: 'fast_period', display_name: 'Fast', default: 7, min: 2, max: 100, integer: true },
        { name: 'slow_period', display_name: 'Slow', default: 25, min: 3, max: 300, integer: true },
      ],
    });
    expect(axes.filter((a) => a.isEnabled).map((a) => [a.name, a.min, a.max, a.step])).toEqual([
      ['fast_period', 6, 8, 1],
      ['slow_period', 20, 30, 5],
    ]);
    expect(axes.map((a) => a.name)).toContain('stop_loss_percentage');
  });

  it('lays the out-of-sample objective over two parameters, best of the others per cell', () => {
    const map = heatMapOf(
      [
        result(0, { a: 1, b: 10, c: 1 }, 0.5),
        result(1, { a: 1, b: 10, c: 2 }, 0.9),
        result(2, { a: 2, b: 10, c: 1 }, -0.2),
        result(3, { a: 1, b: 20, c: 1 }, 0.1),
      ],
      'a',
      'b',
    );
    expect(map.xs).toEqual([1, 2]);
    expect(map.ys).toEqual([10, 20]);
    expect(map.cells).toEqual([
      [0.9, -0.2],
      [0.1, null],
    ]);
  });

  it('hands the bot form the strategy parameters and the stop-loss, not other settings', () => {
    expect(
      botPresetOf(
        { strategy_type: 'ma_cross', symbol: 'BTC/USDT:USDT', timeframe: '1h' },
        {
          fast_period: 5,
          stop_loss_percentage: 2,
          trailing_stop_percentage: 3,
        },
      ),
    ).toEqual({
      strategyType: 'ma_cross',
      parameters: { fast_period: 5 },
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      stop_loss_percentage: 2,
    });
  });

  it('appends a progress frame once, in grid order', () => {
    const base = {
      results: [result(2, { a: 2 }, 1)],
      status: 'running',
      progress: 0.5,
      completed_count: 1,
    } as unknown as Parameters<typeof applyFrame>[0];
    const frame = {
      type: 'progress' as const,
      data: {
        status: 'running' as const,
        progress: 1,
        completed_count: 2,
        results: [result(0, { a: 1 }, 2), result(2, { a: 2 }, 1)],
      },
    };
    const next = applyFrame(base, frame);
    expect(next?.results.map((r) => r.index)).toEqual([0, 2]);
    expect(next?.progress).toBe(1);
  });
});
