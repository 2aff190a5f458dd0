// The square's live_delta sort, its "honest" tag and the strategy page's live-vs-backtest, from
// the bots' hourly comparisons: a published paper account whose bot ran 15 days of hourly
// candles on the simulated feed, and one whose bot has just started.

import {
  HONEST_MAX_ABS_DELTA_PCT,
  HONEST_MIN_LIVE_DAYS,
  type StrategyDetail,
  type StrategyListResponse,
} from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/common/secret-box.js';
import { botLiveComparisons } from '../../src/db/schema/index.js';
import { createExecutionRepository } from '../../src/execution/execution.repository.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { toOwnerPosition } from '../../src/execution/settlement.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { createBotsRepository } from '../../src/modules/bots/bots.repository.js';
import { createLiveChecks } from '../../src/modules/bots/live-checks.js';
import { createMetricsRepository } from '../../src/modules/square/metrics.repository.js';
import type { BotEngine } from '../../src/workers/bot-engine/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { createBot, createPaperAccount, grantVip } from '../helpers/bot-flows.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

let engine: BotEngine | undefined;
let feed: MarketFeed | undefined;
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: ({ database, clock, config, marketFeed }) => {
    feed = marketFeed;
    engine = createBotEngineWithCore({
      db: database.db,
      clock,
      feed: marketFeed,
      pollIntervalMs: 3_600_000,
      clients: createAccountClientCache({
        secretBox: createSecretBox(TEST_SECRET_KEY),
        factory: testClientFactory({ config, db: database.db, clock, marketFeed }),
      }),
    });
    return engine;
  },
});

/** The bots module's hourly pass, built as composition.ts builds it, on the app's database. */
function liveChecksPass() {
  const db = ctx.database.db;
  const execution = createExecutionRepository(db);
  return createLiveChecks({
    repo: createBotsRepository(db),
    positions: {
      openPositionsOf: async (owners) =>
        (await execution.openPositionsOf(owners)).map(toOwnerPosition),
    },
    feed: feed!,
    clock: ctx.clock,
    slippageBps: ctx.config.paperSlippageBps,
    publish: (checks) => createMetricsRepository(db).applyLiveChecks(checks),
  });
}

/** A VIP user's published paper account with a running hourly bot; answers tokens and ids. */
async function publishedBot(name: string, symbol: string) {
  const session = await registerEmail(ctx.app, uniqueEmail(name.replace(' ', '').toLowerCase()));
  await grantVip(ctx.database, ctx.clock, Number(session.user.id), 60);
  const token = session.access;
  const accountId = await createPaperAccount(ctx.app, token, { default_leverage: 2 });
  const shared = await call(
    ctx.app,
    'PUT',
    `/api/strategy-square/accounts/${accountId}/share-settings/`,
    { token, body: { is_public: true, name } },
  );
  expect(shared.status).toBe(200);
  const botId = await createBot(ctx.app, token, accountId, {
    symbol,
    timeframe: '1h',
    trade_amount: 1000,
    stop_loss_percentage: null,
    take_profit_percentage: null,
  });
  const started = await call(ctx.app, 'POST', `/api/trading/bots/${botId}/start/`, { token });
  expect(started.status).toBe(200);
  return { accountId, botId };
}

const list = async (query: string) =>
  (await call<StrategyListResponse>(ctx.app, 'GET', `/api/strategy-square/strategies/?${query}`))
    .body;

