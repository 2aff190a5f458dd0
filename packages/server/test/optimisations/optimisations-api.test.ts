// Walk-forward optimisation over HTTP on a real database and a real worker-thread pool:
// results equal plain backtests of the same parameters, refusals answer 400 with codes,
// others' ids answer 404, DELETE cancels, and the websocket carries the run to its owner.
import {
  backtestResponse,
  type OptimisationAnswer,
  type OptimisationSocketFrame,
  optimisationAnswer,
  userStrategyAnswer,
} from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { floatDecimal } from '../../src/common/decimal-text.js';
import { optimisations } from '../../src/db/schema/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' } });
const PATH = '/api/trading/optimisations/';
const SYMBOL = 'BTC/USDT:USDT';
const WINDOWS = { in_sample_bars: 120, out_of_sample_bars: 60, step_bars: 60 };
const SETTINGS = { slippage_bps: 3 };
/** Money in an answer: a decimal string in plain notation. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

let owner: string;
let other: string;
beforeAll(async () => {
  owner = (await registerEmail(ctx.app, uniqueEmail('opt-owner'))).access;
  other = (await registerEmail(ctx.app, uniqueEmail('opt-other'))).access;
});

const request = (overrides: Record<string, unknown> = {}) => ({
  strategy_type: 'ma_cross',
  symbol: SYMBOL,
  timeframe: '1h',
  exchange: 'binance',
  limit: 400,
  parameter_grid: { fast_period: [5, 8], slow_period: { min: 20, max: 30, step: 10 } },
  windows: WINDOWS,
  objective: 'return',
  settings: SETTINGS,
  ...overrides,
});

async function create(body: Record<string, unknown>, token = owner): Promise<number> {
  const res = await call<{ id: number }>(ctx.app, 'POST', PATH, { token, body });
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function finished(id: number): Promise<OptimisationAnswer> {
  let answer: OptimisationAnswer | undefined;
  await expect
    .poll(
      async () => {
        const res = await call(ctx.app, 'GET', `${PATH}${id}/`, { token: owner });
        answer = optimisationAnswer.parse(res.body);
        return answer.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe('running');
  return answer!;
}

describe('POST /trading/optimisations/', () => {
  it('runs every combination on every window; the last out-of-sample window equals a plain backtest', async () => {
    const id = await create(request());
    const answer = await finished(id);
    expect(answer).toMatchObject({
      status: 'completed',
      progress: 1,
      combination_count: 4,
      completed_count: 4,
      candle_count: 400,
      source: 'simulated',
    });
    // 400 candles, 180 per window, step 60: four windows, the last ending on the newest candle.
    expect(answer.windows.map((w) => [w.in_sample.start_index, w.out_of_sample.end_index])).toEqual(
      [
        [40, 220],
        [100, 280],
        [160, 340],
        [220, 400],
      ],
    );
    expect(answer.results.map((r) => r.parameters)).toEqual([
      { fast_period: 5, slow_period: 20 },
      { fast_period: 5, slow_period: 30 },
      { fast_period: 8, slow_period: 20 },
      { fast_period: 8, slow_period: 30 },
    ]);
    for (const result of answer.results) {
      expect(result.windows).toHaveLength(4);
      for (const window of result.windows) {
        expect(window.in_sample.final_balance).toMatch(PLAIN_DECIMAL);
        expect(window.out_of_sample.final_balance).toMatch(PLAIN_DECIMAL);
        expect(typeof window.out_of_sample.total_return).toBe('number');
      }
      const plain = await call(ctx.app, 'POST', '/api/trading/backtest/', {
        body: {
          symbol: SYMBOL,
          timeframe: '1h',
          strategy_type: 'ma_cross',
          parameters: result.parameters,
          limit: WINDOWS.out_of_sample_bars,
          settings: SETTINGS,
        },
      });
      const backtest = backtestResponse.parse(plain.body).backtest;
      const last = result.windows[3]!.out_of_sample;
      expect(last.total_return).toBe(backtest.total_return);
      expect(last.sharpe_ratio).toBe(backtest.sharpe_ratio);
      expect(last.trade_count).toBe(backtest.trade_count);
      expect(last.final_balance).toBe(backtest.final_balance);
      expect(last.objective).toBe(backtest.total_return);
    }
    const bestOos = Math.max(...answer.results.map((r) => r.out_of_sample_objective));
    expect(answer.best?.out_of_sample_objective).toBe(bestOos);
    expect(answer.overfitting_ratio).toBe(answer.best?.overfitting_ratio);
    if (answer.best && answer.best.out_of_sample_objective > 0) {
      expect(answer.overfitting_ratio).toBeCloseTo(
        answer.best.in_sample_objective / answer.best.out_of_sample_objective,
        12,
      );
    } else {
      expect(answer.warning).toBe('out_of_sample_not_positive');
    }
  });

  it('keeps the engine’s floats in the row and answers its money as decimal strings', async () => {
    const id = await create(request({ parameter_grid: { fast_period: [5], slow_period: [20] } }));
    const answer = await finished(id);
    const [row] = await ctx.database.db
      .select()
      .from(optimisations)
      .where(eq(optimisations.id, id));
    // A row of any age holds the figures as numbers; the answer writes them on every read.
    const stored = row!.results[0]!.windows[0]!.in_sample;
    expect(typeof stored.final_balance).toBe('number');
    expect(answer.results[0]!.windows[0]!.in_sample.final_balance).toBe(
      floatDecimal(stored.final_balance),
    );
  });

  it('lists combinations the strategy refuses as skipped and runs the others', async () => {
    const id = await create(
      request({ parameter_grid: { fast_period: [10, 30], slow_period: [20] } }),
    );
    const answer = await finished(id);
    expect(answer.status).toBe('completed');
    expect(answer.results.map((r) => r.parameters)).toEqual([{ fast_period: 10, slow_period: 20 }]);
    expect(answer.skipped).toHaveLength(1);
    expect(answer.skipped[0]?.parameters).toEqual({ fast_period: 30, slow_period: 20 });
  });

  it('varies the stop-loss of a user rule set (custom:<id>)', async () => {
    const sma = (period: number) => ({ indicator: 'sma', period });
    const saved = await call(ctx.app, 'POST', '/api/trading/user-strategies/', {
      token: owner,
      body: {
        name: 'Cross',
        description: '',
        rules: {
          entry_long: { left: sma(5), op: 'crosses_above', right: sma(20) },
          exit_long: { left: sma(5), op: 'crosses_below', right: sma(20) },
          entry_short: null,
          exit_short: null,
        },
      },
    });
    const strategy = userStrategyAnswer.parse(saved.body);
    const id = await create(
      request({
        strategy_type: strategy.type,
        parameter_grid: { stop_loss_percentage: [1, 3] },
      }),
    );
    const answer = await finished(id);
    expect(answer.status).toBe('completed');
    expect(answer.strategy_type).toBe(strategy.type);
    for (const result of answer.results) {
      const plain = await call(ctx.app, 'POST', '/api/trading/backtest/', {
        token: owner,
        body: {
          symbol: SYMBOL,
          strategy_type: strategy.type,
          limit: WINDOWS.out_of_sample_bars,
          settings: { ...SETTINGS, stop_loss_percentage: result.parameters.stop_loss_percentage },
        },
      });
      const backtest = backtestResponse.parse(plain.body).backtest;
      expect(result.windows.at(-1)?.out_of_sample.total_return).toBe(backtest.total_return);
    }
    // Another user cannot optimise it.
    const res = await call(ctx.app, 'POST', PATH, {
      token: other,
      body: request({
        strategy_type: strategy.type,
        parameter_grid: { stop_loss_percentage: [1] },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field_codes: { strategy_type: ['unknown_strategy'] } });
  });

  it('refuses a grid of more than 500 combinations with too_many_combinations', async () => {
    const res = await call(ctx.app, 'POST', PATH, {
      token: owner,
      body: request({
        parameter_grid: {
          fast_period: { min: 2, max: 30, step: 1 },
          slow_period: { min: 31, max: 60, step: 1 },
        },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      field_codes: { parameter_grid: ['too_many_combinations'] },
    });
  });

  it('refuses unknown parameters, out-of-range values, empty ranges and windows that do not fit', async () => {
    const refused = async (body: Record<string, unknown>, field: string, code: string) => {
      const res = await call(ctx.app, 'POST', PATH, { token: owner, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ field_codes: { [field]: [code] } });
    };
    await refused(
      request({ parameter_grid: { moon: [1] } }),
      'parameter_grid.moon',
      'unknown_parameter',
    );
    await refused(
      request({ parameter_grid: { fast_period: [0, 5] } }),
      'parameter_grid.fast_period',
      'invalid',
    );
    await refused(
      request({ parameter_grid: { fast_period: { min: 9, max: 3, step: 1 } } }),
      'parameter_grid.fast_period',
      'empty_axis',
    );
    await refused(
      request({ windows: { in_sample_bars: 300, out_of_sample_bars: 200, step_bars: 10 } }),
      'windows',
      'no_window',
    );
    await refused(
      request({ parameter_grid: { fast_period: [30], slow_period: [20] } }),
      'parameter_grid',
      'no_valid_combination',
    );
    await refused(request({ objective: 'luck' }), 'objective', 'invalid_choice');
    const anonymous = await call(ctx.app, 'POST', PATH, { body: request() });
    expect(anonymous.status).toBe(401);
  });
});

describe('GET and DELETE /trading/optimisations/{id}/', () => {
  it('answers 404 to another user', async () => {
    const id = await create(request());
    await finished(id);
    expect((await call(ctx.app, 'GET', `${PATH}${id}/`, { token: other })).status).toBe(404);
    expect((await call(ctx.app, 'DELETE', `${PATH}${id}/`, { token: other })).status).toBe(404);
    expect((await call(ctx.app, 'GET', `${PATH}9999999/`, { token: owner })).status).toBe(404);
  });

  it('cancels a running optimisation, which then stays cancelled', async () => {
    const id = await create(
      request({
        limit: 1000,
        windows: { in_sample_bars: 100, out_of_sample_bars: 50, step_bars: 20 },
        parameter_grid: {
          fast_period: { min: 2, max: 21, step: 1 },
          slow_period: { min: 30, max: 130, step: 5 },
        },
      }),
    );
    const res = await call(ctx.app, 'DELETE', `${PATH}${id}/`, { token: owner });
    expect(res.status).toBe(200);
    const answer = optimisationAnswer.parse(res.body);
    expect(answer.status).toBe('cancelled');
    expect(answer.completed_count).toBeLessThan(420);
    const later = await finished(id);
    expect(later.status).toBe('cancelled');
    const list = await call<{ results: { id: number; status: string }[] }>(ctx.app, 'GET', PATH, {
      token: owner,
    });
    expect(list.body.results.find((r) => r.id === id)?.status).toBe('cancelled');
  });
});

describe('/ws/optimisations/{id}', () => {
  it('sends the run to its owner and ends with the finished answer', async () => {
    const id = await create(request({ objective: 'sharpe' }));
    const socket = await ctx.app.injectWS(`/ws/optimisations/${id}?access_token=${owner}`);
    const frames: OptimisationSocketFrame[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await expect.poll(() => frames.at(-1)?.type, { timeout: 60_000 }).toBe('finished');
    socket.terminate();
    // A late viewer may find it finished already: then the finished answer comes at once.
    const types = frames.map((f) => f.type);
    expect(['snapshot', 'finished']).toContain(types[0]);
    expect(frames.at(-1)?.data.status).toBe('completed');
    // Every frame carries the answer's shape: money as decimal strings.
    for (const frame of frames) {
      if (frame.type !== 'progress') optimisationAnswer.parse(frame.data);
      for (const result of frame.data.results) {
        for (const window of result.windows) {
          expect(window.out_of_sample.final_balance).toMatch(PLAIN_DECIMAL);
        }
      }
    }
  });

  it('refuses another user and a missing token with 404', async () => {
    const id = await create(request());
    await expect(ctx.app.injectWS(`/ws/optimisations/${id}?access_token=${other}`)).rejects.toThrow(
      /404/,
    );
    await expect(ctx.app.injectWS(`/ws/optimisations/${id}`)).rejects.toThrow(/404/);
    await finished(id);
  });
});
