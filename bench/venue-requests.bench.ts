// What one hot order request costs this process, per venue: create, fetch by client order id
// and cancel, (a) through ccxt's own calls, (b) lean (exchange/ccxt/lean-requests.ts: our
// request and signature, ccxt's parsing and error mapping), both through the exchange client,
// and (c) the floor: a bare signed keep-alive request whose JSON answer is parsed and nothing
// more. The fake venue answers in a process of its own, so this process's CPU is the client's.
// A measurement, never a test: nothing asserts times.
import { createHmac } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import { createCcxtExchangeClient } from '../packages/server/src/exchange/ccxt/index.js';
import type { ExchangeClient } from '../packages/server/src/exchange/exchange-client.js';
import { startFakeProcess } from './bench-support.js';

const ACCOUNTS = Number(process.env.BENCH_VENUE_ACCOUNTS ?? 400);
/** Requests of each kind per account (accounts side by side, each one request at a time). */
const PER_ACCOUNT = Number(process.env.BENCH_VENUE_PER_ACCOUNT ?? 5);
const SYMBOL = 'ETH/USDT:USDT';
const SECRET = 'bench-venue-secret';

type Venue = 'binance' | 'okx';
type Kind = 'create' | 'fetch by client id' | 'cancel';

interface Measured {
  readonly cpuUs: number;
  readonly perSecond: number;
  readonly failed: number;
}

// A full collection before each measurement: the garbage of building 400 clients (or of the path
// measured before) is not charged to the next path.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * Runs `one(account, i)` for every account side by side, PER_ACCOUNT times each, after a warm-up
 * round of `warm(account)` (not measured: first calls compile).
 */
async function measure(
  one: (account: number, i: number) => Promise<unknown>,
  warm: (account: number) => Promise<unknown> = (account) => one(account, PER_ACCOUNT),
): Promise<Measured> {
  await Promise.all(
    Array.from({ length: ACCOUNTS }, (_, account) => warm(account).catch(() => {})),
  );
  collect();
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ACCOUNTS }, async (_, account) => {
      for (let i = 0; i < PER_ACCOUNT; i++) {
        try {
          await one(account, i);
        } catch {
          failed++;
        }
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const requests = ACCOUNTS * PER_ACCOUNT;
  return {
    cpuUs: (used.user + used.system) / requests,
    perSecond: requests / ((performance.now() - started) / 1000),
    failed,
  };
}

/** The floor: a signed request as the venue documents it, its JSON parsed, nothing else. */
function bareRequests(url: string, venue: Venue) {
  const pool = new Pool(url, { connections: 256 });
  const send = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    query: string,
    key: string,
  ) => {
    const answer =
      venue === 'binance'
        ? await (() => {
            const signed = `${query}&timestamp=${Date.now()}`;
            const full = `${signed}&signature=${createHmac('sha256', SECRET).update(signed).digest('hex')}`;
            return pool.request({
              method,
              path: method === 'POST' ? path : `${path}?${full}`,
              headers: {
                'X-MBX-APIKEY': key,
                ...(method === 'POST'
                  ? { 'Content-Type': 'application/x-www-form-urlencoded' }
                  : {}),
              },
              body: method === 'POST' ? full : null,
            });
          })()
        : await (() => {
            const at = new Date().toISOString();
            const body =
              method === 'POST'
                ? JSON.stringify(Object.fromEntries(new URLSearchParams(query)))
                : '';
            const target = method === 'GET' ? `${path}?${query}` : path;
            const sign = createHmac('sha256', SECRET)
              .update(`${at}${method}${target}${body}`)
              .digest('base64');
            return pool.request({
              method,
              path: target,
              headers: {
                'OK-ACCESS-KEY': key,
                'OK-ACCESS-PASSPHRASE': 'p',
                'OK-ACCESS-TIMESTAMP': at,
                'OK-ACCESS-SIGN': sign,
                ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
              },
              body: method === 'POST' ? body : null,
            });
          })();
    return JSON.parse(await answer.body.text()) as unknown;
  };
  const binance = venue === 'binance';
  return {
    create: (key: string, id: string, price?: number) =>
      binance
        ? send(
            'POST',
            '/fapi/v1/order',
            `symbol=ETHUSDT&side=BUY&type=${price ? 'LIMIT' : 'MARKET'}&quantity=0.02${price ? `&price=${price}&timeInForce=GTC` : ''}&newClientOrderId=${id}&newOrderRespType=RESULT`,
            key,
          )
        : send(
            'POST',
            '/api/v5/trade/order',
            `instId=ETH-USDT-SWAP&side=buy&ordType=${price ? 'limit' : 'market'}&sz=0.2${price ? `&px=${price}` : ''}&tdMode=cross&clOrdId=${id}`,
            key,
          ),
    fetch: (key: string, id: string) =>
      binance
        ? send('GET', '/fapi/v1/order', `symbol=ETHUSDT&origClientOrderId=${id}`, key)
        : send('GET', '/api/v5/trade/order', `instId=ETH-USDT-SWAP&clOrdId=${id}`, key),
    cancel: (key: string, orderId: string) =>
      binance
        ? send('DELETE', '/fapi/v1/order', `symbol=ETHUSDT&orderId=${orderId}`, key)
        : send('POST', '/api/v5/trade/cancel-order', `instId=ETH-USDT-SWAP&ordId=${orderId}`, key),
    close: () => pool.close(),
  };
}

