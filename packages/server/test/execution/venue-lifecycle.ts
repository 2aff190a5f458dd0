// (Shared by venue-lifecycle-okx.test.ts and venue-lifecycle-binance.test.ts.)
// The order lifecycle against venues that answer as the real ones do (the fakes' venueFaithful
// behaviours, checked against recorded answers in test/exchange/venue-parity.test.ts): OKX acks
// with ids only, Binance answers NEW; the order is invisible to lookups for a second after its
// ack, fills later in several trades at different prices, with fees in the venue's coin. The
// same table runs on both venues, through the real ccxt client.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { executionFills } from '../../src/db/schema/index.js';
import type { ExecutionCore } from '../../src/execution/index.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { FEE_COIN_PRICES_USDT, FEE_COINS } from '../exchange/fake-venue-behaviour.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { coreOnVenue, insertLiveAccount, insertUser } from './core-on-venue.js';

/** The table on one venue, on a database of its own (a file per venue, so the two run side by
 * side). */
export function describeVenueLifecycle(venue: 'okx' | 'binance'): void {
  const ETH = 'ETH/USDT:USDT';
  const clock = new ManualClock(Date.UTC(2026, 0, 21, 8, 0, 0));
  let database: DatabaseHandle;
  let userId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    userId = await insertUser(database.db, clock, 'lifecycle');
  });
  afterAll(async () => {
    await database.close();
  });

  /** A core whose live accounts trade on `venue` through the real ccxt client. */
  const coreOn = (venue: FakePrivateExchange): ExecutionCore =>
    coreOnVenue({ db: database.db, clock, venueUrl: venue.url });

  describe(`an order on ${venue} as the venue answers`, () => {
    let fake: FakePrivateExchange;
    let core: ExecutionCore;
    let keys = 0;
    // Owners of their own per venue (the two venues share one database).
    const ownerId = (id: number) => (venue === 'okx' ? id : id + 1000);
    beforeAll(async () => {
      // Every venue-faithful behaviour but the artificial every-Nth rate refusal.
      fake = await startFakeExchange({
        exchange: venue,
        tracksPositions: true,
        venueFaithful: true,
        rateLimitEveryNthOrder: 0,
      });
      core = coreOn(fake);
    });
    afterAll(async () => {
      await core.close();
      await fake.close();
    });

    const liveAccount = () =>
      insertLiveAccount(database.db, clock, {
        userId,
        exchange: venue,
        apiKey: `${venue}-life-${++keys}`,
        leverage: 3,
      });
    const ordersOf = (apiKey: string) => fake.state.orders.filter((o) => o.apiKey === apiKey);

    it('is filled for the venue size at the trades’ weighted price, with every trade’s fee', async () => {
      const account = await liveAccount();
      const owner = { kind: 'webhook' as const, id: ownerId(501) };
      const result = await core.submit({
        accountId: account.id,
        symbol: ETH,
        owner,
        key: 'signal-1',
        size: { kind: 'delta', amount: 0.5 },
        action: 'open_long',
      });
      expect(result.status).toBe('filled');
      const [order, ...others] = ordersOf(account.apiKey);
      expect(others).toHaveLength(0);
      expect(order!.fills.length).toBeGreaterThan(1);
      // The venue's trades, each at its own price: their weighted average, not one price.
      const units = venue === 'okx' ? 0.1 : 1;
      const base = order!.fills.reduce((sum, f) => sum + f.size * units, 0);
      const cost = order!.fills.reduce((sum, f) => sum + f.size * units * f.price, 0);
      const prices = new Set(order!.fills.map((f) => f.price));
      expect(prices.size).toBeGreaterThan(1);
      const [intent] = await core.intentsOf(owner);
      expect(intent).toMatchObject({ status: 'filled' });
      expect(Number(intent!.filledAmount)).toBeCloseTo(0.5, 10);
      expect(Number(intent!.averagePrice)).toBeCloseTo(cost / base, 8);
      // The ledger holds one row per venue trade, each fee in the venue's coin as charged.
      const fills = await database.db
        .select()
        .from(executionFills)
        .where(eq(executionFills.orderId, intent!.id))
        .orderBy(asc(executionFills.id));
      expect(fills.map((f) => f.venueTradeId).sort()).toEqual(
        order!.fills.map((f) => f.tradeId).sort(),
      );
      for (const fill of fills) {
        const trade = order!.fills.find((f) => f.tradeId === fill.venueTradeId)!;
        expect(fill.feeCurrency).toBe(FEE_COINS[venue]);
        expect(Number(fill.feeCost)).toBeCloseTo(trade.fee, 8);
        expect(Number(fill.price)).toBe(trade.price);
        // Valued in USDT at the fee coin's price on the venue.
        const coinPrice = FEE_COIN_PRICES_USDT[FEE_COINS[venue] as string] as number;
        expect(Number(fill.feeQuote)).toBeCloseTo(trade.fee * coinPrice, 6);
      }
      const feesUsdt = fills.reduce((sum, f) => sum + Number(f.feeQuote), 0);
      expect(feesUsdt).toBeGreaterThan(0);
      expect(Number(intent!.fee)).toBeCloseTo(feesUsdt, 8);
      const position = await core.position({ accountId: account.id, symbol: ETH, owner });
      expect(Number(position.size)).toBeCloseTo(0.5, 10);
      expect(Number(position.entryPrice)).toBeCloseTo(cost / base, 8);
    });

    it('moves a stop at the venue: the new one rests before the old one is cancelled', async () => {
      const account = await liveAccount();
      const owner = { kind: 'bot' as const, id: ownerId(551) };
      const ref = { accountId: account.id, symbol: ETH, owner };
      expect(
        (
          await core.submit({
            ...ref,
            key: 'entry',
            size: { kind: 'delta', amount: 0.5 },
            action: 'open_long',
          })
        ).status,
      ).toBe('filled');
      await core.protect({ ...ref, key: 'p1', stopLoss: 1900, takeProfit: 2100 });
      const moved = await core.moveStop({ ...ref, key: 'p2t', stopLoss: 1950.5 });
      expect(Number(moved.stopLoss)).toBe(1950.5);
      const triggers = ordersOf(account.apiKey).filter((o) => o.triggerPrice !== null);
      expect(triggers.map((o) => [o.triggerPrice, o.status])).toEqual([
        [1900, 'canceled'],
        [2100, 'open'],
        [1950.5, 'open'],
      ]);
      const stop = triggers[2]!;
      expect(stop.reduceOnly).toBe(true);
      expect(stop.side).toBe('sell');
      expect(moved.takeProfitOrderId).toBe(triggers[1]!.id);
      expect(moved.stopLossOrderId).toBe(stop.id);
      // The old stop's intent is cancelled; the new one and the target rest.
      const protective = (await core.intentsOf(owner)).filter((i) => i.action === 'stop_loss');
      expect(protective.map((i) => [Number(i.triggerPrice), i.status])).toEqual([
        [1900, 'canceled'],
        [1950.5, 'accepted'],
      ]);
    });

    it('sends one order for one decision however often it is submitted or reconciled', async () => {
      const account = await liveAccount();
      const owner = { kind: 'copy' as const, id: ownerId(601) };
      const intent = {
        accountId: account.id,
        symbol: ETH,
        owner,
        key: 'change-1|601|1|o',
        size: { kind: 'target' as const, amount: 0.3 },
        action: 'copy_open_long',
      };
      const results = await Promise.all([core.submit(intent), core.submit(intent)]);
      expect(results.map((r) => r.status).sort()).toEqual(['done', 'filled']);
      for (let pass = 0; pass < 3; pass++) {
        await core.reconcileIntents(owner);
        expect((await core.submit(intent)).status).toBe('done');
      }
      expect(ordersOf(account.apiKey)).toHaveLength(1);
      // The close is one closing order.
      const closed = await core.submit({
        ...intent,
        key: 'change-2|601|1|r',
        size: { kind: 'target', amount: 0 },
        action: 'copy_reduce',
      });
      expect(closed.status).toBe('filled');
      expect(ordersOf(account.apiKey)).toHaveLength(2);
      expect((await core.position({ accountId: account.id, symbol: ETH, owner })).size).toBe('0');
    });

    /**
     * Runs `check` with a core on a venue that fills 9 s after its ack (the submit answers
     * in_flight after 8 s) and an open of `amount` ETH submitted there by bot `botId`.
     */
    async function onSlowVenue(
      botId: number,
      amount: number,
      check: (parts: {
        slow: FakePrivateExchange;
        slowCore: ExecutionCore;
        account: Awaited<ReturnType<typeof liveAccount>>;
        owner: { kind: 'bot'; id: number };
        result: Awaited<ReturnType<ExecutionCore['submit']>>;
      }) => Promise<void>,
    ): Promise<void> {
      const slow = await startFakeExchange({
        exchange: venue,
        venueFaithful: true,
        rateLimitEveryNthOrder: 0,
        fillDelayMs: 9_000,
      });
      const slowCore = coreOn(slow);
      try {
        const account = await liveAccount();
        const owner = { kind: 'bot' as const, id: ownerId(botId) };
        const result = await slowCore.submit({
          accountId: account.id,
          symbol: ETH,
          owner,
          key: 'c1open_long',
          size: { kind: 'target', amount },
          action: 'open_long',
        });
        expect(result.status).toBe('in_flight');
        await check({ slow, slowCore, account, owner, result });
      } finally {
        await slowCore.close(0);
        await slow.close();
      }
    }

    it('answers in_flight for an order not final within the submit, and the follower settles it', async () => {
      await onSlowVenue(701, 0.2, async ({ slow, slowCore, account, owner }) => {
        expect(slowCore.followedOrders()).toHaveLength(1);
        const live = await slowCore.liveIntentsOn({ accountId: account.id, symbol: ETH, owner });
        expect(live.map((i) => i.status)).toEqual(['accepted']);
        // The follower goes on after the submit answered, until the venue's fill is settled.
        await expect
          .poll(async () => (await slowCore.intentsOf(owner)).map((i) => i.status), {
            timeout: 15_000,
            interval: 250,
          })
          .toEqual(['filled']);
        const position = await slowCore.position({ accountId: account.id, symbol: ETH, owner });
        expect(Number(position.size)).toBeCloseTo(0.2, 10);
        expect(slow.state.orders).toHaveLength(1);
      });
    }, 30_000);

    it('lets a live order settle on a clean shutdown before the follower stops', async () => {
      await onSlowVenue(702, 0.1, async ({ slowCore, owner }) => {
        // Shut down at once: the close waits for the venue's fill (about a second away).
        await slowCore.close(10_000);
        expect(slowCore.followedOrders()).toEqual([]);
        expect((await slowCore.intentsOf(owner)).map((i) => i.status)).toEqual(['filled']);
      });
    }, 30_000);
  });
}
