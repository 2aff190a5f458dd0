// GET /api/trading/market-data/ for 1000 candles under autocannon (50 connections, 10 s),
// against GET /api/health/ on the same server in the same run.
import { createRequire } from 'node:module';
import type { RunningServer } from './server-process.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CONNECTIONS = 50;
const DURATION_S = 10;

export async function benchHttp(server: RunningServer): Promise<string[]> {
  const marketData = `${server.baseUrl}/api/trading/market-data/?symbol=BTC/USDT:USDT&timeframe=1h&limit=1000&exchange=binance`;
  const health = `${server.baseUrl}/api/health/`;
  const warm = await fetch(marketData);
  const body = (await warm.json()) as { candles?: unknown[] };
  if (!warm.ok || body.candles?.length !== 1000) {
    return [
      `market-data answered ${warm.status} with ${body.candles?.length ?? 0} candles: skipped`,
    ];
  }
  const lines = [`autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each`];
  const rows: [string, string][] = [
    ['GET /api/health/', health],
    ['GET /api/trading/market-data/ (1000 candles)', marketData],
  ];
  const results: AutocannonResult[] = [];
  for (const [name, url] of rows) {
    const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
    results.push(result);
    lines.push(
      `  ${name.padEnd(46)} ${Math.round(result.requests.average).toLocaleString('en').padStart(7)} req/s  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
    );
  }
  const [h, m] = results;
  if (h && m) {
    lines.push(
      `  market-data / health throughput: ${(m.requests.average / h.requests.average).toFixed(2)}`,
    );
  }
  return lines;
}
