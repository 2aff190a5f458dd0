import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bots, exchangeAccounts } from '../../src/db/schema/index.js';
import { botClientOrderId } from '../../src/workers/bot-engine/index.js';
import { type BotFixture, createBotFixture, ETH, runCandles } from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 16, 8, 0, 0);
let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

const hasOpenPosition = (botId: number) => async () =>
  (await fixture.ordersOf(botId)).some(
    (o) => o.action.startsWith('open_') && o.status === 'filled',
  );

describe('client order ids', () => {
  it('derives an alphanumeric id of at most 32 characters from bot, candle and action', () => {
    const id = botClientOrderId(1234567, Date.UTC(2026, 0, 1), 'open_long');
    expect(id).toBe(`qs1234567c${Date.UTC(2026, 0, 1) / 1000}ol`);
    expect(id).toMatch(/^[A-Za-z0-9]{1,32}$/);
    expect(botClientOrderId(1, 0, 'stop_loss', 'p2')).toBe('qs1c0slp2');
  });
});

describe('bot runner on a paper account', () => {
  it('opens at the next open after a signal, logs the decision and the fill, and records round trips', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    expect(engine.runningBotIds()).toEqual([botId]);
    // Nothing happens before a candle closes after the start.
    await engine.tick();
    expect(await fixture.ordersOf(botId)).toEqual([]);

    await runCandles(fixture, engine, 120, async () => (await fixture.tradesOf(botId)).length >= 2);
    const orders = await fixture.ordersOf(botId);
    const first = orders[0]!;
    expect(first.status).toBe('filled');
    expect(first.clientOrderId).toBe(botClientOrderId(botId, first.candleTimeMs, first.action));
    // trade_amount 1000 × leverage 2 / price, rounded down to the paper step 0.0001.
    const amount = Number(first.amount);
    const notional = amount * Number(first.averagePrice);
    expect(notional).toBeGreaterThan(1990);
    expect(notional).toBeLessThanOrEqual(2001);
    expect(Math.round(amount * 10_000)).toBeCloseTo(amount * 10_000, 6);

    const logs = await fixture.logsOf(botId);
    expect(
      logs.some(
        (l) =>
          l.type === 'bot_action' && /signal → opening (long|short) [\d.]+ ETH/.test(l.message),
      ),
    ).toBe(true);
    const closes = logs.filter((l) => l.type === 'trade' && l.message.startsWith('closed'));
    expect(closes.length).toBeGreaterThanOrEqual(2);
    expect(typeof closes[0]!.details.pnl).toBe('number');
    expect(closes[0]).toMatchObject({
      event: 'trade_closed',
      details: { side: expect.any(String), asset: 'ETH', amount: expect.any(Number) },
    });

    const trades = await fixture.tradesOf(botId);
    const row = await fixture.botRow(botId);
    expect(row.totalTrades).toBe(trades.length);
    expect(row.lastTradeAt?.getTime()).toBe(trades.at(-1)!.closedAt.getTime());
    expect(row.winningTrades).toBe(trades.filter((t) => Number(t.pnl) > 0).length);
    await engine.stop();
  });

  it('skips an order below the minimum with an operation-log entry', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId, tradeAmount: '0.01' });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    await runCandles(fixture, engine, 120, async () =>
      (await fixture.logsOf(botId)).some((l) => l.message.includes('skipped')),
    );
    const skipped = (await fixture.logsOf(botId)).find((l) => l.message.includes('→ skipped'));
    expect(skipped).toMatchObject({
      event: 'signal_skipped',
      details: { limit: expect.stringMatching(/^(amount|notional)$/), minimum: expect.any(Number) },
    });
    expect(await fixture.ordersOf(botId)).toEqual([]);
    expect((await fixture.botRow(botId)).status).toBe('running');
    await engine.stop();
  });

  it('puts only the failing bot in error when the exchange refuses its order', async () => {
    const poorAccount = await fixture.paperAccount({ balance: '5' });
    const richAccount = await fixture.paperAccount();
    const poor = await fixture.bot({ accountId: poorAccount });
    const rich = await fixture.bot({ accountId: richAccount });
    const engine = fixture.newEngine();
    await engine.startBot(poor);
    await engine.startBot(rich);
    await runCandles(
      fixture,
      engine,
      120,
      async () => (await fixture.botRow(poor)).status === 'error',
    );
    const failed = await fixture.botRow(poor);
    expect(failed.status).toBe('error');
    expect(failed.lastError).toMatch(/Insufficient paper balance/);
    expect(failed.lastErrorAt).not.toBeNull();
    const failure = (await fixture.logsOf(poor)).find((l) => l.type === 'error');
    expect(failure).toMatchObject({
      event: 'bot_failed',
      details: { kind: 'order', error_kind: 'insufficient_funds' },
    });
    expect((await fixture.ordersOf(poor))[0]!.status).toBe('rejected');
    expect(engine.runningBotIds()).toEqual([rich]);
    expect((await fixture.botRow(rich)).status).toBe('running');
    expect((await fixture.ordersOf(rich)).every((o) => o.status === 'filled')).toBe(true);
    await engine.stop();
  });

  it('closes the open position at market, reduce-only, when the bot is stopped', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const engine = fixture.newEngine();
    await engine.startBot(botId);
    await runCandles(fixture, engine, 120, hasOpenPosition(botId));
    await fixture.database.db.update(bots).set({ status: 'stopped' }).where(eq(bots.id, botId));
    await engine.stopBot(botId);
    expect(engine.runningBotIds()).toEqual([]);
    const last = (await fixture.ordersOf(botId)).at(-1)!;
    expect(last.action).toMatch(/^close_/);
    expect(last.reduceOnly).toBe(1);
    expect(last.clientOrderId.endsWith('m')).toBe(true);
    expect((await fixture.tradesOf(botId)).at(-1)!.reason).toBe('manual');
    const client = fixture.clients((await accountRow(accountId))!);
    expect(await client.fetchPositions([ETH])).toEqual([]);
  });
});

async function accountRow(accountId: number) {
  const [row] = await fixture.database.db
    .select()
    .from(exchangeAccounts)
    .where(eq(exchangeAccounts.id, accountId));
  return row;
}
