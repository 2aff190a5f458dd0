import { createHmac } from 'node:crypto';
import type { Exchange } from '@quantsquare/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { PositionMode } from '../../src/exchange/exchange-capabilities.js';
import type {
  ExchangeClient,
  ExchangeOrder,
  OrderRequest,
} from '../../src/exchange/exchange-client.js';
import { API_SECRET, adapterErrorOf, clientAt } from './exchange-test-helpers.js';
import {
  type FakeCall,
  type FakeFailure,
  type FakePrivateExchange,
  startFakeExchange,
} from './fake-exchange-private.js';
import { recorded, SYMBOLS } from './fake-venue-client.js';

// The hot order requests sent lean (lean-requests.ts) against the same requests sent by ccxt's
// own calls, at the same fake venue: the same parameters, a signature the venue's documented
// scheme accepts (checked on ccxt's requests too, which proves the check), the same parsed
// answers, and the same errors from the venues' recorded error answers.

const { ETH } = SYMBOLS;
const errors =
  recorded<
    Record<
      Exchange,
      Record<string, { status: number; body: unknown; headers?: Record<string, string> }>
    >
  >('venue-errors.json');

/** A recorded error answer of the venue, as the fake's failure. */
function refusal(exchange: Exchange, name: string): FakeFailure {
  const answer = errors[exchange][name];
  if (!answer) throw new Error(`no recorded ${exchange} ${name}`);
  return { kind: 'http', ...answer };
}

let fake: FakePrivateExchange | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The documented signatures: Binance HMAC-SHA256 hex of the query; OKX base64 of the prehash. */
function signatureHolds(exchange: Exchange, call: FakeCall): boolean {
  if (exchange === 'binance') {
    const signed = call.method === 'POST' ? call.body : call.rawQuery;
    const at = signed.lastIndexOf('&signature=');
    const payload = signed.slice(0, at);
    const signature = signed.slice(at + '&signature='.length);
    return createHmac('sha256', API_SECRET).update(payload).digest('hex') === signature;
  }
  const timestamp = String(call.headers['ok-access-timestamp']);
  const query = call.rawQuery ? `?${call.rawQuery}` : '';
  const prehash = `${timestamp}${call.method}${call.path}${query}${call.body}`;
  return (
    createHmac('sha256', API_SECRET).update(prehash).digest('base64') ===
    call.headers['ok-access-sign']
  );
}

/** What a call asks, without what differs between two runs (time, signature, ids, run tag). */
function asked(call: FakeCall, run: string) {
  const volatile = new Set(['timestamp', 'signature', 'orderId', 'ordId', 'algoId']);
  const params = Object.fromEntries(
    Object.entries(call.params)
      .filter(([key]) => !volatile.has(key))
      .map(([key, value]) => [key, value.replace(run, 'RUN')]),
  );
  return { method: call.method, path: call.path, params };
}

/** The hot calls of one account, with client ids tagged by `run`. */
async function hotCalls(client: ExchangeClient, run: string) {
  // A market buy, a reduce-only market sell, a marketable IOC limit and a resting limit.
  const requests: readonly OrderRequest[] = [
    { symbol: ETH, side: 'buy', type: 'market', amount: 0.02, clientOrderId: `${run}buy` },
    {
      symbol: ETH,
      side: 'sell',
      type: 'market',
      amount: 0.01,
      clientOrderId: `${run}cut`,
      reduceOnly: true,
    },
    {
      symbol: ETH,
      side: 'buy',
      type: 'limit',
      price: 1999.123456,
      timeInForce: 'IOC',
      amount: 0.0234567,
      clientOrderId: `${run}ioc`,
    },
    {
      symbol: ETH,
      side: 'buy',
      type: 'limit',
      price: 1000,
      amount: 0.02,
      clientOrderId: `${run}rest`,
    },
  ];
  const placed: ExchangeOrder[] = [];
  for (const request of requests) placed.push(await client.createOrder(request));
  const [bought, reduced, capped, resting] = placed as [
    ExchangeOrder,
    ExchangeOrder,
    ExchangeOrder,
    ExchangeOrder,
  ];
  const found = await client.fetchOrderByClientId(ETH, `${run}buy`);
  const trades = await client.fetchOrderTrades(ETH, bought.id);
  await client.cancelOrder(ETH, resting.id);
  const missing = await client.fetchOrderByClientId(ETH, `${run}none`);
  // What may differ between two runs: ids, times.
  const plain = ({
    id: _id,
    clientOrderId: _c,
    timestamp: _t,
    filledAtMs: _f,
    ...rest
  }: Record<string, unknown>) => rest;
  return {
    orders: [bought, reduced, capped, resting, found].map((o) => plain({ ...o })),
    trades: (trades ?? []).map(({ id: _id, orderId: _o, timestamp: _t, ...rest }) => rest),
    missing,
  };
}