describe('live against backtest in the strategy square', () => {
  it('sorts by the smallest delta, tags honest strategies and shows the check on the page', async () => {
    const veteran = await publishedBot('Veteran bot', 'ETH/USDT:USDT');
    // 15 days of hourly candles, each polled right after its close.
    for (let hour = 0; hour < (HONEST_MIN_LIVE_DAYS + 1) * 24; hour++) {
      ctx.clock.advanceSeconds(3600);
      await engine!.tick();
    }
    const newcomer = await publishedBot('Newcomer bot', 'BTC/USDT:USDT');
    ctx.clock.advanceSeconds(3 * 3600);
    await engine!.tick();

    const compared = await liveChecksPass().refreshAll();
    expect(compared).toBe(2);

    // Sorted by |delta|, smallest first; both have one (strategies without any sort last).
    const sorted = await list('sort=live_delta&period=total');
    const ours = sorted.results.filter((card) =>
      [veteran.accountId, newcomer.accountId].includes(card.id),
    );
    expect(ours).toHaveLength(2);
    const deltas = sorted.results
      .map((card) => card.live_check?.delta_pct)
      .filter((d) => d !== undefined);
    expect(deltas.map(Math.abs)).toEqual([...deltas.map(Math.abs)].sort((a, b) => a - b));

    const veteranCard = ours.find((card) => card.id === veteran.accountId)!;
    expect(veteranCard.live_check?.live_days).toBeGreaterThanOrEqual(HONEST_MIN_LIVE_DAYS);
    // A paper bot on the simulated feed makes the backtest's trades: its delta is fills only.
    expect(Math.abs(veteranCard.live_check!.delta_pct)).toBeLessThanOrEqual(
      HONEST_MAX_ABS_DELTA_PCT,
    );
    expect(veteranCard.live_check?.is_honest).toBe(true);
    const newcomerCard = ours.find((card) => card.id === newcomer.accountId)!;
    expect(newcomerCard.live_check?.is_honest).toBe(false);

    // The honest tag: only strategies live long enough and close to their backtest.
    const honest = await list('sort=live_delta&period=total&honest=true');
    expect(honest.results.map((card) => card.id)).toEqual([veteran.accountId]);
    expect(honest.count).toBe(1);

    // The strategy page shows the account's bots against their backtests, with both curves.
    const detail = await call<StrategyDetail>(
      ctx.app,
      'GET',
      `/api/strategy-square/strategies/${veteran.accountId}/`,
    );
    expect(detail.status).toBe(200);
    const check = detail.body.live_vs_backtest;
    expect(check?.live_days).toBeGreaterThanOrEqual(HONEST_MIN_LIVE_DAYS);
    expect(check?.delta_pct).toBeCloseTo(veteranCard.live_check!.delta_pct, 3);
    expect(check?.bots).toHaveLength(1);
    const bot = check!.bots[0]!;
    expect(bot).toMatchObject({ symbol: 'ETH/USDT:USDT', timeframe: '1h', missed: 0, extra: 0 });
    expect(bot.matched).toBeGreaterThan(0);
    expect(bot.live_curve.length).toBeGreaterThan(HONEST_MIN_LIVE_DAYS * 24);
    expect(bot.backtest_curve.map((p) => p.time)).toEqual(bot.live_curve.map((p) => p.time));

    // A comparison stored before prices were decimal strings (numbers in its answer) still
    // shows the same page: the page reads no price of it.
    const db = ctx.database.db;
    const byBot = eq(botLiveComparisons.botId, veteran.botId);
    const [stored] = await db.select().from(botLiveComparisons).where(byBot);
    const legacy = JSON.parse(JSON.stringify(stored!.answer), (key, value) =>
      (key === 'entry_price' || key === 'exit_price') && typeof value === 'string'
        ? Number(value)
        : value,
    );
    expect(legacy.matched_trades[0].live.entry_price).toEqual(expect.any(Number));
    await db.update(botLiveComparisons).set({ answer: legacy }).where(byBot);
    const again = await call<StrategyDetail>(
      ctx.app,
      'GET',
      `/api/strategy-square/strategies/${veteran.accountId}/`,
    );
    expect(again.status).toBe(200);
    expect(again.body.live_vs_backtest).toEqual(check);

    // A bad filter value is a 400 with a code, not a 5xx.
    const bad = await call<{ code: string }>(
      ctx.app,
      'GET',
      '/api/strategy-square/strategies/?honest=yes',
    );
    expect(bad.status).toBe(400);
  }, 240_000);
});
