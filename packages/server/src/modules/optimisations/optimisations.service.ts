// Parameter optimisation with walk-forward windows (the optimisation issue). The service checks
// a request, lays the windows over the newest closed candles, stores the run and hands its
// combinations to the worker pool; answers arrive in batches, are saved (throttled) and pushed
// to the run's websocket listeners. The maths is the engine's; no backtest runs on this thread.
import {
  backtestSettings,
  FIELD_ERROR_CODES,
  OPTIMISABLE_SETTINGS,
  OPTIMISATION_ERROR_CODES,
  OPTIMISATION_MAX_COMBINATIONS,
  OPTIMISATION_MAX_WINDOWS,
  type OptimisationAnswer,
  type OptimisationList,
  type OptimisationRequestParsed,
  type OptimisationSocketFrame,
} from '@quantsquare/contracts';
import {
  type BacktestOptions,
  type CombinationResult,
  candlesFromRows,
  compileCombination,
  expandGrid,
  type ParameterAxis,
  type StrategyProtections,
  type StrategySource,
  strategyByType,
  walkForwardWindows,
} from '@quantsquare/engine';
import type { Clock } from '../../common/clock.js';
import { FieldErrorList, NotFound, ValidationFailed } from '../../common/errors.js';
import type { ServiceLogger } from '../../common/logger.js';
import type {
  OptimisationRow,
  StoredOptimisationWindow,
  StoredSkippedCombination,
} from '../../db/schema/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import { isPerpetual } from '../../market/simulated-funding.js';
import type { IndexedCombination } from './optimisation-messages.js';
import type { OptimisationJobHandle, OptimisationRunner } from './optimisation-pool.js';
import { combinationAnswer, presentOptimisation, presentSummary } from './optimisations.mappers.js';
import type { OptimisationsRepository } from './optimisations.repository.js';

export const OPTIMISATION_MESSAGES = {
  notFound: 'Optimisation not found',
  unknownStrategy: 'Unknown strategy',
  interrupted: 'The server stopped while the optimisation ran',
} as const;

/** Progress is saved at most this often (and at the end); listeners hear every batch. */
const SAVE_INTERVAL_MS = 500;

/** A user's rule sets as plain data (the user-strategies service). */
export interface RuleStrategySource {
  definitionFor(
    userId: number,
    type: string,
  ): Promise<{ type: string; rules: unknown; protections: StrategyProtections }>;
}

export interface OptimisationsDeps {
  readonly repo: OptimisationsRepository;
  readonly feed: MarketFeed;
  readonly clock: Clock;
  readonly runner: OptimisationRunner;
  readonly ruleStrategies: RuleStrategySource;
  readonly log: ServiceLogger;
}

type Listener = (frame: OptimisationSocketFrame) => void;

interface LocalRun {
  readonly handle: OptimisationJobHandle;
  readonly listeners: Set<Listener>;
}

const isCustomType = (type: string) => type.startsWith('custom:');

/**
 * The plain backtest's options from the request's settings and the candles' funding marks
 * (trading.service does the same, so each window equals a plain backtest there).
 */
async function baseOptions(
  feed: MarketFeed,
  request: OptimisationRequestParsed,
  firstMs: number,
  lastMs: number,
): Promise<BacktestOptions> {
  const settings = request.settings ?? {};
  const includeFunding = request.include_funding ?? isPerpetual(request.symbol);
  const history = includeFunding
    ? await feed.fundingHistory(request.exchange, request.symbol, firstMs, lastMs)
    : undefined;
  return {
    funding: history && {
      time: history.time,
      rate: history.rate,
      source: history.source,
      note: history.missing ?? undefined,
    },
    timeframe: request.timeframe,
    initialBalance: settings.initial_balance,
    feeRate: settings.fee_rate,
    slippageBps: settings.slippage_bps,
    stopLossPercent: settings.stop_loss_percentage,
    takeProfitPercent: settings.take_profit_percentage,
    trailingStopPercent: settings.trailing_stop_percentage,
    direction: settings.direction,
    leverage: settings.leverage,
    positionSizeFraction: settings.position_size,
  };
}