const orderIdOf = (answer: unknown, venue: Venue): string =>
  venue === 'binance'
    ? String((answer as { orderId: number }).orderId)
    : String((answer as { data: { ordId: string }[] }).data[0]?.ordId);

async function benchVenue(venue: Venue): Promise<string[]> {
  const fake = await startFakeProcess({ venue, orderRateLimit: false });
  const lines: string[] = [`  ${venue === 'binance' ? 'Binance USDⓈ-M' : 'OKX'}:`];
  try {
    const clientsOf = (lean: boolean, run: string): ExchangeClient[] =>
      Array.from({ length: ACCOUNTS }, (_, i) =>
        createCcxtExchangeClient({
          exchange: venue,
          apiKey: `vr-${run}-${i}`,
          apiSecret: SECRET,
          apiPassword: 'p',
          isTestnet: false,
          positionMode: 'net',
          urlsOverride: fake.url,
          leanRequests: lean,
        }),
      );
    const results = new Map<string, Map<Kind, Measured>>();
    for (const [label, lean] of [
      ['through ccxt', false],
      ['lean', true],
    ] as const) {
      const run = lean ? 'l' : 'c';
      const clients = clientsOf(lean, run);
      await Promise.all(clients.map((client) => client.loadMarkets()));
      const resting: string[][] = clients.map(() => []);
      const byKind = new Map<Kind, Measured>();
      byKind.set(
        'create',
        await measure((a, i) =>
          (clients[a] as ExchangeClient).createOrder({
            symbol: SYMBOL,
            side: 'buy',
            type: 'market',
            amount: 0.02,
            clientOrderId: `vr${run}${a}x${i}`,
          }),
        ),
      );
      byKind.set(
        'fetch by client id',
        await measure((a, i) =>
          (clients[a] as ExchangeClient).fetchOrderByClientId(SYMBOL, `vr${run}${a}x${i}`),
        ),
      );
      // Resting orders to cancel (one more for the warm-up), placed outside the measurement.
      await Promise.all(
        clients.map(async (client, a) => {
          for (let i = 0; i <= PER_ACCOUNT; i++) {
            const order = await client.createOrder({
              symbol: SYMBOL,
              side: 'buy',
              type: 'limit',
              price: 1000,
              amount: 0.02,
              clientOrderId: `vr${run}${a}r${i}`,
            });
            resting[a]?.push(order.id);
          }
        }),
      );
      byKind.set(
        'cancel',
        await measure((a, i) =>
          (clients[a] as ExchangeClient).cancelOrder(SYMBOL, resting[a]?.[i] ?? ''),
        ),
      );
      results.set(label, byKind);
    }
    const bare = bareRequests(fake.url, venue);
    const floor = new Map<Kind, Measured>();
    floor.set('create', await measure((a, i) => bare.create(`vr-b-${a}`, `vrb${a}x${i}`)));
    floor.set(
      'fetch by client id',
      await measure((a, i) => bare.fetch(`vr-b-${a}`, `vrb${a}x${i}`)),
    );
    const toCancel = await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, a) => {
        const ids: string[] = [];
        for (let i = 0; i <= PER_ACCOUNT; i++) {
          ids.push(orderIdOf(await bare.create(`vr-b-${a}`, `vrb${a}r${i}`, 1000), venue));
        }
        return ids;
      }),
    );
    floor.set('cancel', await measure((a, i) => bare.cancel(`vr-b-${a}`, toCancel[a]?.[i] ?? '')));
    await bare.close();
    for (const kind of ['create', 'fetch by client id', 'cancel'] as const) {
      const base = floor.get(kind) as Measured;
      const describe = (m: Measured) =>
        `${m.cpuUs.toFixed(0)} µs CPU (${(m.cpuUs / base.cpuUs).toFixed(1)}× the floor)${m.failed ? `, ${m.failed} FAILED` : ''}`;
      lines.push(
        `    ${kind}: through ccxt ${describe(results.get('through ccxt')?.get(kind) as Measured)}; lean ${describe(results.get('lean')?.get(kind) as Measured)}; floor ${base.cpuUs.toFixed(0)} µs${base.failed ? `, ${base.failed} FAILED` : ''}`,
      );
    }
  } finally {
    await fake.stop();
  }
  return lines;
}

export async function benchVenueRequests(): Promise<string[]> {
  const lines = [
    `one order request's CPU in this process: ${ACCOUNTS} accounts side by side, ${PER_ACCOUNT} requests of each kind each, to the loopback fake in a process of its own`,
    '  floor: a bare signed keep-alive request (undici pool), its JSON answer parsed; goal: each path ≤ 2× the floor',
  ];
  for (const venue of ['binance', 'okx'] as const) lines.push(...(await benchVenue(venue)));
  return lines;
}
