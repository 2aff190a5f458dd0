// An optimisation worker thread: runs combinations of a job with the engine (compile, then the
// plain backtest per window) and answers their results. Nothing here touches I/O but the port.
import { parentPort } from 'node:worker_threads';
import { compileCombination, evaluateCombination } from '@quantsquare/engine';
import type {
  CombinationOutcome,
  FromWorker,
  OptimisationJobData,
  ToWorker,
} from './optimisation-messages.js';

const jobs = new Map<number, OptimisationJobData>();
const port = parentPort;
if (!port) throw new Error('optimisation.worker.ts runs in a worker thread');

port.on('message', (message: ToWorker) => {
  if (message.type === 'forget') {
    jobs.delete(message.jobId);
    return;
  }
  if (message.job) jobs.set(message.jobId, message.job);
  const job = jobs.get(message.jobId);
  let answer: FromWorker;
  try {
    if (!job) throw new Error(`job ${message.jobId} was never sent`);
    const outcomes: CombinationOutcome[] = message.combinations.map(({ index, parameters }) => {
      const compiled = compileCombination(job.source, parameters, job.base);
      if (!compiled.ok) return { kind: 'skipped', index, parameters, fields: compiled.fields };
      const result = evaluateCombination({
        index,
        parameters,
        candles: job.candles,
        windows: job.windows,
        strategy: compiled.strategy,
        options: compiled.options,
        objective: job.objective,
      });
      return { kind: 'result', result };
    });
    answer = { type: 'done', jobId: message.jobId, taskId: message.taskId, outcomes };
  } catch (error) {
    answer = {
      type: 'failed',
      jobId: message.jobId,
      taskId: message.taskId,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  port.postMessage(answer);
});
