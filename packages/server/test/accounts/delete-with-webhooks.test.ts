// Deleting an exchange API whose webhook configurations hold positions: the positions are
// closed through the execution core first (the paper account ends flat), then the account and
// its configurations go.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import {
  exchangeAccounts,
  executionOrders,
  executionPositions,
  paperPositions,
  strategyPositions,
  strategyTrades,
  webhookConfigs,
} from '../../src/db/schema/index.js';
import { createReadModelRepository } from '../../src/modules/square/read-model.repository.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  createConfig,
  observedPaperClients,
  postAlert,
  settledSignal,
  webhookUser,
} from '../webhooks/webhook-flows.js';

/** Every order the accounts' clients sent (paper, on a simulated feed of the test's clock). */
const sent: { accountId: number; symbol: string; side: string; reduceOnly: boolean }[] = [];
/** The app's log lines, shown when the deletion is not answered 200. */
const logLines: string[] = [];
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  logStream: { write: (line: string) => logLines.push(line) },
  exchangeClientFactory: observedPaperClients((accountId, request) => {
    sent.push({
      accountId,
      symbol: request.symbol,
      side: request.side,
      reduceOnly: request.reduceOnly === true,
    });
  }),
});

const settled = async (token: string, id: number) =>
  (await settledSignal(ctx.app, token, id)).status;

const errorLines = () => logLines.filter((line) => /"level":(40|50|60)/.test(line)).join('\n');

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
    expect(res.status, `${JSON.stringify(res.body)}\n${errorLines()}`).toBe(200);
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

  it('a configuration deleted earlier left its position on the account, which still deletes', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whorphan');
    const config = await createConfig(ctx.app, token, accountId);
    const alert = await postAlert(ctx.app, config.path, { action: 'buy', id: 'o1' });
    expect(await settled(token, Number(alert.body.signal_id))).toBe('filled');
    const removed = await call(ctx.app, 'DELETE', `/api/webhook-trading/configs/${config.id}/`, {
      token,
    });
    expect(removed.status).toBe(204);
    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  // Two connections at once: PostgreSQL only (PGlite serves one).
  it.runIf(inject('testDatabase').kind === 'postgres')(
    'a writer that holds a row of the account and then waits for it does not fail the deletion',
    async () => {
      const { token, accountId } = await webhookUser(ctx.app, 'whlock');
      const db = ctx.database.db;
      const symbol = 'BTC/USDT:USDT';
      const owner = { ownerKind: 'webhook' as const, ownerId: 1 };
      await db
        .insert(strategyPositions)
        .values({ accountId, symbol, ...owner, size: '0', updatedAtMs: 0 });
      const deletionWaits = async () => {
        for (let i = 0; i < 400; i++) {
          const waiting = (await db.execute(
            sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'delete from "exchange_accounts"%'`,
          )) as unknown as { rows: unknown[] };
          if (waiting.rows.length > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error('the deletion never waited for the writer');
      };
      let deletion: ReturnType<typeof call> | undefined;
      // The writer locks the position row, the deletion's cascade waits for it, then the writer
      // adds a trade, whose foreign key waits for the account the deletion holds: a deadlock.
      const writer = db
        .transaction(async (tx) => {
          await tx
            .select()
            .from(strategyPositions)
            .where(eq(strategyPositions.accountId, accountId))
            .for('update');
          deletion = call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
          await deletionWaits();
          await tx.insert(strategyTrades).values({
            accountId,
            eventId: 'lock-test',
            symbol,
            ...owner,
            side: 'buy',
            amount: '1',
            price: '1',
            fee: '0',
            exchangeOrderId: 'lock-test',
            filledAt: new Date(),
          });
        })
        .then(
          () => 'committed',
          (error: unknown) => String(error),
        );
      await writer;
      const res = await deletion;
      expect(res?.status, `${JSON.stringify(res?.body)}\n${errorLines()}`).toBe(200);
      expect(
        await db.select().from(exchangeAccounts).where(eq(exchangeAccounts.id, accountId)),
      ).toHaveLength(0);
    },
  );

  it('the square leaves out the fills and positions of an account deleted meanwhile', async () => {
    const { token, accountId } = await webhookUser(ctx.app, 'whgone');
    const res = await call(ctx.app, 'DELETE', `/api/auth/apis/${accountId}/`, { token });
    expect(res.status).toBe(200);
    const readModel = createReadModelRepository(ctx.database.db);
    const owner = { kind: 'webhook' as const, id: 1 };
    const symbol = 'BTC/USDT:USDT';
    expect(
      await readModel.recordPositionChange({
        accountId,
        userId: 1,
        symbol,
        owner,
        size: 1,
        entryPrice: 100,
        changedAtMs: 1,
      }),
    ).toBe(false);
    expect(
      await readModel.recordFill('gone-1', {
        accountId,
        userId: 1,
        symbol,
        owner,
        clientOrderId: 'gone-1',
        side: 'buy',
        amount: 1,
        price: 100,
        fee: 0,
        reduceOnly: false,
        exchangeOrderId: 'gone-1',
        filledAtMs: 1,
      }),
    ).toBeNull();
  });
});
