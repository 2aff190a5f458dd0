// The operation log as users fill it through the bots and exchange-accounts APIs; a recording
// BotControl stands in for the bot engine.
import { type OperationLogEntry, operationLogList } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import {
  createBot,
  createPaperAccount,
  grantVip,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const control = new RecordingBotControl();
const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' }, botControl: () => control });

interface LogPage {
  results: OperationLogEntry[];
  count: number;
  page: number;
  page_size: number;
}

const logs = (token: string, query = '') =>
  call<LogPage>(ctx.app, 'GET', `/api/trading/logs/${query}`, { token });

let token: string;
let otherToken: string;
let accountId: number;
let botId: number;
let otherBotId: number;
let afterAccountTime: string;

beforeAll(async () => {
  const session = await registerEmail(ctx.app, uniqueEmail('log'));
  token = session.access;
  await grantVip(ctx.database, ctx.clock, Number(session.user.id));
  accountId = await createPaperAccount(ctx.app, token, { name: 'Logged' });
  await call(ctx.app, 'PATCH', `/api/auth/apis/${accountId}/`, {
    token,
    body: { name: 'Renamed', default_leverage: 3 },
  });
  ctx.clock.advanceSeconds(60);
  afterAccountTime = ctx.clock.now().toISOString();
  botId = await createBot(ctx.app, token, accountId);
  ctx.clock.advanceSeconds(1);
  await call(ctx.app, 'POST', `/api/trading/bots/${botId}/start/`, { token });
  ctx.clock.advanceSeconds(1);
  await call(ctx.app, 'POST', `/api/trading/bots/${botId}/stop/`, { token });
  ctx.clock.advanceSeconds(1);
  otherBotId = await createBot(ctx.app, token, accountId, { symbol: 'ETH/USDT:USDT' });
  ctx.clock.advanceSeconds(1);
  await call(ctx.app, 'DELETE', `/api/trading/bots/${otherBotId}/`, { token });

  const other = await registerEmail(ctx.app, uniqueEmail('log-other'));
  otherToken = other.access;
  const otherAccount = await createPaperAccount(ctx.app, otherToken);
  await createBot(ctx.app, otherToken, otherAccount);
  await call(ctx.app, 'DELETE', `/api/auth/apis/${otherAccount}/`, { token: otherToken });
});

describe('GET /api/trading/logs/', () => {
  it("lists the user's actions newest first", async () => {
    const res = await logs(token);
    expect(res.status).toBe(200);
    const page = operationLogList.parse(res.body);
    expect(page.results.map((entry) => entry.message)).toEqual([
      'Deleted bot ETH/USDT:USDT',
      'Created bot ETH/USDT:USDT',
      'Stopped bot BTC/USDT:USDT',
      'Started bot BTC/USDT:USDT',
      'Created bot BTC/USDT:USDT',
      'Updated exchange API Renamed',
      'Added exchange API Logged',
    ]);
    // The event names what happened, for the web to say in the reader's language.
    expect(page.results.map((entry) => entry.event)).toEqual([
      'bot_deleted',
      'bot_created',
      'bot_stopped',
      'bot_started',
      'bot_created',
      'api_updated',
      'api_created',
    ]);
    expect(page.results.every((entry) => entry.type === 'user_action')).toBe(true);
    expect(page).toMatchObject({ count: 7, page: 1, page_size: 50 });
  });

  it('records the bot, symbol and facts of a bot action', async () => {
    const res = await logs(token, `?bot=${botId}`);
    const created = res.body.results.find((entry) => entry.message.startsWith('Created'));
    expect(created).toMatchObject({
      bot_id: botId,
      bot_symbol: 'BTC/USDT:USDT',
      details: {
        bot_id: botId,
        exchange_api: accountId,
        strategy_type: 'ma_cross',
        timeframe: '1h',
      },
    });
    expect(res.body.results.map((entry) => entry.message)).toEqual([
      'Stopped bot BTC/USDT:USDT',
      'Started bot BTC/USDT:USDT',
      'Created bot BTC/USDT:USDT',
    ]);
  });

  it('keeps a deleted bot’s entries, with its id in details', async () => {
    const res = await logs(token);
    const deleted = res.body.results.find((entry) => entry.message.startsWith('Deleted bot'));
    expect(deleted?.bot_id).toBeNull();
    expect(deleted?.details.bot_id).toBe(otherBotId);
  });

  it('never writes exchange keys into account entries', async () => {
    const res = await logs(token);
    const updated = res.body.results.find((entry) => entry.message.startsWith('Updated'));
    expect(updated?.details).toEqual({
      exchange_api: accountId,
      name: 'Renamed',
      changed: ['name', 'default_leverage'],
    });
  });

  it('filters by type', async () => {
    expect((await logs(token, '?type=user_action')).body.count).toBe(7);
    expect((await logs(token, '?type=trade')).body).toMatchObject({ results: [], count: 0 });
  });

  it('filters by time: entries at or after since', async () => {
    const res = await logs(token, `?since=${encodeURIComponent(afterAccountTime)}`);
    expect(res.body.count).toBe(5);
    expect(res.body.results.at(-1)?.message).toBe('Created bot BTC/USDT:USDT');
  });

  it('pages: page 2 of size 3 holds the 4th to 6th newest entries', async () => {
    const res = await logs(token, '?page=2&page_size=3');
    expect(res.body).toMatchObject({ count: 7, page: 2, page_size: 3 });
    expect(res.body.results.map((entry) => entry.message)).toEqual([
      'Started bot BTC/USDT:USDT',
      'Created bot BTC/USDT:USDT',
      'Updated exchange API Renamed',
    ]);
    const beyond = await logs(token, '?page=9&page_size=3');
    expect(beyond.body.results).toEqual([]);
  });

  it("shows each user only their own entries, also when filtering by another user's bot", async () => {
    const own = await logs(otherToken);
    expect(own.body.results.map((entry) => entry.message)).toEqual([
      'Deleted exchange API Paper',
      'Deleted bot BTC/USDT:USDT with exchange API Paper',
      'Created bot BTC/USDT:USDT',
      'Added exchange API Paper',
    ]);
    expect((await logs(otherToken, `?bot=${botId}`)).body.count).toBe(0);
  });

  it.each([
    ['an unknown type', '?type=debug', 'type'],
    ['a bot id as text', '?bot=abc', 'bot'],
    ['a malformed since', '?since=yesterday', 'since'],
    ['page 0', '?page=0', 'page'],
    ['page_size 201', '?page_size=201', 'page_size'],
    ['an unknown filter', '?level=1', 'level'],
  ])('refuses %s with a field error', async (_label, query, field) => {
    const res = await call<{ fields: Record<string, string[]> }>(
      ctx.app,
      'GET',
      `/api/trading/logs/${query}`,
      { token },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toContain(field);
  });

  it('refuses an anonymous call with 401', async () => {
    expect((await call(ctx.app, 'GET', '/api/trading/logs/')).status).toBe(401);
  });
});
