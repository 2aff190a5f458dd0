// Bot engine figures: (1) CPU time from a candle close to every bot's decision for 10,000 paper
// bots on 100 feeds (strategy evaluation + decision, no order I/O: the engine's own decision
// functions, as the runner calls them per feed group); (2) orders/s the engine submits to the
// local ccxt fake exchange (intent row, send, settle, position — the whole order path, PGlite in
// memory). A measurement, never a test.
import { PGlite } from '@electric-sql/pglite';
import { type CandleRow, candlesFromRows, compileStrategyOrThrow } from '@quantsquare/engine';
import { ManualClock } from '../packages/server/src/common/clock.js';
import { createSecretBox } from '../packages/server/src/common/secret-box.js';
import { openPglite } from '../packages/server/src/db/client.js';
import { createCcxtExchangeClient } from '../packages/server/src/exchange/ccxt/index.js';
import { createExchangeClientFactory } from '../packages/server/src/exchange/exchange-client-factory.js';
import { feedPriceSource } from '../packages/server/src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../packages/server/src/execution/index.js';
import { createMemoryFundingRatesRepository } from '../packages/server/src/market/funding-rates.repository.js';
import { createMarketFeed } from '../packages/server/src/market/market-feed.js';
import { writePaperBalances } from '../packages/server/src/modules/accounts/account-records.service.js';
import {
  type BotStrategy,
  decide,
  latestSignal,
  type SignalMemo,
} from '../packages/server/src/workers/bot-engine/index.js';
import { seedLiveBots } from '../packages/server/test/bot-engine/live-bots.fixture.js';
import { startFakeExchange } from '../packages/server/test/exchange/fake-exchange-private.js';
import { createBotEngineWithCore } from '../packages/server/test/helpers/bot-engine-with-core.js';

const FEEDS = 100;
const BOTS_PER_FEED = 100;
const CANDLES = 500;
const ORDER_BOTS = 200;
const ORDER_BUDGET_MS = Number(process.env.BENCH_BOTS_ORDER_BUDGET_MS ?? 10_000);

const STRATEGIES: readonly BotStrategy[] = [
  { strategyType: 'ma_cross', strategyParameters: { fast_period: 7, slow_period: 25 } },
  { strategyType: 'ma_cross', strategyParameters: { fast_period: 5, slow_period: 20 } },
  { strategyType: 'ema_cross', strategyParameters: { fast_period: 12, slow_period: 26 } },
  {
    strategyType: 'rsi_reversion',
    strategyParameters: { period: 14, oversold: 30, overbought: 70 },
  },
  {
    strategyType: 'macd_cross',
    strategyParameters: { fast_period: 12, slow_period: 26, signal_period: 9 },
  },
  { strategyType: 'bollinger_breakout', strategyParameters: { period: 20, std_dev: 2 } },
];

/** A seeded random walk per feed (what a feed read hands the engine: closed candle rows). */
function feedRows(seed: number): CandleRow[] {
  let state = seed * 7919 + 1;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const rows: CandleRow[] = [];
  let price = 100 + seed;
  for (let i = 0; i < CANDLES; i++) {
    const open = price;
    price *= 1 + (random() - 0.5) * 0.01;
    rows.push({
      timestamp: i * 60_000,
      open,
      high: Math.max(open, price) * 1.001,
      low: Math.min(open, price) * 0.999,
      close: price,
      volume: 1,
    });
  }
  return rows;
}

const COMPILED = STRATEGIES.map((s) =>
  compileStrategyOrThrow(s.strategyType, s.strategyParameters),
);

function decisionPhaseMs(feeds: CandleRow[][], share: boolean): { ms: number; intents: number } {
  let intents = 0;
  const started = process.cpuUsage();
  for (const rows of feeds) {
    const candles = candlesFromRows(rows);
    const memo: SignalMemo | undefined = share ? new Map() : undefined;
    for (let b = 0; b < BOTS_PER_FEED; b++) {
      const signal = latestSignal(candles, COMPILED[b % COMPILED.length]!, memo);
      intents += decide(
        signal,
        b % 3 === 0 ? { side: 'long', stopLoss: null, takeProfit: null } : null,
      ).length;
    }
  }
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000, intents };
}

async function ordersPerSecond(): Promise<string[]> {
  const fake = await startFakeExchange({ exchange: 'binance' });
  const handle = await openPglite(await PGlite.create(), { migrate: true });
  try {
    const db = handle.db;
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 8, 0, 0));
    const feed = createMarketFeed({
      mode: 'simulated',
      clock,
      fundingRates: createMemoryFundingRatesRepository(),
    });
    const secretBox = createSecretBox('bench-secret-key-0123456789-abcdefghijkl');
    const clients = createAccountClientCache({
      secretBox,
      factory: createExchangeClientFactory({
        paperBalances: writePaperBalances,
        db,
        clock,
        prices: feedPriceSource(feed),
        paperSlippageBps: 2,
        createLiveClient: (options) =>
          createCcxtExchangeClient({ ...options, urlsOverride: fake.url, timeoutMs: 2000 }),
      }),
    });
    await seedLiveBots(db, secretBox, clock, {
      count: ORDER_BOTS,
      label: 'bench',
      parameters: { fast_period: 3, slow_period: 8 },
    });
    const engine = createBotEngineWithCore({ db, clock, feed, clients, pollIntervalMs: 3_600_000 });
    await engine.start();
    const orderCalls = () => fake.callsTo('/fapi/v1/order', 'POST').length;
    let orders = 0;
    let busyMs = 0;
    const deadline = Date.now() + ORDER_BUDGET_MS;
    while (Date.now() < deadline && orders < ORDER_BOTS * 3) {
      // Timers run between ticks (the engine renews its bots' leases on one: a loop that never
      // yields lets them lapse, and the bots then stand still).
      await new Promise((resolve) => setTimeout(resolve, 0));
      clock.advanceSeconds(60);
      const before = orderCalls();
      const started = performance.now();
      await engine.tick();
      const sent = orderCalls() - before;
      if (sent > 0) {
        orders += sent;
        busyMs += performance.now() - started;
      }
    }
    await engine.stop();
    return [
      `orders to the local ccxt fake (${ORDER_BOTS} live bots on one feed, intent + send + settle on PGlite in memory)`,
      `  ${orders} orders in ${busyMs.toFixed(0)} ms of order ticks: ${busyMs > 0 ? ((orders / busyMs) * 1000).toFixed(0) : 0} orders/s`,
    ];
  } finally {
    await handle.close();
    await fake.close();
  }
}

export async function benchBots(): Promise<string[]> {
  const feeds = Array.from({ length: FEEDS }, (_, i) => feedRows(i));
  decisionPhaseMs(feeds, true); // warm-up (JIT)
  const shared = [0, 0, 0, 0, 0].map(() => decisionPhaseMs(feeds, true));
  const alone = decisionPhaseMs(feeds, false);
  const best = shared.reduce((a, b) => (a.ms < b.ms ? a : b));
  return [
    `decision phase, ${FEEDS * BOTS_PER_FEED} paper bots on ${FEEDS} feeds × ${CANDLES} candles (${STRATEGIES.length} strategy settings), CPU time`,
    `  one evaluation per (feed, strategy, parameters), as the engine runs: ${best.ms.toFixed(1)} ms  (goal ≤ 10 ms; ${best.intents} intents)`,
    `  every bot evaluating on its own (no sharing):                    ${alone.ms.toFixed(1)} ms`,
    ...(await ordersPerSecond()),
  ];
}
