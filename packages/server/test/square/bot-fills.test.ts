import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategyPositions, strategyTrades } from '../../src/db/schema/index.js';
import { createInProcessEventBus } from '../../src/events/index.js';
import { createReadModelProjector } from '../../src/modules/square/read-model.projector.js';
import { createReadModelRepository } from '../../src/modules/square/read-model.repository.js';
import { type BotFixture, createBotFixture, runCandles } from '../bot-engine/bot-engine-fixture.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { eventually } from './square-fixture.js';

const START = Date.UTC(2026, 0, 16, 8, 0, 0);
let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

describe("a paper bot's fills reach the square's read model through the event bus", () => {
  it('records every fill, realises the same P&L as the bot, and tracks its position', async () => {
    const bus = createInProcessEventBus({ clock: fixture.clock });
    const projector = createReadModelProjector({
      repo: createReadModelRepository(fixture.database.db),
      events: bus,
      log: { error: () => undefined },
      onFill: () => undefined,
    });
    projector.start();
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const engine = createBotEngineWithCore({
      db: fixture.database.db,
      clock: fixture.clock,
      feed: fixture.feed,
      clients: fixture.clients,
      pollIntervalMs: 3_600_000,
      events: bus,
    });
    await engine.startBot(botId);
    await runCandles(fixture, engine, 240, async () => (await fixture.tradesOf(botId)).length >= 2);
    const botTrades = await fixture.tradesOf(botId);
    expect(botTrades.length).toBeGreaterThanOrEqual(2);
    const filled = (await fixture.ordersOf(botId)).filter((o) => o.status === 'filled');

    const rows = () =>
      fixture.database.db
        .select()
        .from(strategyTrades)
        .where(eq(strategyTrades.accountId, accountId))
        .orderBy(asc(strategyTrades.filledAt), asc(strategyTrades.id));
    await eventually(async () => expect(await rows()).toHaveLength(filled.length));
    const trades = await rows();
    expect(trades.every((t) => t.ownerKind === 'bot' && t.ownerId === botId)).toBe(true);
    // Gross P&L of each closed round trip: the bot's net P&L plus its two fees.
    const realized = trades.filter((t) => t.realizedPnl !== null).map((t) => Number(t.realizedPnl));
    const gross = botTrades.map((t) => Number(t.pnl) + Number(t.fee));
    expect(realized).toHaveLength(gross.length);
    for (const [i, value] of realized.entries()) expect(value).toBeCloseTo(gross[i]!, 6);

    // The read model's position is the bot's own.
    const [position] = await fixture.database.db
      .select()
      .from(strategyPositions)
      .where(eq(strategyPositions.accountId, accountId));
    const openOrders = filled.filter((o) => o.action.startsWith('open_'));
    const closeOrders = filled.length - openOrders.length;
    if (openOrders.length > closeOrders) {
      const last = openOrders.at(-1)!;
      const sign = last.action === 'open_long' ? 1 : -1;
      expect(Number(position?.size)).toBeCloseTo(sign * Number(last.filledAmount), 9);
    } else {
      expect(Number(position?.size ?? 0)).toBe(0);
    }
    await engine.stop();
    await projector.stop();
    await bus.close();
  });
});