/** Unknown names and values a parameter can never take, as `parameter_grid.<name>` errors. */
function checkGrid(
  source: StrategySource,
  grid: Readonly<Record<string, ParameterAxis>>,
): FieldErrorList {
  const errors = new FieldErrorList();
  const specs =
    source.kind === 'builtin' ? (strategyByType(source.type)?.parameterSpecs ?? []) : [];
  for (const [name, axis] of Object.entries(grid)) {
    const field = `parameter_grid.${name}`;
    const values = expandGrid({ [name]: axis }).map((combination) => combination[name]!);
    if (values.length === 0) {
      errors.add(
        field,
        'The range holds no value (min ≤ max, step > 0)',
        OPTIMISATION_ERROR_CODES.emptyAxis,
      );
      continue;
    }
    const setting = (OPTIMISABLE_SETTINGS as readonly string[]).includes(name)
      ? backtestSettings.shape[name as (typeof OPTIMISABLE_SETTINGS)[number]]
      : undefined;
    const spec = specs.find((candidate) => candidate.name === name);
    if (setting) {
      if (values.some((value) => !setting.safeParse(value).success)) {
        errors.add(field, `A value is out of the bounds of ${name}`, FIELD_ERROR_CODES.invalid);
      }
    } else if (spec) {
      if (spec.integer && values.some((value) => !Number.isInteger(value))) {
        errors.add(field, 'Must be whole numbers', FIELD_ERROR_CODES.notInteger);
      } else if (values.some((value) => value < spec.min || value > spec.max)) {
        errors.add(field, `Must be between ${spec.min} and ${spec.max}`, FIELD_ERROR_CODES.invalid);
      }
    } else {
      errors.add(field, `Unknown parameter for ${source.type}`, FIELD_ERROR_CODES.unknownParameter);
    }
  }
  return errors;
}

function gridCount(grid: Readonly<Record<string, ParameterAxis>>): number {
  let count = 1;
  for (const [name, axis] of Object.entries(grid)) {
    count *= expandGrid({ [name]: axis }).length;
    if (count > OPTIMISATION_MAX_COMBINATIONS) return count;
  }
  return count;
}

/** The strategy a request names: a built-in one, or the user's own rules. */
async function sourceOf(
  ruleStrategies: OptimisationsDeps['ruleStrategies'],
  userId: number,
  type: string,
): Promise<StrategySource> {
  if (isCustomType(type)) {
    return { kind: 'rules', ...(await ruleStrategies.definitionFor(userId, type)) };
  }
  if (!strategyByType(type)) {
    throw ValidationFailed.field(
      'strategy_type',
      OPTIMISATION_MESSAGES.unknownStrategy,
      FIELD_ERROR_CODES.unknownStrategy,
    );
  }
  return { kind: 'builtin', type };
}

/** The walk-forward windows of `candleCount` candles; refuses none or too many. */
function windowsOf(candleCount: number, request: OptimisationRequestParsed) {
  const windows = walkForwardWindows(candleCount, {
    inSampleBars: request.windows.in_sample_bars,
    outOfSampleBars: request.windows.out_of_sample_bars,
    stepBars: request.windows.step_bars,
  });
  if (windows.length === 0) {
    throw ValidationFailed.field(
      'windows',
      `${candleCount} candles hold no in-sample + out-of-sample window`,
      OPTIMISATION_ERROR_CODES.noWindow,
    );
  }
  if (windows.length > OPTIMISATION_MAX_WINDOWS) {
    throw ValidationFailed.field(
      'windows.step_bars',
      `At most ${OPTIMISATION_MAX_WINDOWS} windows; take a larger step`,
      OPTIMISATION_ERROR_CODES.tooManyWindows,
    );
  }
  return windows;
}

/** The grid's combinations the strategy takes, and those it refuses with their fields. */
function combinationsOf(
  source: StrategySource,
  grid: OptimisationRequestParsed['parameter_grid'],
  base: BacktestOptions,
) {
  const skipped: StoredSkippedCombination[] = [];
  const valid: IndexedCombination[] = [];
  expandGrid(grid).forEach((parameters, index) => {
    const compiled = compileCombination(source, parameters, base);
    if (compiled.ok) valid.push({ index, parameters });
    else skipped.push({ parameters: { ...parameters }, fields: compiled.fields });
  });
  if (valid.length === 0) {
    throw ValidationFailed.field(
      'parameter_grid',
      'The strategy refuses every combination of the grid',
      OPTIMISATION_ERROR_CODES.noValidCombination,
    );
  }
  return { valid, skipped };
}

