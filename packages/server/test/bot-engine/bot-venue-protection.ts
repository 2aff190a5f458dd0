// (Shared by bot-venue-protection-okx.test.ts and bot-venue-protection-binance.test.ts.)
// A live bot's entry on venues that answer as the real ones do (the fakes' venueFaithful
// behaviours: OKX acks with ids only, Binance answers NEW; the order is invisible to lookups for
// a second, then fills in several trades at different prices with fees in OKB / BNB): its
// stop-loss and take-profit follow once the entry is filled — exactly one of each at the venue —
// and its log tells the entry the venue filled, also when the entry is still on its way when the
// submit answers (in_flight) and the core's follower settles it later.
import { afterEach, describe, expect, it } from 'vitest';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import type { BotEngine } from '../../src/workers/bot-engine/index.js';
import { API_KEY, API_PASSWORD, API_SECRET } from '../exchange/exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { FAKE_PRICES, OKX_CONTRACT_VALUES } from '../exchange/fake-order-book.js';
import { FEE_COIN_PRICES_USDT, FEE_COINS } from '../exchange/fake-venue-behaviour.js';
import { type BotFixture, createBotFixture } from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 19, 8, 0, 0);
/** Longer than the venue's lookup lag: the next candle comes after the venue shows the orders. */
const CANDLE_PACE_MS = 1_200;

const FILLED_AT_ONCE = {};
/** Not final within the submit's 8 s: nothing filled when it answers. */
const FILLED_LATE = { fillDelayMs: 9_000 };
/** A first trade 5 s after the ack, the others at 8 s and 11 s: part filled when it answers. */
const PART_FILLED = { fillDelayMs: 5_000, tradeSpacingMs: 3_000 };

export const PROTECTION_CASES = [
  { venue: 'okx', entry: 'filled within the submit', timing: FILLED_AT_ONCE },
  { venue: 'binance', entry: 'filled within the submit', timing: FILLED_AT_ONCE },
  { venue: 'okx', entry: 'still on its way when the submit answers', timing: FILLED_LATE },
  { venue: 'binance', entry: 'still on its way when the submit answers', timing: FILLED_LATE },
  { venue: 'binance', entry: 'part filled when the submit answers', timing: PART_FILLED },
] as const;

/** The cases of one venue (a file per venue, so that the two run side by side). */
export function describeVenueProtection(venue: 'okx' | 'binance'): void {
  let fixture: BotFixture | undefined;
  let fake: FakePrivateExchange | undefined;
  let engine: BotEngine | undefined;
  afterEach(async () => {
    await engine?.stop();
    await fixture?.close();
    await fake?.close();
    engine = undefined;
    fixture = undefined;
    fake = undefined;
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  describe.each(PROTECTION_CASES.filter((c) => c.venue === venue))(
    'a live bot on $venue whose entry is $entry',
    ({ timing }) => {
      it('is protected once the entry fills, one stop-loss and one take-profit at the venue', async () => {
        fake = await startFakeExchange({
          exchange: venue,
          venueFaithful: true,
          tracksPositions: true,
          rateLimitEveryNthOrder: 0,
          ...timing,
        });
        const url = fake.url;
        fixture = await createBotFixture(START, (options) =>
          createCcxtExchangeClient({ ...options, urlsOverride: url, timeoutMs: 2_000 }),
        );
        const accountId = await fixture.liveAccount({
          apiKey: API_KEY,
          apiSecret: API_SECRET,
          exchange: venue,
          ...(venue === 'okx' ? { apiPassword: API_PASSWORD } : {}),
        });
        const botId = await fixture.bot({
          accountId,
          tradeAmount: '100',
          stopLossPercent: '2',
          takeProfitPercent: '3',
        });
        engine = fixture.newEngine();
        await engine.startBot(botId);
        const entryOf = async () =>
          (await fixture!.ordersOf(botId)).find((o) => o.action.startsWith('open_'));
        const isProtected = async () => {
          const actions = (await fixture!.ordersOf(botId)).map((o) => o.action);
          return actions.includes('stop_loss') && actions.includes('take_profit');
        };
        // Candles until the strategy enters, then at the pace of a venue that shows orders late.
        for (let k = 0; k < 150 && !(await entryOf()); k++) {
          fixture.clock.advanceSeconds(60);
          await engine.tick();
        }
        expect(await entryOf()).toBeDefined();
        for (let k = 0; k < 20 && !(await isProtected()); k++) {
          await sleep(CANDLE_PACE_MS);
          fixture.clock.advanceSeconds(60);
          await engine.tick();
        }
        // Two more candles: what is placed stays placed, nothing is placed again.
        for (let k = 0; k < 2; k++) {
          await sleep(CANDLE_PACE_MS);
          fixture.clock.advanceSeconds(60);
          await engine.tick();
        }

        const entry = (await entryOf())!;
        expect(entry.status).toBe('filled');
        const entryOrders = fake.state.orders.filter((o) => o.triggerPrice === null);
        expect(entryOrders).toHaveLength(1);
        expect(entryOrders[0]!.fills.length).toBeGreaterThan(1);
        const isLong = entry.action === 'open_long';
        const triggers = fake.state.orders.filter((o) => o.triggerPrice !== null);
        const mark = FAKE_PRICES.ETH as number;
        const stops = triggers.filter((o) =>
          isLong ? o.triggerPrice! < mark : o.triggerPrice! > mark,
        );
        const targets = triggers.filter((o) =>
          isLong ? o.triggerPrice! > mark : o.triggerPrice! < mark,
        );
        expect(stops.map((o) => o.status)).toEqual(['open']);
        expect(targets.map((o) => o.status)).toEqual(['open']);
        for (const order of triggers) {
          // The whole entry, not the part filled when the submit answered.
          expect(order.size).toBe(entryOrders[0]!.filled);
          expect(order.reduceOnly).toBe(true);
          expect(order.side).toBe(isLong ? 'sell' : 'buy');
        }
        const protective = (await fixture.ordersOf(botId)).filter(
          (o) => o.action === 'stop_loss' || o.action === 'take_profit',
        );
        expect(protective.map((o) => o.status)).toEqual(['accepted', 'accepted']);
        expect((await fixture.botRow(botId)).status).toBe('running');

        // The log tells the entry as the venue filled it: its size, the trades' weighted price and
        // every trade's fee (valued in USDT at the fee coin's price on the venue).
        const fills = entryOrders[0]!.fills;
        const units = venue === 'okx' ? (OKX_CONTRACT_VALUES.ETH as number) : 1;
        const base = fills.reduce((sum, f) => sum + f.size * units, 0);
        const cost = fills.reduce((sum, f) => sum + f.size * units * f.price, 0);
        const coinPrice = FEE_COIN_PRICES_USDT[FEE_COINS[venue]] as number;
        const feeUsdt = fills.reduce((sum, f) => sum + f.fee * coinPrice, 0);
        const opened = (await fixture.logsOf(botId)).filter((l) => l.event === 'trade_opened');
        expect(opened).toHaveLength(1);
        const details = opened[0]!.details as { amount: number; price: number; fee: number };
        expect(details.amount).toBeCloseTo(base, 10);
        expect(details.price).toBeCloseTo(cost / base, 6);
        expect(details.fee).toBeCloseTo(feeUsdt, 8);
      }, 60_000);
    },
  );
}