describe.each(['binance', 'okx'] as const)('%s hot requests, lean and through ccxt', (exchange) => {
  it.each(['net', 'hedge'] as const)(
    'are the same requests, signed as the venue checks, with the same answers (%s mode)',
    async (positionMode: PositionMode) => {
      fake = await startFakeExchange({ exchange, tracksPositions: false });
      const viaCcxt = clientAt(fake, exchange, { positionMode, leanRequests: false }).client;
      const lean = clientAt(fake, exchange, { positionMode }).client;
      await viaCcxt.loadMarkets();
      await lean.loadMarkets();
      const before = fake.calls.length;
      const throughCcxt = await hotCalls(viaCcxt, 'qsc');
      const middle = fake.calls.length;
      const throughLean = await hotCalls(lean, 'qsl');
      const ccxtCalls = fake.calls.slice(before, middle);
      const leanCalls = fake.calls.slice(middle);
      expect(leanCalls.map((c) => asked(c, 'qsl'))).toEqual(ccxtCalls.map((c) => asked(c, 'qsc')));
      expect(ccxtCalls.every((call) => signatureHolds(exchange, call))).toBe(true);
      expect(leanCalls.every((call) => signatureHolds(exchange, call))).toBe(true);
      expect(throughLean).toEqual(throughCcxt);
      expect(throughLean.missing).toBeNull();
      expect(throughLean.trades.length).toBeGreaterThan(0);
    },
  );

  it('carries the request window as the venue expects (Binance recvWindow, OKX expTime)', async () => {
    fake = await startFakeExchange({ exchange, tracksPositions: false });
    const { client } = clientAt(fake, exchange);
    const claimedAtMs = Date.now();
    await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 0.02,
      clientOrderId: 'qswindow1',
      claimedAtMs,
      expiresAtMs: claimedAtMs + 4_000,
    });
    const [call] = fake.calls.filter((c) => c.method === 'POST');
    if (exchange === 'binance') {
      expect(call?.params.timestamp).toBe(String(claimedAtMs));
      expect(call?.params.recvWindow).toBe('4000');
    } else {
      expect(call?.headers.exptime).toBe(String(claimedAtMs + 4_000));
    }
  });

  it('maps the venue’s recorded refusals as ccxt does: rate limit with its wait, not found', async () => {
    fake = await startFakeExchange({ exchange, tracksPositions: false });
    const viaCcxt = clientAt(fake, exchange, { leanRequests: false }).client;
    const lean = clientAt(fake, exchange).client;
    const orderPath = exchange === 'binance' ? '/fapi/v1/order' : '/api/v5/trade/order';
    const refusals = [];
    for (const [client, id] of [
      [viaCcxt, 'qsrlc'],
      [lean, 'qsrll'],
    ] as const) {
      fake.failNext('POST', orderPath, refusal(exchange, 'rateLimited'));
      const refused = await adapterErrorOf(
        client.createOrder({
          symbol: ETH,
          side: 'buy',
          type: 'market',
          amount: 0.02,
          clientOrderId: id,
        }),
      );
      refusals.push({ kind: refused.kind, retryAfterMs: refused.retryAfterMs });
    }
    expect(refusals[1]).toEqual(refusals[0]);
    expect(refusals[1]?.kind).toBe('rate_limited');
    // A lookup the venue answers "no such order" is null on both paths, not an error.
    for (const client of [viaCcxt, lean]) {
      fake.failNext('GET', orderPath, refusal(exchange, 'orderNotFound'), 2);
      expect(await client.fetchOrderByClientId(ETH, 'qsnothere')).toBeNull();
    }
  });

  it('looks an order up by its client id when its answer is lost, and finds it', async () => {
    fake = await startFakeExchange({ exchange, tracksPositions: false });
    const { client } = clientAt(fake, exchange);
    const orderPath = exchange === 'binance' ? '/fapi/v1/order' : '/api/v5/trade/order';
    fake.failNext('POST', orderPath, { kind: 'hang-after-accept' });
    const order = await client.createOrder({
      symbol: ETH,
      side: 'buy',
      type: 'market',
      amount: 0.02,
      clientOrderId: 'qslost1',
    });
    expect(order.clientOrderId).toBe('qslost1');
    expect(fake.callsTo(orderPath, 'POST')).toHaveLength(1);
    expect(fake.callsTo(orderPath, 'GET')).toHaveLength(1);
  });
});
