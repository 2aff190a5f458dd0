// The webhook receiver under autocannon (50 connections, 10 s): POST /api/webhook-trading/hook/
// {key}/ with a new alert per request (a unique id each), acknowledged 202 while the signals
// execute in the background on a paper account, against GET /api/health/ in the same run; then
// alert-to-fill latency of a 20 alerts/s burst into one configuration and of sequential alerts
// (the server's receive-to-fill trail).

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { adminQuery } from './bench-support.js';
import { type RunningServer, startServer } from './server-process.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  idReplacement?: boolean;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CONNECTIONS = 50;
const DURATION_S = 10;
const FILL_SAMPLES = 100;
const BURST_RATE = 20;
const BURST_SECONDS = 10;

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);

/**
 * The server(s) under test. BENCH_WEBHOOK_SPLIT=1 (with BENCH_DATABASE_URL): a fresh database,
 * an api process (ROLE=api: it stores and acknowledges) that the load is sent to, and a worker
 * process (ROLE=worker) that executes the signals, sharing PostgreSQL and Redis
 * (BENCH_REDIS_URL, default the local server) — the deployment the README gives for growth.
 */
async function startServers(
  port: number,
): Promise<{ api: RunningServer; label: string; stop(): Promise<void> }> {
  const env = { WEBHOOK_SIGNALS_PER_MINUTE: '1000000' };
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (process.env.BENCH_WEBHOOK_SPLIT !== '1') {
    const api = await startServer(
      port,
      { ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      { apiOnly: true },
    );
    const label = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
    return { api, label: `${label}, one process`, stop: () => api.stop() };
  }
  if (!databaseUrl) throw new Error('BENCH_WEBHOOK_SPLIT=1 needs BENCH_DATABASE_URL');
  const name = `qs_bench_hook_${randomBytes(4).toString('hex')}`;
  await adminQuery(databaseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const shared = {
    ...env,
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  // The api first: it migrates the database before the worker opens it.
  const api = await startServer(port, { ...shared, ROLE: 'api' }, { apiOnly: true });
  const worker = await startServer(port + 1, { ...shared, ROLE: 'worker' }, { apiOnly: true });
  return {
    api,
    label: 'PostgreSQL and Redis, an api and a worker process',
    stop: async () => {
      await Promise.all([api.stop(), worker.stop()]);
      await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function benchWebhook(port: number): Promise<string[]> {
  const servers = await startServers(port);
  const server = servers.api;
  try {
    const base = server.baseUrl;
    const password = 'correct-horse-42';
    const session = await json<{ access: string }>(
      await fetch(`${base}/api/auth/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `bench-${Date.now()}@example.com`,
          password,
          password2: password,
        }),
      }),
    );
    const auth = { authorization: `Bearer ${session.access}`, 'content-type': 'application/json' };
    const account = await json<{ id: number }>(
      await fetch(`${base}/api/auth/apis/`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          name: 'Bench',
          exchange: 'binance',
          is_paper: true,
          default_leverage: 2,
        }),
      }),
    );
    const createConfig = async (name: string) => {
      const config = await json<{ id: number; webhook_url: string }>(
        await fetch(`${base}/api/webhook-trading/configs/`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            name,
            exchange_api: account.id,
            symbol: 'BTC/USDT:USDT',
            default_amount: 10,
            allow_pyramiding: true,
            leverage: 2,
          }),
        }),
      );
      return { id: config.id, url: `${base}${new URL(config.webhook_url).pathname}` };
    };
    const load = await createConfig('Load');

    const lines = [
      `load average at the start: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')}`,
      `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each (${servers.label})`,
    ];
    const health = await autocannon({
      url: `${base}/api/health/`,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    // Alternating buy/close would need state; a new "close" per request is a full signal (parse,
    // validate, dedupe insert, queue, execute: read the position, ignore or close).
    const hook = await autocannon({
      url: load.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"action":"close","id":"bench-[<id>]"}',
      idReplacement: true,
    });
    for (const [name, r] of [
      ['GET /api/health/', health],
      ['POST hook (new alert each, 202)', hook],
    ] as const) {
      lines.push(
        `  ${name.padEnd(34)} ${Math.round(r.requests.average).toLocaleString('en').padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
      );
    }
    lines.push(
      `  hook p99 / health p99: ${(hook.latency.p99 / Math.max(1, health.latency.p99)).toFixed(2)}  (goal: hook ack p99 ≤ 50 ms)`,
    );

    // First the load's queue drains (its signals would otherwise run beside the burst's).
    const drainStarted = performance.now();
    for (;;) {
      const waiting = await json<{ count: number }>(
        await fetch(
          `${base}/api/webhook-trading/signals/?config=${load.id}&status=validated&page_size=1`,
          { headers: auth },
        ),
      );
      if (waiting.count === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    lines.push(
      `  the load's ${hook.requests.total.toLocaleString('en')} signals executed ${((performance.now() - drainStarted) / 1000).toFixed(1)} s after the load ended`,
    );
    // A burst into one configuration: 20 alerts/s for BURST_SECONDS, sent on a fixed schedule
    // (not waiting for answers), each a buy that adds to the position (pyramiding), so that each
    // fills in whatever order concurrent requests arrive. The server's trail gives each signal's
    // receive-to-end time; the acknowledgements are timed here.
    const burst = await createConfig('Burst');
    const ackMs: number[] = [];
    const burstIds: number[] = [];
    const burstStarted = performance.now();
    await Promise.all(
      Array.from({ length: BURST_RATE * BURST_SECONDS }, async (_, i) => {
        const due = burstStarted + (i * 1000) / BURST_RATE;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        const sent = performance.now();
        const posted = await json<{ signal_id: number }>(
          await fetch(burst.url, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ action: 'buy', id: `burst-${i}` }),
          }),
        );
        ackMs.push(performance.now() - sent);
        burstIds.push(posted.signal_id);
      }),
    );
    const burstFillMs: number[] = [];
    for (const id of burstIds) {
      for (;;) {
        const signal = await json<{ status: string; total_latency_ms: number | null }>(
          await fetch(`${base}/api/webhook-trading/signals/${id}/`, { headers: auth }),
        );
        if (signal.status === 'filled') {
          burstFillMs.push(signal.total_latency_ms ?? Number.NaN);
          break;
        }
        if (['failed', 'ignored', 'refused'].includes(signal.status)) {
          throw new Error(`burst signal ${id} ended ${signal.status}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    ackMs.sort((a, b) => a - b);
    burstFillMs.sort((a, b) => a - b);
    lines.push(
      `  ${BURST_RATE} alerts/s into one configuration for ${BURST_SECONDS} s: ack p50 ${percentile(ackMs, 50).toFixed(1)} ms  p99 ${percentile(ackMs, 99).toFixed(1)} ms; alert → fill (server trail) p50 ${percentile(burstFillMs, 50).toFixed(0)} ms  p99 ${percentile(burstFillMs, 99).toFixed(0)} ms  (goal ≤ 250 ms)`,
    );

    // Alert to paper fill, one at a time after the load has drained: buy then close, each filled.
    const fill = await createConfig('Fill');
    const clientMs: number[] = [];
    const serverMs: number[] = [];
    for (let i = 0; i < FILL_SAMPLES; i++) {
      const started = performance.now();
      const posted = await json<{ signal_id: number }>(
        await fetch(fill.url, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ action: i % 2 === 0 ? 'buy' : 'close', id: `fill-${i}` }),
        }),
      );
      for (;;) {
        const signal = await json<{ status: string; total_latency_ms: number | null }>(
          await fetch(`${base}/api/webhook-trading/signals/${posted.signal_id}/`, {
            headers: auth,
          }),
        );
        if (signal.status === 'filled') {
          clientMs.push(performance.now() - started);
          serverMs.push(signal.total_latency_ms ?? Number.NaN);
          break;
        }
        if (['failed', 'ignored', 'refused'].includes(signal.status)) {
          throw new Error(`fill sample ${i} ended ${signal.status}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    clientMs.sort((a, b) => a - b);
    serverMs.sort((a, b) => a - b);
    lines.push(
      `  alert → paper fill (${FILL_SAMPLES} sequential): server trail p50 ${percentile(serverMs, 50).toFixed(0)} ms  p99 ${percentile(serverMs, 99).toFixed(0)} ms; client-observed (incl. polling) p50 ${percentile(clientMs, 50).toFixed(1)} ms  p99 ${percentile(clientMs, 99).toFixed(1)} ms`,
    );
    return lines;
  } finally {
    await servers.stop();
  }
}
