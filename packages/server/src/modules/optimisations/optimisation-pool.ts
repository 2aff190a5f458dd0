// A pool of worker threads for optimisations: the API's event loop only splits a job into small
// tasks and collects answers; every backtest runs in a worker. Workers start on first use and
// keep each job's candles until the job ends, so a task carries only its combinations.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  CombinationOutcome,
  FromWorker,
  IndexedCombination,
  OptimisationJobData,
  ToWorker,
} from './optimisation-messages.js';

export type JobEnd = 'completed' | 'cancelled';

export interface OptimisationJobHandle {
  cancel(): void;
  /** Completed or cancelled; rejects when a worker fails on the job. */
  readonly done: Promise<JobEnd>;
}

export interface OptimisationRunner {
  run(
    job: OptimisationJobData,
    combinations: readonly IndexedCombination[],
    onOutcomes: (outcomes: readonly CombinationOutcome[]) => void,
  ): OptimisationJobHandle;
  close(): Promise<void>;
}

/** Combinations per task at most: small tasks keep cancelling and progress prompt. */
const TASK_MAX_COMBINATIONS = 8;

interface PoolWorker {
  readonly worker: Worker;
  /** Jobs whose data this worker holds. */
  readonly jobs: Set<number>;
  task: Task | undefined;
}

interface Task {
  readonly jobId: number;
  readonly taskId: number;
  readonly combinations: readonly IndexedCombination[];
}

interface Job {
  readonly data: OptimisationJobData;
  readonly onOutcomes: (outcomes: readonly CombinationOutcome[]) => void;
  unfinishedTasks: number;
  isOver: boolean;
  resolve(end: JobEnd): void;
  reject(error: Error): void;
}

/** Default size: one worker per CPU (the API thread mostly waits meanwhile). */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism());
}

/** A promise with its settling functions. */
function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A job's combinations in tasks: about four per worker, none over TASK_MAX_COMBINATIONS. */
function taskSlices<T>(combinations: readonly T[], workers: number): T[][] {
  const perTask = Math.max(
    1,
    Math.min(TASK_MAX_COMBINATIONS, Math.ceil(combinations.length / (workers * 4))),
  );
  const slices: T[][] = [];
  for (let k = 0; k < combinations.length; k += perTask) {
    slices.push(combinations.slice(k, k + perTask));
  }
  return slices;
}

export function createOptimisationPool(options: { size?: number } = {}): OptimisationRunner {
  const size = Math.max(1, options.size ?? defaultPoolSize());
  const workers: PoolWorker[] = [];
  const queue: Task[] = [];
  const jobs = new Map<number, Job>();
  let nextJobId = 1;
  let nextTaskId = 1;
  let isClosed = false;

  function spawn(): PoolWorker {
    const worker = new Worker(new URL('./optimisation-worker.mjs', import.meta.url));
    const entry: PoolWorker = { worker, jobs: new Set(), task: undefined };
    worker.on('message', (message: FromWorker) => onAnswer(entry, message));
    worker.on('error', (error) => onCrash(entry, error));
    worker.on('exit', (code) => {
      if (!isClosed && code !== 0) onCrash(entry, new Error(`optimisation worker exited ${code}`));
    });
    workers.push(entry);
    return entry;
  }

  function finishJob(jobId: number, end: JobEnd | Error): void {
    const job = jobs.get(jobId);
    if (!job || job.isOver) return;
    job.isOver = true;
    jobs.delete(jobId);
    for (let k = queue.length - 1; k >= 0; k--) if (queue[k]!.jobId === jobId) queue.splice(k, 1);
    for (const entry of workers) {
      if (entry.jobs.delete(jobId))
        entry.worker.postMessage({ type: 'forget', jobId } satisfies ToWorker);
    }
    if (end instanceof Error) job.reject(end);
    else job.resolve(end);
  }

  function onAnswer(entry: PoolWorker, message: FromWorker): void {
    entry.task = undefined;
    const job = jobs.get(message.jobId);
    if (job && !job.isOver) {
      if (message.type === 'failed') {
        finishJob(message.jobId, new Error(message.message));
      } else {
        job.unfinishedTasks--;
        job.onOutcomes(message.outcomes);
        if (job.unfinishedTasks === 0) finishJob(message.jobId, 'completed');
      }
    }
    dispatch();
  }

  function onCrash(entry: PoolWorker, error: Error): void {
    const index = workers.indexOf(entry);
    if (index < 0) return;
    workers.splice(index, 1);
    if (entry.task) finishJob(entry.task.jobId, error);
    void entry.worker.terminate();
    dispatch();
  }

  function dispatch(): void {
    if (isClosed) return;
    while (queue.length > 0) {
      let idle = workers.find((entry) => entry.task === undefined);
      if (!idle && workers.length < size) idle = spawn();
      if (!idle) return;
      const task = queue.shift()!;
      const job = jobs.get(task.jobId);
      if (!job) continue;
      const isNew = !idle.jobs.has(task.jobId);
      idle.jobs.add(task.jobId);
      idle.task = task;
      const message: ToWorker = {
        type: 'task',
        jobId: task.jobId,
        taskId: task.taskId,
        combinations: task.combinations,
        ...(isNew ? { job: job.data } : {}),
      };
      idle.worker.postMessage(message);
    }
  }

  return {
    run(data, combinations, onOutcomes) {
      if (isClosed) throw new Error('the optimisation pool is closed');
      const jobId = nextJobId++;
      const { promise: done, resolve, reject } = deferred<JobEnd>();
      const tasks: Task[] = taskSlices(combinations, size).map((slice) => ({
        jobId,
        taskId: nextTaskId++,
        combinations: slice,
      }));
      jobs.set(jobId, {
        data,
        onOutcomes,
        unfinishedTasks: tasks.length,
        isOver: false,
        resolve,
        reject,
      });
      if (tasks.length === 0) finishJob(jobId, 'completed');
      queue.push(...tasks);
      dispatch();
      return { cancel: () => finishJob(jobId, 'cancelled'), done };
    },

    async close() {
      isClosed = true;
      for (const jobId of [...jobs.keys()]) finishJob(jobId, 'cancelled');
      await Promise.all(workers.splice(0).map((entry) => entry.worker.terminate()));
    },
  };
}
