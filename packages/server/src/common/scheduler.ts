import type { Clock } from './clock.js';

export interface SchedulerLogger {
  error(details: object, message: string): void;
}

export interface ScheduledJob {
  readonly name: string;
  /** The first slot strictly after `at`. */
  nextSlotAfter(at: Date): Date;
  /** Runs for one slot (the instant it was due, not when the tick came). */
  run(slot: Date): Promise<void>;
}

export const HOUR_MS = 60 * 60 * 1000;
export const DEFAULT_POLL_INTERVAL_MS = 15_000;

/** Every hour on the hour, UTC (00:00 UTC+8 is 16:00 UTC, one of those hours). */
export const nextFullHour = (at: Date): Date =>
  new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);

/**
 * A tiny in-process scheduler. Time comes from the injected clock; a timer only polls it
 * (`tick`, which tests call directly after moving a ManualClock). A job whose slots were missed
 * (process asleep) runs once, for the latest due slot: past balances cannot be read anyway.
 */
export function createScheduler(deps: {
  clock: Clock;
  log: SchedulerLogger;
  pollIntervalMs?: number;
  /** In a cluster, whether this process runs the named job (one process runs each). */
  runsJob?: (name: string) => boolean;
}) {
  const jobs: { job: ScheduledJob; nextDue: Date; running: Promise<void> | null }[] = [];
  let timer: NodeJS.Timeout | undefined;

  async function runDue(entry: (typeof jobs)[number], now: Date): Promise<void> {
    let slot = entry.nextDue;
    for (
      let next = entry.job.nextSlotAfter(slot);
      next <= now;
      next = entry.job.nextSlotAfter(next)
    ) {
      slot = next;
    }
    entry.nextDue = entry.job.nextSlotAfter(slot);
    try {
      await entry.job.run(slot);
    } catch (error) {
      deps.log.error(
        { err: error, job: entry.job.name, slot: slot.toISOString() },
        'scheduled job failed',
      );
    }
  }

  return {
    /** The names of the jobs added (each a singleton in a cluster). */
    names(): string[] {
      return jobs.map((entry) => entry.job.name);
    },
    add(job: ScheduledJob): void {
      jobs.push({ job, nextDue: job.nextSlotAfter(deps.clock.now()), running: null });
    },
    /** Runs every job that is due now; resolves when they finished. */
    async tick(): Promise<void> {
      const now = deps.clock.now();
      const runs: Promise<void>[] = [];
      for (const entry of jobs) {
        if (entry.running) {
          runs.push(entry.running);
          continue;
        }
        if (entry.nextDue > now) continue;
        if (deps.runsJob && !deps.runsJob(entry.job.name)) {
          // Another process runs it: this one only keeps its next slot in step.
          entry.nextDue = entry.job.nextSlotAfter(now);
          continue;
        }
        const run = runDue(entry, now).finally(() => {
          entry.running = null;
        });
        entry.running = run;
        runs.push(run);
      }
      await Promise.all(runs);
    },
    start(): void {
      if (timer) return;
      timer = setInterval(() => void this.tick(), deps.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
      timer.unref();
    },
    /** Stops polling and waits for running jobs. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(jobs.map((entry) => entry.running));
    },
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;