/** The windows as stored, with their candles' times (`at`: a candle index's time). */
function storedWindowsOf(
  windows: ReturnType<typeof walkForwardWindows>,
  at: (index: number) => number,
): StoredOptimisationWindow[] {
  return windows.map((window) => ({
    index: window.index,
    in_sample: {
      start_index: window.inSample.start,
      end_index: window.inSample.end,
      start_time: at(window.inSample.start),
      end_time: at(window.inSample.end - 1),
    },
    out_of_sample: {
      start_index: window.outOfSample.start,
      end_index: window.outOfSample.end,
      start_time: at(window.outOfSample.start),
      end_time: at(window.outOfSample.end - 1),
    },
  }));
}

/** How many combinations a grid makes; refuses a grid the strategy refuses, or too large. */
function checkedGridCount(
  source: StrategySource,
  grid: OptimisationRequestParsed['parameter_grid'],
): number {
  const gridErrors = checkGrid(source, grid);
  if (!gridErrors.isEmpty) throw gridErrors.failure('Invalid parameter grid');
  const count = gridCount(grid);
  if (count > OPTIMISATION_MAX_COMBINATIONS) {
    throw ValidationFailed.field(
      'parameter_grid',
      `The grid expands to more than ${OPTIMISATION_MAX_COMBINATIONS} combinations`,
      OPTIMISATION_ERROR_CODES.tooManyCombinations,
    );
  }
  return count;
}

/** A user's own optimisation; NotFound for another's or none. */
async function ownedRun(
  repo: OptimisationsDeps['repo'],
  userId: number,
  id: number,
): Promise<OptimisationRow> {
  const row = await repo.findOwned(userId, id);
  if (!row) throw new NotFound(OPTIMISATION_MESSAGES.notFound);
  return row;
}

/** What a run started by this process uses of the service. */
interface RunContext extends OptimisationsDeps {
  /** The runs of this process, by id. */
  readonly local: Map<number, LocalRun>;
  /** True once the service closes: a run's end is then not saved. */
  isClosing(): boolean;
  emit(id: number, frame: OptimisationSocketFrame): void;
}

