// Start, stop and delete with a recording BotControl standing in for the bot engine: these
// tests check the API's rules and statuses, not trading (the engine has its own tests).
import { BOT_MESSAGES, type Bot, type BotActionResponse } from '@quantsquare/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bots } from '../../src/db/schema/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import {
  createBot,
  createPaperAccount,
  grantVip,
  insertBotPosition,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const control = new RecordingBotControl();
const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' }, botControl: () => control });

let vipToken: string;
let plainToken: string;
let vipAccount: number;
let plainAccount: number;
let symbolCounter = 0;
const symbols = [
  'BTC/USDT:USDT',
  'ETH/USDT:USDT',
  'DOGE/USDT:USDT',
  'SOL/USDT:USDT',
  'XRP/USDT:USDT',
];

beforeAll(async () => {
  const vip = await registerEmail(ctx.app, uniqueEmail('vip'));
  vipToken = vip.access;
  await grantVip(ctx.database, ctx.clock, Number(vip.user.id));
  vipAccount = await createPaperAccount(ctx.app, vipToken);
  plainToken = (await registerEmail(ctx.app, uniqueEmail('plain'))).access;
  plainAccount = await createPaperAccount(ctx.app, plainToken);
});

beforeEach(() => {
  control.calls.length = 0;
});

/** A fresh VIP bot on a symbol not used before (a new account once the symbols run out). */
async function vipBot(): Promise<number> {
  const symbol = symbols[symbolCounter % symbols.length];
  symbolCounter += 1;
  const account =
    symbolCounter <= symbols.length
      ? vipAccount
      : await createPaperAccount(ctx.app, vipToken, { name: `Paper ${symbolCounter}` });
  return createBot(ctx.app, vipToken, account, { symbol });
}

const post = (id: number, action: string, token = vipToken) =>
  call<BotActionResponse & { error?: string; code?: string; fields?: Record<string, string[]> }>(
    ctx.app,
    'POST',
    `/api/trading/bots/${id}/${action}/`,
    { token },
  );

describe('starting a bot', () => {
  it('refuses a user without active VIP with 403 and never reaches the engine', async () => {
    const id = await createBot(ctx.app, plainToken, plainAccount);
    const res = await post(id, 'start', plainToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: BOT_MESSAGES.vipRequired, code: 'vip_required' });
    expect(control.calls).toEqual([]);
    const list = await call<{ results: Bot[] }>(ctx.app, 'GET', '/api/trading/bots/', {
      token: plainToken,
    });
    expect(list.body.results[0]?.can_start).toBe(false);
    expect(list.body.results[0]?.status).toBe('created');
  });

  it('refuses a user whose VIP has expired', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('expired'));
    // VIP that ended a day ago.
    await grantVip(ctx.database, ctx.clock, Number(session.user.id), -1);
    const account = await createPaperAccount(ctx.app, session.access);
    const id = await createBot(ctx.app, session.access, account);
    expect((await post(id, 'start', session.access)).status).toBe(403);
  });

  it('starts a VIP user’s bot: status running, then the engine joins it', async () => {
    const id = await vipBot();
    const res = await post(id, 'start');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Bot started successfully');
    expect(res.body.bot?.status).toBe('running');
    expect(res.body.bot?.can_start).toBe(true);
    expect(control.calls).toEqual([{ action: 'start', botId: id }]);
  });

  it('answers success without calling the engine again for a running bot', async () => {
    const id = await vipBot();
    await post(id, 'start');
    const again = await post(id, 'start');
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Bot is already running');
    expect(again.body.bot?.status).toBe('running');
    expect(control.calls).toEqual([{ action: 'start', botId: id }]);
  });

  it('marks the bot error with the engine’s message and answers 400 when the engine fails', async () => {
    const id = await vipBot();
    control.failNextStart = 'Insufficient balance';
    const res = await post(id, 'start');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Insufficient balance');
    const bot = await call<Bot>(ctx.app, 'GET', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(bot.body.status).toBe('error');
    expect(bot.body.last_error).toBe('Insufficient balance');
    expect(bot.body.last_error_at).toBe(ctx.clock.now().toISOString());
  });

  it('answers 400 when the engine records a failure itself instead of throwing', async () => {
    const id = await vipBot();
    control.duringNextStart = async (botId) => {
      await ctx.database.db
        .update(bots)
        .set({ status: 'error', lastError: 'No candles yet', lastErrorAt: ctx.clock.now() })
        .where(eq(bots.id, botId));
    };
    const res = await post(id, 'start');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('No candles yet');
  });

  it('restarts a bot in error through start, clearing its last error', async () => {
    const id = await vipBot();
    control.failNextStart = 'Exchange unavailable';
    await post(id, 'start');
    const res = await post(id, 'start');
    expect(res.status).toBe(200);
    expect(res.body.bot?.status).toBe('running');
    expect(res.body.bot?.last_error).toBeNull();
  });

  it('refuses to start a bot whose account was made inactive', async () => {
    const account = await createPaperAccount(ctx.app, vipToken, { name: 'Later off' });
    const id = await createBot(ctx.app, vipToken, account);
    await call(ctx.app, 'PATCH', `/api/auth/apis/${account}/`, {
      token: vipToken,
      body: { is_active: false },
    });
    const res = await post(id, 'start');
    expect(res.status).toBe(400);
    expect(res.body.fields?.exchange_api).toEqual(['Exchange account is inactive']);
    expect(control.calls).toEqual([]);
  });
});

