// An alert on a live account whose venue answers as the real ones do (the fakes' venueFaithful
// behaviours): OKX acks with ids only, Binance answers NEW; the order is invisible to lookups for
// a second, then fills in several trades at different prices with fees in the venue's coin. The
// app's own client factory reaches the fakes through EXCHANGE_URL_OKX / EXCHANGE_URL_BINANCE.
// One alert is one order at the venue, and the signal ends as the venue's fill says.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePrivateExchange, startFakeExchange } from '../exchange/fake-exchange-private.js';
import { FEE_COIN_PRICES_USDT, FEE_COINS } from '../exchange/fake-venue-behaviour.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, createTestApp, type TestApp } from '../helpers/test-app.js';
import { createConfig, postAlert } from './webhook-flows.js';

type Venue = 'okx' | 'binance';
const BTC_CONTRACT_VALUE: Record<Venue, number> = { okx: 0.01, binance: 1 };

interface Execution {
  status: string;
  filled_quantity: string;
  price: string | null;
  fee: string;
  exchange_order_id: string | null;
}
interface Signal {
  status: string;
  error_kind: string | null;
  executions: Execution[];
}

/** Every venue-faithful behaviour but the artificial every-Nth rate refusal. */
const faithful = (exchange: Venue, extra: { fillDelayMs?: number } = {}) =>
  startFakeExchange({
    exchange,
    venueFaithful: true,
    tracksPositions: true,
    rateLimitEveryNthOrder: 0,
    ...extra,
  });

