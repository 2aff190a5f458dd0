// Restart and reconcile: a pending intent left by a crash is settled from the exchange by its
// client order id on the next start; nothing is ever sent twice.

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  botOrders,
  botPositions,
  exchangeAccounts,
  executionOrders,
} from '../../src/db/schema/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { botOrderKey } from '../../src/workers/bot-engine/client-order-id.js';
import { botClientOrderId } from '../../src/workers/bot-engine/index.js';
import { API_KEY, API_SECRET, clientAt } from '../exchange/exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { type BotFixture, createBotFixture, ETH, runCandles } from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 17, 8, 0, 0);
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

async function account(accountId: number) {
  const [row] = await fixture.database.db
    .select()
    .from(exchangeAccounts)
    .where(eq(exchangeAccounts.id, accountId));
  return row!;
}

async function pendingIntent(botId: number, candleTimeMs: number, amount: number) {
  const clientOrderId = botClientOrderId(botId, candleTimeMs, 'open_long');
  await fixture.database.db.insert(botOrders).values({
    botId,
    clientOrderId,
    candleTimeMs,
    action: 'open_long',
    side: 'buy',
    amount: String(amount),
    status: 'pending',
    createdAt: fixture.clock.now(),
    updatedAt: fixture.clock.now(),
  });
  return clientOrderId;
}

describe('restart with a pending order intent (paper)', () => {
  it('finds the order the exchange accepted before the crash and never sends it again', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const candle = START - 60_000;
    const clientOrderId = await pendingIntent(botId, candle, 0.5);
    // The crashed process had sent it: the paper exchange holds the order and the position.
    const client = fixture.clients(await account(accountId));
    await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 0.5,
      clientOrderId,
    });

    const engine = fixture.newEngine();
    await engine.start();
    expect(engine.runningBotIds()).toContain(botId);
    const [intent] = await fixture.ordersOf(botId);
    expect(intent!.status).toBe('filled');
    expect(Number(intent!.filledAmount)).toBe(0.5);
    expect(await fixture.paperOrderCount(accountId)).toBe(1);
    const positions = await client.fetchPositions([ETH]);
    expect(positions.map((p) => [p.side, p.amount])).toEqual([['long', 0.5]]);
    const logs = await fixture.logsOf(botId);
    expect(logs.some((l) => l.message.startsWith('reconciled order'))).toBe(true);
    expect(logs.some((l) => l.message.startsWith('position mismatch'))).toBe(false);
    // The bot goes on from its position: later candles never resend the reconciled order.
    await runCandles(fixture, engine, 30);
    const ids = (await fixture.ordersOf(botId)).map((o) => o.clientOrderId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id === clientOrderId)).toHaveLength(1);
    await engine.stop();
  });

  it('marks an intent the exchange never saw as expired, without sending it', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    await pendingIntent(botId, START - 60_000, 0.5);
    const engine = fixture.newEngine();
    await engine.start();
    const [intent] = await fixture.ordersOf(botId);
    expect(intent!.status).toBe('expired');
    expect(await fixture.paperOrderCount(accountId)).toBe(0);
    expect(await fixture.clients(await account(accountId)).fetchPositions([ETH])).toEqual([]);
    expect((await fixture.botRow(botId)).status).toBe('running');
    await engine.stop();
  });
});

describe('restart with an intent written but never claimed', () => {
  it('withdraws it (canceled, nothing sent) instead of leaving it created for ever', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const candle = START - 60_000;
    const clientOrderId = botClientOrderId(botId, candle, 'open_long');
    // The process died between writing the intent and claiming it for sending.
    await fixture.database.db.insert(executionOrders).values({
      accountId,
      symbol: ETH,
      ownerKind: 'bot',
      ownerId: botId,
      idempotencyKey: botOrderKey(candle, 'open_long'),
      clientOrderId,
      action: 'open_long',
      side: 'buy',
      type: 'market',
      amount: '0.5',
      status: 'created',
      createdAt: fixture.clock.now(),
      updatedAt: fixture.clock.now(),
    });
    const engine = fixture.newEngine();
    await engine.start();
    const [intent] = await fixture.ordersOf(botId);
    expect(intent!.clientOrderId).toBe(clientOrderId);
    expect(intent!.status).toBe('canceled');
    expect(await fixture.paperOrderCount(accountId)).toBe(0);
    const logs = await fixture.logsOf(botId);
    expect(
      logs.some((l) => l.message === `order ${clientOrderId} never reached the exchange`),
    ).toBe(true);
    expect((await fixture.botRow(botId)).status).toBe('running');
    await engine.stop();
  });
});

describe('restart position check', () => {
  it('logs a mismatch between the bot position and the exchange', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    await fixture.database.db.insert(botPositions).values({
      botId,
      side: 'short',
      amount: '0.3',
      entryPrice: '2000',
      openedAt: fixture.clock.now(),
    });
    const engine = fixture.newEngine();
    await engine.start();
    const mismatch = (await fixture.logsOf(botId)).find((l) =>
      l.message.startsWith('position mismatch'),
    );
    expect(mismatch?.type).toBe('error');
    expect(mismatch?.details).toEqual({ bot_amount: -0.3, exchange_amount: 0 });
    await engine.stop();
  });
});

describe('restart with a pending order intent (ccxt fake exchange)', () => {
  it('finds an order whose answer was lost (hang-after-accept) by client id: one order at the exchange', async () => {
    const accountId = await fixture.liveAccount({ apiKey: API_KEY, apiSecret: API_SECRET });
    const botId = await fixture.bot({ accountId, tradeAmount: '100' });
    const clientOrderId = await pendingIntent(botId, START - 60_000, 0.05);
    // The crashed process sent the order; the exchange accepted it but the answer never came.
    fake.failNext('POST', '/fapi/v1/order', { kind: 'hang-after-accept' });
    const { client } = clientAt(fake, 'binance');
    await client
      .createOrder({ symbol: ETH, side: 'buy', type: 'market', amount: 0.05, clientOrderId })
      .catch(() => undefined);
    expect(fake.state.orders.filter((o) => o.clientOrderId === clientOrderId)).toHaveLength(1);
    // The fake keeps no positions of its own: it holds what the filled order made.
    fake.state.positions.push({
      base: 'ETH',
      side: 'long',
      size: 0.05,
      entryPrice: 2000,
      markPrice: 2000,
      unrealizedPnl: 0,
      leverage: 2,
    });
    const sentBefore = fake.callsTo('/fapi/v1/order', 'POST').length;

    const engine = fixture.newEngine();
    await engine.start();
    const [intent] = await fixture.ordersOf(botId);
    expect(intent!.status).toBe('filled');
    expect(fake.callsTo('/fapi/v1/order', 'POST').length).toBe(sentBefore);
    expect(fake.state.orders.filter((o) => o.clientOrderId === clientOrderId)).toHaveLength(1);
    const positions = await client.fetchPositions([ETH]);
    expect(positions.map((p) => [p.side, p.amount])).toEqual([['long', 0.05]]);
    expect(
      (await fixture.logsOf(botId)).some((l) => l.message.startsWith('position mismatch')),
    ).toBe(false);
    await engine.stop();
  });
});