describe('stopping a bot', () => {
  it('stops a running bot through the engine: status stopped', async () => {
    const id = await vipBot();
    await post(id, 'start');
    const res = await post(id, 'stop');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Bot stopped successfully');
    expect(res.body.bot?.status).toBe('stopped');
    expect(control.calls).toEqual([
      { action: 'start', botId: id },
      { action: 'stop', botId: id },
    ]);
  });

  it('answers success without the engine for a bot that is not running', async () => {
    const id = await vipBot();
    const res = await post(id, 'stop');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Bot is not running');
    expect(res.body.bot?.status).toBe('created');
    expect(control.calls).toEqual([]);
  });

  it('starts a stopped bot again', async () => {
    const id = await vipBot();
    await post(id, 'start');
    await post(id, 'stop');
    const res = await post(id, 'start');
    expect(res.body.bot?.status).toBe('running');
  });

  it('marks the bot error and answers 400 when the engine cannot stop it', async () => {
    const id = await vipBot();
    await post(id, 'start');
    control.failNextStop = 'Close order rejected';
    const res = await post(id, 'stop');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Close order rejected');
    const bot = await call<Bot>(ctx.app, 'GET', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(bot.body.status).toBe('error');
  });
});

describe('the generic action route', () => {
  it('refuses an unknown action with a field error on action', async () => {
    const id = await vipBot();
    for (const action of ['pause', 'delete', 'START']) {
      const res = await post(id, action);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields ?? {})).toContain('action');
    }
  });

  it('restarts a running bot: the engine stops it, then starts it again', async () => {
    const id = await vipBot();
    await post(id, 'start');
    const res = await post(id, 'restart');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Bot restarted successfully');
    expect(res.body.bot?.status).toBe('running');
    expect(control.calls).toEqual([
      { action: 'start', botId: id },
      { action: 'stop', botId: id },
      { action: 'start', botId: id },
    ]);
  });

  it('restarts a bot in error by starting it (nothing to stop)', async () => {
    const id = await vipBot();
    control.failNextStart = 'Exchange unavailable';
    await post(id, 'start');
    control.calls.length = 0;
    const res = await post(id, 'restart');
    expect(res.status).toBe(200);
    expect(res.body.bot?.status).toBe('running');
    expect(res.body.bot?.last_error).toBeNull();
    expect(control.calls).toEqual([{ action: 'start', botId: id }]);
  });

  it('never stops a running bot that could not start again', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('lapsing'));
    const userId = Number(session.user.id);
    await grantVip(ctx.database, ctx.clock, userId);
    const account = await createPaperAccount(ctx.app, session.access);
    const id = await createBot(ctx.app, session.access, account);
    expect((await post(id, 'start', session.access)).status).toBe(200);
    // The VIP lapses while the bot runs.
    await grantVip(ctx.database, ctx.clock, userId, -1);
    const res = await post(id, 'restart', session.access);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: BOT_MESSAGES.vipRequired, code: 'vip_required' });
    const bot = await call<Bot>(ctx.app, 'GET', `/api/trading/bots/${id}/`, {
      token: session.access,
    });
    expect(bot.body.status).toBe('running');
    expect(control.calls).toEqual([{ action: 'start', botId: id }]);
  });

  it('refuses a bot id that is not a number with 400', async () => {
    expect((await post(Number.NaN, 'start')).status).toBe(400);
  });

  it('answers 404 for a bot that does not exist', async () => {
    expect((await post(2_000_000, 'start')).status).toBe(404);
  });
});

