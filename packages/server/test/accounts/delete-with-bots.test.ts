import { testPaperClient } from '../helpers/paper-client.js';
// Deleting an exchange API that has bots (issue 8, item 2), on the real bot engine, a paper
// account and the simulated feed.

import type { ExchangeApi, OperationLogList } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/common/secret-box.js';
import { bots, exchangeAccounts } from '../../src/db/schema/index.js';
import { feedPriceSource } from '../../src/exchange/paper/price-source.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import type { MarketFeed } from '../../src/market/market.types.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { createOperationLogRepository } from '../../src/modules/operation-log/operation-log.repository.js';
import { createOperationLog } from '../../src/modules/operation-log/operation-log.service.js';
import type { BotEngine } from '../../src/workers/bot-engine/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import {
  BOT_SYMBOL,
  createBot,
  createPaperAccount,
  grantVip,
  insertBotPosition,
} from '../helpers/bot-flows.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

let engine: BotEngine | undefined;
let feed: MarketFeed | undefined;
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: ({ database, clock, config, marketFeed }) => {
    feed = marketFeed;
    const operationLog = createOperationLog({
      repo: createOperationLogRepository(database.db),
      clock,
    });
    engine = createBotEngineWithCore({
      db: database.db,
      clock,
      feed: marketFeed,
      clients: createAccountClientCache({
        secretBox: createSecretBox(TEST_SECRET_KEY),
        factory: testClientFactory({ config, db: database.db, clock, marketFeed }),
      }),
      writeLog: (entry) => operationLog.record(entry),
    });
    return engine;
  },
});

async function user() {
  const session = await registerEmail(ctx.app, uniqueEmail('apidel'));
  await grantVip(ctx.database, ctx.clock, Number(session.user.id));
  return session.access;
}

function paperClient(accountId: number) {
  if (!feed) throw new Error('no feed');
  return testPaperClient({
    paperBalances: writePaperBalances,
    db: ctx.database.db,
    clock: ctx.clock,
    prices: feedPriceSource(feed),
    accountId,
    exchange: 'binance',
    slippageBps: 0,
  });
}

/** A bot that is not running but holds a position: open on the paper account and on the bot. */
async function stoppedBotHoldingPosition(token: string, accountId: number): Promise<number> {
  const botId = await createBot(ctx.app, token, accountId);
  const order = await paperClient(accountId).createOrder({
    symbol: BOT_SYMBOL,
    side: 'buy',
    type: 'market',
    amount: 0.01,
    clientOrderId: `test-open-${botId}`,
    positionSide: 'long',
  });
  await insertBotPosition(ctx.database, ctx.clock, {
    botId,
    side: 'long',
    amount: '0.01',
    entryPrice: String(order.averagePrice),
  });
  await ctx.database.db.update(bots).set({ status: 'stopped' }).where(eq(bots.id, botId));
  return botId;
}

const accountRows = (id: number) =>
  ctx.database.db.select().from(exchangeAccounts).where(eq(exchangeAccounts.id, id));

describe('DELETE /api/auth/apis/{id}/ with bots', () => {
  it('lists the bots of an account for the confirmation', async () => {
    const token = await user();
    const accountId = await createPaperAccount(ctx.app, token);
    const botId = await createBot(ctx.app, token, accountId);
    const res = await call<ExchangeApi>(ctx.app, 'GET', `/api/auth/apis/${accountId}/`, { token });
    expect(res.body.bots).toEqual([
      { id: botId, symbol: BOT_SYMBOL, status: 'created', has_open_position: false },
    ]);
    const list = await call<{ results: ExchangeApi[] }>(ctx.app, 'GET', '/api/auth/apis/', {
      token,
    });
    expect(list.body.results.find((a) => a.id === accountId)?.bots).toHaveLength(1);
  });

  it("refuses while a bot runs, with the bot's own rule and message, and keeps everything", async () => {
    const token = await user();
    const accountId = await createPaperAccount(ctx.app, token);
    const botId = await createBot(ctx.app, token, accountId);
    expect(
      (await call(ctx.app, 'POST', `/api/trading/bots/${botId}/start/`, { token })).status,
    ).toBe(200);
    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Please stop the bot before deleting',
      code: 'bot_running',
      running_bots: [{ id: botId, symbol: BOT_SYMBOL }],
    });
    expect(await accountRows(accountId)).toHaveLength(1);
    expect(engine?.runningBotIds()).toContain(botId);
    await call(ctx.app, 'POST', `/api/trading/bots/${botId}/stop/`, { token });
  });

  it("closes a stopped bot's position through the engine, logs each step, then deletes all", async () => {
    const token = await user();
    const accountId = await createPaperAccount(ctx.app, token);
    const holding = await stoppedBotHoldingPosition(token, accountId);
    const idle = await createBot(ctx.app, token, accountId, { symbol: 'ETH/USDT:USDT' });
    expect((await paperClient(accountId).fetchPositions([BOT_SYMBOL])).length).toBe(1);

    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'API deleted',
      deleted_bots: [
        { id: holding, symbol: BOT_SYMBOL },
        { id: idle, symbol: 'ETH/USDT:USDT' },
      ],
      closed_positions: [{ bot_id: holding, symbol: BOT_SYMBOL }],
    });
    expect(await accountRows(accountId)).toEqual([]);
    expect(
      await ctx.database.db.select().from(bots).where(eq(bots.exchangeAccountId, accountId)),
    ).toEqual([]);

    const logs = await call<OperationLogList>(ctx.app, 'GET', '/api/trading/logs/?page_size=20', {
      token,
    });
    const events = logs.body.results.map((entry) => [
      entry.event,
      entry.details.bot_id ?? null,
      entry.bot_symbol,
    ]);
    // Newest first: the API, each bot, then the engine's close of the held position (the
    // deleted bot's entries keep its symbol).
    expect(events.slice(0, 5)).toEqual([
      ['api_deleted', null, null],
      ['bot_deleted', idle, 'ETH/USDT:USDT'],
      ['bot_deleted', holding, BOT_SYMBOL],
      ['trade_closed', null, BOT_SYMBOL],
      ['position_closing', null, BOT_SYMBOL],
    ]);
    const closing = logs.body.results.find((entry) => entry.event === 'position_closing');
    expect(closing?.details).toMatchObject({ reason: 'manual', side: 'long' });
    expect(logs.body.results[0]?.details).toMatchObject({ deleted_bots: [holding, idle] });
  });

  it('deletes nothing when a position cannot be closed, and says why', async () => {
    const token = await user();
    const accountId = await createPaperAccount(ctx.app, token);
    const botId = await createBot(ctx.app, token, accountId);
    // The bot believes it holds a position the account does not have: the close is refused.
    await insertBotPosition(ctx.database, ctx.clock, {
      botId,
      side: 'short',
      amount: '0.5',
      entryPrice: '1000',
    });
    await ctx.database.db.update(bots).set({ status: 'stopped' }).where(eq(bots.id, botId));

    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'position_close_failed',
      error: expect.stringContaining(BOT_SYMBOL),
      error_kind: expect.any(String),
    });
    expect(await accountRows(accountId)).toHaveLength(1);
    const [bot] = await ctx.database.db.select().from(bots).where(eq(bots.id, botId));
    expect(bot?.status).toBe('error');
  });

  it("answers another user's account as not found and deletes nothing", async () => {
    const owner = await user();
    const accountId = await createPaperAccount(ctx.app, owner);
    await createBot(ctx.app, owner, accountId);
    const stranger = await user();
    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token: stranger });
    expect(res.status).toBe(404);
    expect(await accountRows(accountId)).toHaveLength(1);
  });
});
