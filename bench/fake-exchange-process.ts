// Child process of the orders bench: the tests' fake Binance USDⓈ-M (real HTTP, answered as the
// venue answers ccxt) with the venue's per-account order rate limit enforced, in a process of its
// own so that answering orders does not share the bench's event loop. Speaks over IPC:
// → {type: 'ready', url}; on {type: 'stats'} → {type: 'stats', orders, lookups, rateLimitRejections, cpuMs}
// (counts since the start).
import { EXCHANGE_CAPABILITIES } from '../packages/server/src/exchange/exchange-capabilities.js';
import { startFakeExchange } from '../packages/server/test/exchange/fake-exchange-private.js';

// The venue's per-account order limit a burst meets first (Binance: 300 orders per 10 s).
const [limit] = [...EXCHANGE_CAPABILITIES.binance.orderRateLimits].sort(
  (a, b) => a.windowMs - b.windowMs,
);
const fake = await startFakeExchange({
  exchange: 'binance',
  tracksPositions: true,
  ...(limit ? { orderRateLimit: limit } : {}),
});

let orders = 0;
let lookups = 0;
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stats') return;
  orders += fake.callsTo('/fapi/v1/order', 'POST').length;
  lookups += fake.calls.length - fake.callsTo('/fapi/v1/order', 'POST').length;
  // Only the counts are read: the calls' details need not pile up over the run.
  fake.calls.length = 0;
  const cpu = process.cpuUsage();
  process.send?.({
    type: 'stats',
    orders,
    lookups,
    rateLimitRejections: fake.state.rateLimitRejections,
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
});
process.on('disconnect', () => {
  void fake.close().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url: fake.url, limit });