describe('deleting a bot', () => {
  it('refuses to delete a running bot', async () => {
    const id = await vipBot();
    await post(id, 'start');
    const res = await call(ctx.app, 'DELETE', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(BOT_MESSAGES.stopBeforeDelete);
  });

  it('asks the engine to close the position of a bot in error before deleting it, and keeps the bot when that fails', async () => {
    const id = await vipBot();
    await ctx.database.db.update(bots).set({ status: 'error' }).where(eq(bots.id, id));
    await insertBotPosition(ctx.database, ctx.clock, {
      botId: id,
      side: 'long',
      amount: '0.01',
      entryPrice: '60000',
    });
    const stopsBefore = control.calls.filter((c) => c.action === 'stop').length;
    // The recording control closes nothing, so the position stays and the bot must stay too.
    const res = await call(ctx.app, 'DELETE', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(res.status).toBe(400);
    expect(control.calls.filter((c) => c.action === 'stop').length).toBe(stopsBefore + 1);
    const still = await call(ctx.app, 'GET', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(still.status).toBe(200);
  });

  it('deletes a stopped bot, after which it is gone', async () => {
    const id = await vipBot();
    await post(id, 'start');
    await post(id, 'stop');
    const res = await call(ctx.app, 'DELETE', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Bot deleted successfully' });
    const again = await call(ctx.app, 'GET', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(again.status).toBe(404);
    const second = await call(ctx.app, 'DELETE', `/api/trading/bots/${id}/`, { token: vipToken });
    expect(second.status).toBe(404);
  });
});

describe('the bot list', () => {
  it('shows trade statistics, win rate and open positions marked to the feed price', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('stats'));
    const account = await createPaperAccount(ctx.app, session.access, { default_leverage: 10 });
    const id = await createBot(ctx.app, session.access, account);
    const lastTradeAt = new Date(ctx.clock.now().getTime() - 60_000);
    await ctx.database.db
      .update(bots)
      .set({
        totalTrades: 4,
        winningTrades: 3,
        losingTrades: 1,
        totalProfitLoss: '12.5',
        lastTradeAt,
      })
      .where(eq(bots.id, id));
    await insertBotPosition(ctx.database, ctx.clock, {
      botId: id,
      side: 'short',
      amount: '0.5',
      entryPrice: '1000',
    });
    const market = await call<{ candles: { close: number }[] }>(
      ctx.app,
      'GET',
      '/api/trading/market-data/?exchange=binance&symbol=BTC/USDT:USDT&timeframe=1m&limit=10&strategy_type=ma_cross',
    );
    const price = market.body.candles.at(-1)?.close ?? Number.NaN;

    const res = await call<{ results: Bot[]; count: number }>(
      ctx.app,
      'GET',
      '/api/trading/bots/',
      {
        token: session.access,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const [bot] = res.body.results;
    // The open position is a trade from its entry fill (the latest one); win rate is of the
    // closed trades.
    expect(bot).toMatchObject({
      total_trades: 5,
      winning_trades: 3,
      losing_trades: 1,
      win_rate: 75,
      total_profit_loss: '12.5',
      last_trade_at: ctx.clock.now().toISOString(),
      data_fresh: true,
    });
    expect(ctx.clock.now().getTime()).toBeGreaterThan(lastTradeAt.getTime());
    const pnl = -0.5 * (price - 1000);
    expect(bot?.open_positions).toHaveLength(1);
    expect(bot?.open_positions[0]?.side).toBe('short');
    expect(Number(bot?.open_positions[0]?.unrealized_pnl)).toBeCloseTo(pnl, 6);
    // margin = 0.5 × 1000 / 10 = 50 USDT
    expect(bot?.open_positions[0]?.unrealized_pnl_percentage).toBeCloseTo((pnl / 50) * 100, 3);
  });

  it('refuses an anonymous list with 401', async () => {
    expect((await call(ctx.app, 'GET', '/api/trading/bots/')).status).toBe(401);
  });
});
