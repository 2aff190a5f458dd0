// Websocket fan-out of the strategy page: 10,000 viewers of one strategy on loopback (in a child
// process), the server in this process (the whole app on embedded PGlite). Each trade event is
// published on the event bus as the execution core does; the figures are the delivery time to the
// last viewer (p50/p99 over the events), to each viewer, the server CPU per event, and the
// server memory per idle viewer.
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { systemClock } from '../packages/server/src/common/clock.js';
import { loadConfig } from '../packages/server/src/config.js';
import { openPglite } from '../packages/server/src/db/client.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import { buildStandaloneApp } from '../packages/server/test/helpers/standalone-app.js';

const VIEWERS = Number(process.env.BENCH_WS_VIEWERS ?? 10_000);
const EVENTS = 30;
const GAP_MS = 300;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const now = () => performance.timeOrigin + performance.now();
const gc = (globalThis as { gc?: () => void }).gc;
const memory = async () => {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
};

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

export async function benchSquareWs(port: number): Promise<string[]> {
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  const dataDir = mkdtempSync(join(tmpdir(), 'qs-bench-ws-'));
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      SECRET_KEY: 'bench-only-secret-key-0123456789abcdef',
      DATA_DIR: dataDir,
      MARKET_DATA: 'simulated',
      WEB_DIST_DIR: join(dataDir, 'no-web'),
    },
    { generateSecret: false },
  );
  const database = await openPglite(await PGlite.create(), { migrate: true });
  const bus = createInProcessEventBus({ clock: systemClock });
  const app = await buildStandaloneApp({
    config,
    db: database.db,
    databaseKind: database.kind,
    eventBus: bus,
    logger: false,
  });
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}/api`;
  let viewers: ReturnType<typeof fork> | undefined;
  try {
    // A trader publishes a paper account (the real routes).
    const email = 'ws-bench@example.com';
    const session = await json(
      await fetch(`${base}/auth/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password: 'bench password 1',
          password2: 'bench password 1',
        }),
      }),
    );
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${session.access}`,
    };
    const account = await json(
      await fetch(`${base}/auth/apis/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'Bench',
          exchange: 'binance',
          is_paper: true,
          default_leverage: 3,
        }),
      }),
    );
    const accountId = Number(account.id);
    const userId = Number((session.user as { id: number }).id);
    await fetch(`${base}/strategy-square/accounts/${accountId}/share-settings/`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ is_public: true }),
    });

    const before = await memory();
    viewers = fork(join(import.meta.dirname, 'ws-viewers.mjs'), [
      `ws://127.0.0.1:${port}/ws/strategies/${accountId}`,
      String(VIEWERS),
    ]);
    const connectStarted = Date.now();
    const pending = new Map<string, (times: number[]) => void>();
    const ready = new Promise<number>((resolve, reject) => {
      viewers?.on(
        'message',
        (message: { type: string; id?: string; times?: number[]; opened?: number }) => {
          if (message.type === 'ready') resolve(message.opened ?? 0);
          if (message.type === 'event' && message.id && message.times) {
            pending.get(message.id)?.(message.times);
          }
        },
      );
      viewers?.on('exit', (code) => reject(new Error(`viewers exited with ${code}`)));
    });
    const opened = await ready;
    const connectSeconds = (Date.now() - connectStarted) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await memory();

    const lastViewer: number[] = [];
    const everyViewer: number[] = [];
    const cpuPerEventMs: number[] = [];
    for (let k = 0; k < EVENTS; k++) {
      const id = `bench-fill-${k}-${Date.now()}`;
      const delivered = new Promise<number[]>((resolve) => pending.set(id, resolve));
      const cpu = process.cpuUsage();
      const publishedAt = now();
      await bus.publish(
        'OrderFilled',
        {
          accountId,
          userId,
          symbol: 'BTC/USDT:USDT',
          owner: { kind: 'bot', id: 1 },
          clientOrderId: `bench-${k}`,
          exchangeOrderId: `bench-${k}`,
          side: k % 2 === 0 ? 'buy' : 'sell',
          amount: 0.01,
          price: 60_000 + k,
          fee: 0.3,
          reduceOnly: k % 2 === 1,
          filledAtMs: Date.now(),
        },
        id,
      );
      const times = await delivered;
      const used = process.cpuUsage(cpu);
      cpuPerEventMs.push((used.user + used.system) / 1000);
      const latencies = times.map((t) => t - publishedAt).sort((a, b) => a - b);
      lastViewer.push(latencies.at(-1) ?? Number.NaN);
      everyViewer.push(...latencies);
      pending.delete(id);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    viewers.send('close');
    lastViewer.sort((a, b) => a - b);
    everyViewer.sort((a, b) => a - b);
    cpuPerEventMs.sort((a, b) => a - b);
    const perViewer = (bytes: number) => `${(bytes / opened / 1024).toFixed(1)} KiB`;
    return [
      `load average at the start: ${loadAtStart}`,
      `${opened.toLocaleString('en')} viewers of one strategy on loopback (connected in ${connectSeconds.toFixed(1)} s), ${EVENTS} trade events ${GAP_MS} ms apart`,
      `  delivery to the LAST viewer:  p50 ${percentile(lastViewer, 50).toFixed(1)} ms  p99 ${percentile(lastViewer, 99).toFixed(1)} ms  (goal p99 ≤ 250 ms)`,
      `  delivery to each viewer:      p50 ${percentile(everyViewer, 50).toFixed(1)} ms  p99 ${percentile(everyViewer, 99).toFixed(1)} ms`,
      `  server CPU per event (user+system, publish → last receipt): p50 ${percentile(cpuPerEventMs, 50).toFixed(1)} ms  p99 ${percentile(cpuPerEventMs, 99).toFixed(1)} ms`,
      `  server memory per idle viewer: heap+buffers ${perViewer(after.heap - before.heap)}, RSS ${perViewer(after.rss - before.rss)}${gc ? '' : ' (no --expose-gc: rough)'}`,
    ];
  } finally {
    viewers?.kill();
    await app.close();
    await bus.close();
    await database.close();
  }
}
