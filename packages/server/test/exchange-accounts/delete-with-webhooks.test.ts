// Deleting an exchange API whose webhook configurations hold positions: the positions are
// closed through the execution core first (the paper account ends flat), then the account and
// its configurations go.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { defaultExchangeClientFactory } from '../../src/app.js';
import {
  executionOrders,
  executionPositions,
  paperPositions,
  webhookConfigs,
} from '../../src/db/schema/index.js';
import { createCandlesRepository } from '../../src/market/candles.repository.js';
import { createMarketFeed } from '../../src/market/market-feed.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createConfig, postAlert, webhookUser } from '../webhooks/webhook-flows.js';

/** Every order the accounts' clients sent (paper, on a simulated feed of the test's clock). */
const sent: { accountId: number; symbol: string; side: string; reduceOnly: boolean }[] = [];
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  exchangeClientFactory: ({ database, clock, config }) => {
    const marketFeed = createMarketFeed({
      mode: 'simulated',
      clock,
      candles: createCandlesRepository(database.db),
    });
    const factory = defaultExchangeClientFactory({ config, db: database.db, clock, marketFeed });
    return (account) => {
      const client = factory(account);
      return Object.assign(Object.create(client), {
        createOrder: async (request: Parameters<typeof client.createOrder>[0]) => {
          sent.push({
            accountId: account.id,
            symbol: request.symbol,
            side: request.side,
            reduceOnly: request.reduceOnly === true,
          });
          return client.createOrder(request);
        },
      });
    };
  },
});

async function settled(token: string, id: number): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const res = await call<{ status: string }>(
      ctx.app,
      'GET',
      `/api/webhook-trading/signals/${id}/`,
      { token },
    );
    if (['filled', 'failed', 'ignored', 'refused'].includes(res.body.status))
      return res.body.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`signal ${id} did not settle`);
}

describe('deleting an exchange API with webhook positions', () => {
  it('closes the webhook positions through the execution core, then deletes', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whdel');
    const btc = await createConfig(ctx.app, token, accountId, { leverage: 2 });
    const eth = await createConfig(ctx.app, token, accountId, { name: 'ETH', symbol: 'ETHUSDT' });
    const long = await postAlert(ctx.app, btc.path, { action: 'buy', id: 'd1' });
    const short = await postAlert(ctx.app, eth.path, { action: 'sell', id: 'd2' });
    expect(await settled(token, Number(long.body.signal_id))).toBe('filled');
    expect(await settled(token, Number(short.body.signal_id))).toBe('filled');
    const held = await ctx.database.db
      .select()
      .from(paperPositions)
      .where(eq(paperPositions.accountId, accountId));
    expect(held.filter((p) => Number(p.amount) !== 0)).toHaveLength(2);
    const before = sent.length;

    const res = await call<{ success: boolean; closed_webhook_positions: unknown[] }>(
      ctx.app,
      'DELETE',
      `/api/auth/apis/${accountId}/`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.closed_webhook_positions).toEqual(
      expect.arrayContaining([
        { config_id: btc.id, symbol: 'BTC/USDT:USDT' },
        { config_id: eth.id, symbol: 'ETH/USDT:USDT' },
      ]),
    );
    // Both closed at the exchange (reduce-only), before the account went.
    expect(sent.slice(before)).toEqual(
      expect.arrayContaining([
        { accountId, symbol: 'BTC/USDT:USDT', side: 'sell', reduceOnly: true },
        { accountId, symbol: 'ETH/USDT:USDT', side: 'buy', reduceOnly: true },
      ]),
    );
    expect(sent.slice(before)).toHaveLength(2);
    // Gone with the account: its configurations, its book, its paper positions.
    expect(await ctx.database.db.select().from(webhookConfigs)).toHaveLength(0);
    expect(
      await ctx.database.db
        .select()
        .from(executionPositions)
        .where(
          and(
            eq(executionPositions.accountId, accountId),
            eq(executionPositions.ownerKind, 'webhook'),
          ),
        ),
    ).toHaveLength(0);
    expect(
      await ctx.database.db
        .select()
        .from(executionOrders)
        .where(eq(executionOrders.accountId, accountId)),
    ).toHaveLength(0);
  });
});