let keys = 0;
/** A user with a live account on `venue` and a webhook configuration on BTC trading it. */
async function liveWebhook(app: FastifyInstance, venue: Venue) {
  const { access: token } = await registerEmail(app, uniqueEmail(`whv${venue}`));
  const apiKey = `wh-venue-${venue}-${++keys}-key-0123456789`;
  const created = await call<{ id: number }>(app, 'POST', '/api/auth/apis/', {
    token,
    body: {
      name: `${venue} live`,
      exchange: venue,
      api_key: apiKey,
      api_secret: 'wh-venue-secret-0987654321',
      ...(venue === 'okx' ? { api_password: 'wh-venue-pass' } : {}),
      default_leverage: 2,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const config = await createConfig(app, token, created.body.id, { leverage: 2 });
  return { token, apiKey, config };
}

const FINAL = new Set(['filled', 'failed', 'ignored', 'refused']);

/** The signal once it is final (the venue's fills may come seconds after the alert). */
async function signalOf(app: FastifyInstance, token: string, id: unknown): Promise<Signal> {
  for (let i = 0; i < 300; i++) {
    const res = await call<Signal>(app, 'GET', `/api/webhook-trading/signals/${id}/`, { token });
    if (FINAL.has(res.body.status)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`signal ${id} did not settle`);
}

/** What the venue filled of its one order: base size, weighted price, fees in USDT. */
function venueFill(fake: FakePrivateExchange, apiKey: string, venue: Venue) {
  const orders = fake.state.orders.filter((o) => o.apiKey === apiKey);
  expect(orders).toHaveLength(1);
  const order = orders[0]!;
  const units = BTC_CONTRACT_VALUE[venue];
  const base = order.fills.reduce((sum, f) => sum + f.size * units, 0);
  const cost = order.fills.reduce((sum, f) => sum + f.size * units * f.price, 0);
  const feeCoin = FEE_COINS[venue];
  expect(order.fills.every((f) => f.feeAsset === feeCoin)).toBe(true);
  const feeUsdt = order.fills.reduce(
    (sum, f) => sum + f.fee * (FEE_COIN_PRICES_USDT[feeCoin] as number),
    0,
  );
  return { order, base, vwap: cost / base, feeUsdt };
}

function expectFilledAsVenue(signal: Signal, fill: ReturnType<typeof venueFill>) {
  expect(signal.status, JSON.stringify(signal)).toBe('filled');
  expect(signal.executions).toHaveLength(1);
  const [execution] = signal.executions;
  expect(execution!.status).toBe('filled');
  expect(execution!.exchange_order_id).toBe(fill.order.id);
  expect(Number(execution!.filled_quantity)).toBeCloseTo(fill.base, 10);
  expect(Number(execution!.price)).toBeCloseTo(fill.vwap, 6);
  // Every trade's fee, charged in the venue's coin and valued at its price on the venue.
  expect(fill.feeUsdt).toBeGreaterThan(0);
  expect(Number(execution!.fee)).toBeCloseTo(fill.feeUsdt, 8);
}

describe('an alert on a live account, the venue answering as the real ones do', () => {
  const fakes = {} as Record<Venue, FakePrivateExchange>;
  let ctx: TestApp;
  beforeAll(async () => {
    fakes.okx = await faithful('okx');
    fakes.binance = await faithful('binance');
    ctx = await createTestApp({
      env: {
        MARKET_DATA: 'simulated',
        EXCHANGE_URL_OKX: fakes.okx.url,
        EXCHANGE_URL_BINANCE: fakes.binance.url,
      },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await fakes.okx?.close();
    await fakes.binance?.close();
  });

  it.each(['okx', 'binance'] as const)(
    'on %s: one order, filled for the venue size at the trades’ weighted price, with every fee',
    async (venue) => {
      const { token, apiKey, config } = await liveWebhook(ctx.app, venue);
      const alert = await postAlert(ctx.app, config.path, { action: 'buy', amount: 300, id: 'v1' });
      expect(alert.status).toBe(202);
      const signal = await signalOf(ctx.app, token, alert.body.signal_id);
      const fill = venueFill(fakes[venue], apiKey, venue);
      expect(fill.order.fills.length).toBeGreaterThan(1);
      expect(new Set(fill.order.fills.map((f) => f.price)).size).toBeGreaterThan(1);
      expectFilledAsVenue(signal, fill);
    },
    30_000,
  );
});

describe('an alert whose order is not final within the submit', () => {
  let slow: FakePrivateExchange;
  let ctx: TestApp;
  beforeAll(async () => {
    slow = await faithful('okx', { fillDelayMs: 9_000 });
    ctx = await createTestApp({
      env: { MARKET_DATA: 'simulated', EXCHANGE_URL_OKX: slow.url },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await slow?.close();
  });

  it('ends filled, never failed, with one order at the venue', async () => {
    const { token, apiKey, config } = await liveWebhook(ctx.app, 'okx');
    const alert = await postAlert(ctx.app, config.path, { action: 'buy', amount: 300, id: 's1' });
    expect(alert.status).toBe(202);
    const signal = await signalOf(ctx.app, token, alert.body.signal_id);
    expectFilledAsVenue(signal, venueFill(slow, apiKey, 'okx'));
  }, 40_000);
});

describe.each(['okx', 'binance'] as const)(
  'an alert whose order %s refuses for its rate',
  (venue) => {
    let fake: FakePrivateExchange;
    let ctx: TestApp;
    beforeAll(async () => {
      // Every second order create is refused before the venue looks at it (Binance 429 -1003 with
      // Retry-After, OKX 429 50011 without).
      fake = await startFakeExchange({
        exchange: venue,
        venueFaithful: true,
        tracksPositions: true,
        rateLimitEveryNthOrder: 2,
      });
      ctx = await createTestApp({
        env: {
          MARKET_DATA: 'simulated',
          [venue === 'okx' ? 'EXCHANGE_URL_OKX' : 'EXCHANGE_URL_BINANCE']: fake.url,
        },
      });
    });
    afterAll(async () => {
      await ctx?.close();
      await fake?.close();
    });

    it('is sent again under the same key by the core and ends filled, one order', async () => {
      const first = await liveWebhook(ctx.app, venue);
      const second = await liveWebhook(ctx.app, venue);
      const a = await postAlert(ctx.app, first.config.path, {
        action: 'buy',
        amount: 300,
        id: 'r1',
      });
      expectFilledAsVenue(
        await signalOf(ctx.app, first.token, a.body.signal_id),
        venueFill(fake, first.apiKey, venue),
      );
      expect(fake.state.rateLimitRejections).toBe(0);
      // The venue's second order create is refused for its rate: the same order goes again.
      const b = await postAlert(ctx.app, second.config.path, {
        action: 'buy',
        amount: 300,
        id: 'r2',
      });
      const signal = await signalOf(ctx.app, second.token, b.body.signal_id);
      expect(fake.state.rateLimitRejections).toBe(1);
      expectFilledAsVenue(signal, venueFill(fake, second.apiKey, venue));
      // The refused request and the one taken carried the same client order id.
      const creates = fake.calls.filter((c) =>
        venue === 'okx' ? c.path === '/api/v5/trade/order' : c.path === '/fapi/v1/order',
      );
      const ids = creates
        .filter((c) => c.method === 'POST')
        .map((c) => c.params.clOrdId ?? c.params.newClientOrderId);
      expect(ids).toHaveLength(3);
      expect(ids[1]).toBe(ids[2]);
    }, 40_000);
  },
);
