// `npm run bench [section]`: prints the performance figures the issues name, each against a peer
// measured in the same run where one exists. A measurement, never a test: nothing asserts times.
import { benchBots } from './bots.bench.js';
import { benchCopy } from './copy.bench.js';
import { benchCopySimulation } from './copy-simulation.bench.js';
import { benchDashboardSize } from './dashboard-size.bench.js';
import { benchEngine } from './engine.bench.js';
import { benchHttp } from './http.bench.js';
import { benchOptimise } from './optimise.bench.js';
import { benchOrders } from './orders.bench.js';
import { benchOrdersProcesses } from './orders-processes.bench.js';
import { type RunningServer, startServer } from './server-process.js';
import { benchSquare } from './square.bench.js';
import { benchSquareWs } from './square-ws.bench.js';
import { benchVenueRequests } from './venue-requests.bench.js';
import { benchWallet } from './wallet.bench.js';
import { benchWebhook } from './webhook.bench.js';

// `dashboard-size` is the dashboard section's other name (its file's).
const only = process.argv[2] === 'dashboard-size' ? 'dashboard' : process.argv[2];
const wants = (name: string) => !only || only === name;

function print(title: string, lines: string[]) {
  process.stdout.write(`\n== ${title} ==\n${lines.join('\n')}\n`);
}

if (wants('engine')) print('engine', benchEngine().lines);
if (wants('bots')) print('bots', await benchBots());
if (wants('wallet')) print('wallet', await benchWallet());
if (wants('orders')) print('orders', await benchOrders());
if (wants('orders-processes')) print('orders-processes', await benchOrdersProcesses());
if (wants('venue-requests')) print('venue-requests', await benchVenueRequests());
if (wants('copy')) print('copy', await benchCopy());
if (wants('copy-simulation')) print('copy-simulation', await benchCopySimulation());
if (wants('optimise')) print('optimise', await benchOptimise());

if (wants('http') || wants('dashboard')) {
  const server: RunningServer = await startServer(Number(process.env.BENCH_PORT ?? 8400));
  try {
    if (wants('http')) print('http', await benchHttp(server));
    if (wants('dashboard')) print('dashboard', await benchDashboardSize(server));
  } finally {
    await server.stop();
  }
}

if (wants('square')) {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  print('square', await benchSquare(Number(process.env.BENCH_PORT ?? 8400) + 1, log));
}

if (wants('square-ws')) {
  print('square-ws', await benchSquareWs(Number(process.env.BENCH_PORT ?? 8400) + 2));
}

if (wants('webhook')) {
  print('webhook', await benchWebhook(Number(process.env.BENCH_PORT ?? 8400) + 3));
}
