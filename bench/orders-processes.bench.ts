// Orders across processes: the same fan-outs (one market order per account, 1,000 accounts) by
// one worker process holding every account, then by two, each with its own execution core on
// half the accounts (as a cluster's workers hold their share of the account lanes), on one
// PostgreSQL database; paper and live (the fake venue in a process of its own). The figure is
// the orders of all workers over the wall time from the first start to the last end, and two
// processes' rate as a multiple of one's. A measurement, never a test: nothing asserts times.
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../packages/server/src/common/clock.js';
import { openBenchPostgres, startFakeProcess } from './bench-support.js';
import { seedAccounts } from './orders.bench.js';

const FAN_OUTS = Number(process.env.BENCH_PROCESSES_FAN_OUTS ?? 6);
const TARGETS = (process.env.BENCH_ORDER_TARGETS ?? 'paper,live').split(',');

interface Done {
  readonly orders: number;
  readonly failed: number;
  readonly startedAtMs: number;
  readonly endedAtMs: number;
  readonly firstError?: string;
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`orders worker exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
  });
}

/** `processes` workers on equal shares of `accounts`, started together: their orders per second. */
async function runWorkers(
  processes: number,
  accounts: readonly number[],
  databaseUrl: string,
  fakeUrl: string,
  run: string,
): Promise<{ rate: number; failed: number; firstError?: string }> {
  const share = Math.ceil(accounts.length / processes);
  const workers = Array.from({ length: processes }, (_, i) => {
    const child = fork(join(import.meta.dirname, 'orders-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.send({
      type: 'start',
      databaseUrl,
      fakeUrl,
      accounts: accounts.slice(i * share, (i + 1) * share),
      ownerBase: i * share,
      run: `${run}p${processes}w${i}`,
      fanOuts: FAN_OUTS,
    });
    return child;
  });
  await Promise.all(workers.map((child) => nextMessage(child)));
  const done = workers.map((child) => nextMessage<Done>(child));
  for (const child of workers) child.send({ type: 'go' });
  const results = await Promise.all(done);
  await Promise.all(workers.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  const orders = results.reduce((sum, r) => sum + r.orders, 0);
  const ms =
    Math.max(...results.map((r) => r.endedAtMs)) - Math.min(...results.map((r) => r.startedAtMs));
  const firstError = results.find((r) => r.firstError)?.firstError;
  return {
    rate: ms > 0 ? (orders / ms) * 1000 : 0,
    failed: results.reduce((sum, r) => sum + r.failed, 0),
    ...(firstError ? { firstError } : {}),
  };
}

export async function benchOrdersProcesses(): Promise<string[]> {
  const fake = await startFakeProcess();
  const database = await openBenchPostgres('qs_bench_orders_procs');
  const lines = [
    `orders by worker processes on one PostgreSQL: ${FAN_OUTS} fan-outs of one market order per account after a warm-up, each worker its own core on its share of the accounts; ${availableParallelism()} CPUs, shared with PostgreSQL and the fake venue`,
  ];
  try {
    const seeded = await seedAccounts(database.handle.db, systemClock, 'procs');
    for (const target of ['paper', 'live'] as const) {
      if (!TARGETS.includes(target)) continue;
      const accounts = seeded[target];
      const url = database.url ?? '';
      const one = await runWorkers(1, accounts, url, fake.url, `${target[0]}`);
      const two = await runWorkers(2, accounts, url, fake.url, `${target[0]}`);
      const failed = (r: typeof one) =>
        r.failed > 0 ? `; ${r.failed} FAILED (${r.firstError})` : '';
      lines.push(
        `  ${target === 'live' ? 'live (→ fake)' : 'paper'}: 1 process ${one.rate.toFixed(0)} orders/s${failed(one)}; 2 processes ${two.rate.toFixed(0)} orders/s${failed(two)} → ${(two.rate / Math.max(one.rate, 1e-9)).toFixed(2)}× (goal ≥ 1.4× on a quiet machine)`,
      );
    }
  } finally {
    await database.drop();
    await fake.stop();
  }
  return lines;
}