/** Runs the stored optimisation's combinations in the pool; saves and announces its answers. */
function start(
  ctx: RunContext,
  row: OptimisationRow,
  source: StrategySource,
  candles: ReturnType<typeof candlesFromRows>,
  windows: ReturnType<typeof walkForwardWindows>,
  valid: IndexedCombination[],
  base: BacktestOptions,
): void {
  const { repo, clock, runner, log, local, emit } = ctx;
  const request = row.request;
  const results: CombinationResult[] = [];
  let lastSaveMs = 0;
  let saving: Promise<void> = Promise.resolve();
  const save = (final?: { status: 'completed' | 'failed'; error?: string }) => {
    const now = clock.now();
    const snapshot = [...results].sort((a, b) => a.index - b.index);
    const progress = valid.length === 0 ? 1 : results.length / valid.length;
    saving = saving.then(async () => {
      const isOpen = await repo.saveProgress(row.id, {
        progress,
        completedCount: results.length,
        results: snapshot,
        updatedAt: now,
        ...(final ? { status: final.status, finishedAt: now, error: final.error ?? null } : {}),
      });
      if (!isOpen) local.get(row.id)?.handle.cancel();
    });
    return saving;
  };
  const handle = runner.run(
    { candles, windows, source, base, objective: request.objective },
    valid,
    (outcomes) => {
      const added: CombinationResult[] = [];
      for (const outcome of outcomes) {
        if (outcome.kind === 'result') {
          results.push(outcome.result);
          added.push(outcome.result);
        }
      }
      const progress = valid.length === 0 ? 1 : results.length / valid.length;
      emit(row.id, {
        type: 'progress',
        data: {
          status: 'running',
          progress,
          completed_count: results.length,
          results: added.map(combinationAnswer),
        },
      });
      const nowMs = clock.now().getTime();
      if (nowMs - lastSaveMs >= SAVE_INTERVAL_MS && results.length < valid.length) {
        lastSaveMs = nowMs;
        void save().catch((error) =>
          log.warn({ err: error, id: row.id }, 'optimisation progress not saved'),
        );
      }
    },
  );
  local.set(row.id, { handle, listeners: local.get(row.id)?.listeners ?? new Set() });
  handle.done
    .then(async (end) => {
      if (end === 'completed' && !ctx.isClosing()) await save({ status: 'completed' });
      return end;
    })
    .catch(async (error: unknown) => {
      log.warn({ err: error, id: row.id }, 'optimisation failed');
      if (ctx.isClosing()) return;
      await save({
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
    })
    .catch((error: unknown) => log.warn({ err: error, id: row.id }, 'optimisation end not saved'))
    .finally(async () => {
      if (ctx.isClosing()) return;
      const stored = await repo.findOwned(row.userId, row.id).catch(() => undefined);
      if (stored) emit(row.id, { type: 'finished', data: presentOptimisation(stored) });
      local.delete(row.id);
    });
}

export function createOptimisationsService(deps: OptimisationsDeps) {
  const { repo, feed, clock, runner, ruleStrategies } = deps;
  const local = new Map<number, LocalRun>();
  let isClosing = false;

  const owned = (userId: number, id: number) => ownedRun(repo, userId, id);

  /** A run of this process is never stale; one of another process is, once it stops saving. */
  const presentOptions = (id: number) => ({
    isRunningHere: local.has(id),
    nowMs: clock.now().getTime(),
  });

  function emit(id: number, frame: OptimisationSocketFrame): void {
    for (const listener of local.get(id)?.listeners ?? []) listener(frame);
  }

  const run: RunContext = {
    ...deps,
    local,
    isClosing: () => isClosing,
    emit,
  };

  return {
    async create(userId: number, request: OptimisationRequestParsed): Promise<{ id: number }> {
      const source = await sourceOf(ruleStrategies, userId, request.strategy_type);
      const count = checkedGridCount(source, request.parameter_grid);
      const { exchange, symbol, timeframe, limit } = request;
      const series = await feed.series({ exchange, symbol, timeframe, closedCount: limit });
      // Closed candles only, the newest `limit`: what the plain backtest with this limit runs on.
      const rows = series.closed.slice(-limit);
      const windows = windowsOf(rows.length, request);
      const base = await baseOptions(
        feed,
        request,
        rows[0]?.timestamp ?? 0,
        rows[rows.length - 1]?.timestamp ?? 0,
      );
      const { valid, skipped } = combinationsOf(source, request.parameter_grid, base);
      const storedWindows = storedWindowsOf(windows, (index) => rows[index]!.timestamp);
      const now = clock.now();
      const row = await repo.insert({
        userId,
        status: 'running',
        progress: 0,
        request,
        strategyType: source.type,
        source: series.source,
        candleCount: rows.length,
        windows: storedWindows,
        combinationCount: count,
        completedCount: 0,
        skipped,
        results: [],
        createdAt: now,
        updatedAt: now,
      });
      start(run, row, source, candlesFromRows(rows), windows, valid, base);
      return { id: row.id };
    },

    async get(userId: number, id: number): Promise<OptimisationAnswer> {
      const row = await owned(userId, id);
      return presentOptimisation(row, presentOptions(id));
    },

    async list(userId: number): Promise<OptimisationList> {
      const results = (await repo.listForUser(userId)).map(presentSummary);
      return { results, count: results.length };
    },

    /** Cancels a run still going; a finished one is answered as it is. */
    async cancel(userId: number, id: number): Promise<OptimisationAnswer> {
      await owned(userId, id);
      if (await repo.cancel(userId, id, clock.now())) local.get(id)?.handle.cancel();
      return presentOptimisation(await owned(userId, id), presentOptions(id));
    },

    /**
     * Listens to a run of `userId` (404 for another's): the snapshot first, then its batches
     * and the finished answer (at once when the run is over).
     * Answers the function that stops listening.
     */
    async listen(userId: number, id: number, listener: Listener): Promise<() => void> {
      const row = await owned(userId, id);
      const answer = presentOptimisation(row, presentOptions(id));
      const isOver = answer.status !== 'running' && answer.status !== 'queued';
      // A run already over is answered as finished at once (the socket then closes).
      listener({ type: isOver ? 'finished' : 'snapshot', data: answer });
      const run = local.get(id);
      if (isOver) return () => {};
      if (!run) {
        // It may have ended since the read above (or it runs in another process: then the
        // client polls).
        const again = presentOptimisation(await owned(userId, id), presentOptions(id));
        if (again.status !== 'running' && again.status !== 'queued') {
          listener({ type: 'finished', data: again });
        }
        return () => {};
      }
      run.listeners.add(listener);
      return () => run.listeners.delete(listener);
    },

    /** Stops this process's runs (shutdown): they are marked failed, not left running. */
    async close(): Promise<void> {
      isClosing = true;
      const ids = [...local.keys()];
      local.clear();
      await runner.close();
      const now = clock.now();
      for (const id of ids) {
        await repo.markFailed(id, OPTIMISATION_MESSAGES.interrupted, now).catch(() => false);
      }
    },
  };
}

export type OptimisationsService = ReturnType<typeof createOptimisationsService>;
