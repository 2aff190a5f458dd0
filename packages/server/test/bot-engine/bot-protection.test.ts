// Live stop-loss/take-profit: reduce-only trigger orders placed after the entry fills, verified in
// the open orders, re-placed when they disappear (ccxt against the local fake Binance).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { API_KEY, API_SECRET } from '../exchange/exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { type BotFixture, createBotFixture, runCandles } from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 18, 8, 0, 0);
let fixture: BotFixture;
let fake: FakePrivateExchange;
beforeAll(async () => {
  fake = await startFakeExchange({ exchange: 'binance' });
  fixture = await createBotFixture(START, (options) =>
    createCcxtExchangeClient({
      ...options,
      urlsOverride: fake.url,
      timeoutMs: 400,
      sleep: async () => {},
    }),
  );
});
afterAll(async () => {
  await fixture.close();
  await fake.close();
});

describe('live protective orders', () => {
  it('places reduce-only stop and take-profit orders after the entry and re-places a missing one', async () => {
    const accountId = await fixture.liveAccount({ apiKey: API_KEY, apiSecret: API_SECRET });
    const botId = await fixture.bot({
      accountId,
      tradeAmount: '100',
      stopLossPercent: '2',
      takeProfitPercent: '3',
    });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    await runCandles(fixture, engine, 120, async () =>
      (await fixture.ordersOf(botId)).some((o) => o.action === 'take_profit'),
    );
    const orders = await fixture.ordersOf(botId);
    const entry = orders.find((o) => o.action.startsWith('open_'))!;
    expect(entry.status).toBe('filled');
    const isLong = entry.action === 'open_long';
    const triggers = fake.state.orders.filter(
      (o) => o.triggerPrice !== null && o.status === 'open',
    );
    expect(triggers).toHaveLength(2);
    for (const order of triggers) {
      expect(order.reduceOnly).toBe(true);
      expect(order.side).toBe(isLong ? 'sell' : 'buy');
    }
    const levels = triggers.map((o) => o.triggerPrice).sort((a, b) => a! - b!);
    // Entry at the fake's 2000: stop 2% and target 3% away.
    expect(levels).toEqual(isLong ? [1960, 2060] : [1940, 2040]);
    expect(
      orders
        .filter((o) => o.action === 'stop_loss' || o.action === 'take_profit')
        .map((o) => o.status),
    ).toEqual(['accepted', 'accepted']);
    expect((await fixture.botRow(botId)).status).toBe('running');

    // The stop disappears at the exchange: the next candle close puts protection back.
    const stop = triggers.find((o) => o.triggerPrice === (isLong ? 1960 : 2040))!;
    stop.status = 'canceled';
    const before = (await fixture.ordersOf(botId)).length;
    await runCandles(fixture, engine, 1);
    const after = await fixture.ordersOf(botId);
    expect(after.length).toBeGreaterThan(before);
    const open = fake.state.orders.filter((o) => o.triggerPrice !== null && o.status === 'open');
    expect(open.map((o) => o.triggerPrice).sort((a, b) => a! - b!)).toEqual(levels);
    expect((await fixture.botRow(botId)).status).toBe('running');
    await engine.stop();
  });

  it('puts the bot in error when its position cannot be protected', async () => {
    const accountId = await fixture.liveAccount({ apiKey: API_KEY, apiSecret: API_SECRET });
    const botId = await fixture.bot({
      accountId,
      symbol: 'BTC/USDT:USDT',
      tradeAmount: '1000',
      stopLossPercent: '2',
    });
    fake.failNext(
      'POST',
      '/fapi/v1/algoOrder',
      { kind: 'http', status: 400, body: { code: -1111, msg: 'Precision is over the maximum' } },
      2,
    );
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    await runCandles(
      fixture,
      engine,
      120,
      async () => (await fixture.botRow(botId)).status === 'error',
    );
    const row = await fixture.botRow(botId);
    expect(row.status).toBe('error');
    expect(row.lastError).toMatch(/position unprotected/);
    expect(row.lastErrorAt).not.toBeNull();
    const logs = await fixture.logsOf(botId);
    expect(logs.some((l) => l.type === 'error' && /unprotected/.test(l.message))).toBe(true);
    expect(engine.runningBotIds()).not.toContain(botId);
    await engine.stop();
  });
});
