import { describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/backtest.js';
import { compileStrategyOrThrow } from '../strategies/compile-strategy.js';
import { randomWalkCandles } from '../testing/random-candles.fixture.js';
import { compileCombination } from './combination.js';
import { backtestFigures, meanObjective, overfittingRatio } from './objectives.js';
import { bestCombination, candleRange, evaluateCombination } from './optimise.js';
import { axisValues, expandGrid, gridSize } from './parameter-grid.js';
import { walkForwardWindows } from './walk-forward.js';

describe('parameter grid', () => {
  it('expands lists and ranges into their cartesian product, first parameter slowest', () => {
    const grid = { fast_period: [5, 7], slow_period: { min: 20, max: 30, step: 5 } };
    expect(gridSize(grid)).toBe(6);
    expect(expandGrid(grid)).toEqual([
      { fast_period: 5, slow_period: 20 },
      { fast_period: 5, slow_period: 25 },
      { fast_period: 5, slow_period: 30 },
      { fast_period: 7, slow_period: 20 },
      { fast_period: 7, slow_period: 25 },
      { fast_period: 7, slow_period: 30 },
    ]);
  });

  it('keeps decimal steps exact and drops repeated values', () => {
    expect(axisValues({ min: 0.1, max: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(axisValues([3, 3, 4])).toEqual([3, 4]);
    expect(axisValues({ min: 5, max: 1, step: 1 })).toEqual([]);
  });

  it('counts a huge grid without expanding it', () => {
    const grid = { a: { min: 1, max: 1000, step: 1 }, b: { min: 1, max: 1000, step: 1 } };
    expect(gridSize(grid, 500)).toBeGreaterThan(500);
  });
});

describe('walk-forward windows', () => {
  it('lays in-sample then out-of-sample windows, stepping on, the last ending on the newest bar', () => {
    const windows = walkForwardWindows(105, {
      inSampleBars: 50,
      outOfSampleBars: 20,
      stepBars: 20,
    });
    expect(windows.map((w) => [w.inSample.start, w.inSample.end, w.outOfSample.end])).toEqual([
      [15, 65, 85],
      [35, 85, 105],
    ]);
  });

  it('answers no window when the candles are too few', () => {
    expect(walkForwardWindows(60, { inSampleBars: 50, outOfSampleBars: 20, stepBars: 5 })).toEqual(
      [],
    );
  });
});

describe('objectives', () => {
  it('scores undefined windows as 0 and has no overfitting ratio without a positive out-of-sample score', () => {
    expect(meanObjective([1, null, 2])).toBe(1);
    expect(overfittingRatio(3, 1.5)).toBe(2);
    expect(overfittingRatio(3, 0)).toBeNull();
    expect(overfittingRatio(3, -1)).toBeNull();
  });

  it('computes return, Sharpe, Sortino and Calmar from one backtest', () => {
    const candles = randomWalkCandles(600, 3);
    const strategy = compileStrategyOrThrow('ma_cross', { fast_period: 5, slow_period: 20 });
    const result = runBacktest(candles, strategy.compute(candles), { timeframe: '1h' });
    const hourMs = 3_600_000;
    expect(backtestFigures(result, 'return', hourMs).objective).toBe(result.total_return);
    expect(backtestFigures(result, 'sharpe', hourMs).objective).toBe(result.sharpe_ratio);
    const sortino = backtestFigures(result, 'sortino', hourMs);
    expect(sortino.objective).toBe(sortino.sortino_ratio);
    expect(Math.sign(sortino.sortino_ratio ?? 0)).toBe(Math.sign(result.sharpe_ratio ?? 0));
    const calmar = backtestFigures(result, 'calmar', hourMs);
    const years = (600 * hourMs) / (365 * 24 * hourMs);
    const expected =
      ((result.final_balance / result.initial_balance) ** (1 / years) - 1) /
      (result.max_drawdown / 100);
    expect(calmar.calmar_ratio).toBeCloseTo(expected, 10);
  });
});

describe('evaluateCombination', () => {
  const candles = randomWalkCandles(1200, 11);
  const windows = walkForwardWindows(1200, {
    inSampleBars: 400,
    outOfSampleBars: 200,
    stepBars: 200,
  });
  const base = { timeframe: '1h' as const, slippageBps: 2 };

  it('gives every window the figures of a plain backtest of the same parameters on its candles', () => {
    const parameters = { fast_period: 6, slow_period: 30, stop_loss_percentage: 2 };
    const compiled = compileCombination({ kind: 'builtin', type: 'ma_cross' }, parameters, base);
    if (!compiled.ok) throw new Error('expected a valid combination');
    const result = evaluateCombination({
      index: 0,
      parameters,
      candles,
      windows,
      strategy: compiled.strategy,
      options: compiled.options,
      objective: 'sharpe',
    });
    expect(result.windows).toHaveLength(windows.length);
    const plainStrategy = compileStrategyOrThrow('ma_cross', { fast_period: 6, slow_period: 30 });
    for (const window of windows) {
      const stretch = candleRange(candles, window.outOfSample);
      const plain = runBacktest(stretch, plainStrategy.compute(stretch), {
        timeframe: '1h',
        slippageBps: 2,
        stopLossPercent: 2,
      });
      const figures = result.windows[window.index]!.out_of_sample;
      expect(figures.total_return).toBe(plain.total_return);
      expect(figures.sharpe_ratio).toBe(plain.sharpe_ratio);
      expect(figures.trade_count).toBe(plain.trade_count);
      expect(figures.final_balance).toBe(plain.final_balance);
    }
    expect(result.out_of_sample_objective).toBe(
      meanObjective(result.windows.map((w) => w.out_of_sample.objective)),
    );
  });

  it('refuses combinations the strategy refuses, naming the parameter', () => {
    const compiled = compileCombination(
      { kind: 'builtin', type: 'ma_cross' },
      { fast_period: 30, slow_period: 10 },
      base,
    );
    expect(compiled.ok).toBe(false);
  });

  it('picks the best by out-of-sample objective, the earlier one on a tie', () => {
    const best = bestCombination([
      { index: 0, out_of_sample_objective: 1 },
      { index: 1, out_of_sample_objective: 3 },
      { index: 2, out_of_sample_objective: 3 },
    ]);
    expect(best?.index).toBe(1);
  });
});
