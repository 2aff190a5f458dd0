// Optimisation figures: a 100-combination ma_cross grid over 10,000 candles with walk-forward
// windows, run through the server's worker-thread pool (as POST /trading/optimisations/ runs
// it), against 100 plain backtests of the whole series one after another on this thread.
import {
  type Candles,
  compileStrategyOrThrow,
  expandGrid,
  runBacktest,
  walkForwardWindows,
} from '@quantsquare/engine';
import { randomWalkCandles } from '../packages/engine/src/testing/random-candles.fixture.js';
import {
  createOptimisationPool,
  defaultPoolSize,
} from '../packages/server/src/modules/optimisations/optimisation-pool.js';

const CANDLE_COUNT = 10_000;
const GRID = {
  fast_period: { min: 3, max: 12, step: 1 },
  slow_period: { min: 20, max: 65, step: 5 },
};
const WINDOWS = { inSampleBars: 2_000, outOfSampleBars: 500, stepBars: 500 };

function plainSequential(candles: Candles, grid: ReturnType<typeof expandGrid>): number {
  const start = performance.now();
  for (const parameters of grid) {
    const strategy = compileStrategyOrThrow('ma_cross', parameters);
    runBacktest(candles, strategy.compute(candles), { timeframe: '1h' });
  }
  return performance.now() - start;
}

export async function benchOptimise(): Promise<string[]> {
  const candles = randomWalkCandles(CANDLE_COUNT, 17, 30_000);
  const grid = expandGrid(GRID);
  const windows = walkForwardWindows(CANDLE_COUNT, WINDOWS);
  const combinations = grid.map((parameters, index) => ({ index, parameters }));
  const pool = createOptimisationPool();
  const lines: string[] = [];
  try {
    const runOnce = async () => {
      const start = performance.now();
      let results = 0;
      const handle = pool.run(
        {
          candles,
          windows,
          source: { kind: 'builtin', type: 'ma_cross' },
          base: { timeframe: '1h' },
          objective: 'sharpe',
        },
        combinations,
        (outcomes) => {
          results += outcomes.length;
        },
      );
      if ((await handle.done) !== 'completed' || results !== grid.length) {
        throw new Error('the optimisation did not complete');
      }
      return performance.now() - start;
    };
    // The first run includes starting the workers (each compiles the engine once).
    const coldMs = await runOnce();
    const warmMs = Math.min(await runOnce(), await runOnce());
    const plainMs = Math.min(plainSequential(candles, grid), plainSequential(candles, grid));
    const backtests = grid.length * windows.length * 2;
    lines.push(
      `grid ${grid.length} combinations × ${windows.length} windows (in ${WINDOWS.inSampleBars} / out ${WINDOWS.outOfSampleBars} / step ${WINDOWS.stepBars} bars) over ${CANDLE_COUNT} candles = ${backtests} backtests, ${defaultPoolSize()} worker threads`,
      `optimisation, cold pool (worker start-up included): ${coldMs.toFixed(0)} ms`,
      `optimisation, warm pool (best of 2): ${warmMs.toFixed(0)} ms`,
      `100 plain sequential backtests of all ${CANDLE_COUNT} candles (best of 2): ${plainMs.toFixed(0)} ms`,
      `ratio optimisation (warm) / 100 plain backtests: ${(warmMs / plainMs).toFixed(2)}×; cold: ${(coldMs / plainMs).toFixed(2)}×`,
      `(the optimisation backtests ${((grid.length * windows.length * (WINDOWS.inSampleBars + WINDOWS.outOfSampleBars)) / (grid.length * CANDLE_COUNT)).toFixed(1)}× the candles of the 100 plain runs)`,
    );
  } finally {
    await pool.close();
  }
  return lines;
}
