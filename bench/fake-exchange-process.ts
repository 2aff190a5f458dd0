// Child process of the order benches: the tests' fake Binance USDⓈ-M or OKX (FAKE_VENUE; real
// HTTP, answered as the venue answers) with the venue's per-account order rate limit enforced
// (unless FAKE_ORDER_RATE_LIMIT=off), in a process of its own so that answering orders does not
// share the bench's event loop. Speaks over IPC:
// → {type: 'ready', url}; on {type: 'stats'} → {type: 'stats', orders, lookups, rateLimitRejections, cpuMs}
// (counts since the start).
import { EXCHANGE_CAPABILITIES } from '../packages/server/src/exchange/exchange-capabilities.js';
import { startFakeExchange } from '../packages/server/test/exchange/fake-exchange-private.js';

// The venue's per-account order limit a burst meets first (Binance: 300 orders per 10 s).
const venue = process.env.FAKE_VENUE === 'okx' ? 'okx' : 'binance';
const [limit] = [...EXCHANGE_CAPABILITIES[venue].orderRateLimits].sort(
  (a, b) => a.windowMs - b.windowMs,
);
const isLimited = process.env.FAKE_ORDER_RATE_LIMIT !== 'off';
const orderPath = venue === 'okx' ? '/api/v5/trade/order' : '/fapi/v1/order';
const fake = await startFakeExchange({
  exchange: venue,
  tracksPositions: true,
  ...(limit && isLimited ? { orderRateLimit: limit } : {}),
});

let orders = 0;
let lookups = 0;
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stats') return;
  const created = fake.callsTo(orderPath, 'POST').length;
  orders += created;
  lookups += fake.calls.length - created;
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
