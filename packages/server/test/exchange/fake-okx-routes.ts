import type { RouteAnswer, RouteRequest } from './fake-exchange-private.js';
import {
  FAKE_PRICES,
  type FakeFill,
  type FakeOrder,
  type FakeState,
  findByClientOrderId,
  isCancellable,
  isVisible,
  OKX_CONTRACT_VALUES,
  orderNamed,
  ordersOfKey,
  placeOrder,
  positionsOf,
  reducesPosition,
} from './fake-order-book.js';
import { FEE_COIN_PRICES_USDT, FEE_COINS } from './fake-venue-behaviour.js';

// OKX v5 swaps as ccxt's okx calls them. Sizes (sz, pos, fillSz) are contracts.

const PUBLIC_PATHS = new Set([
  '/api/v5/public/instruments',
  '/api/v5/public/time',
  '/api/v5/market/ticker',
]);
const SKEW_LIMIT_MS = 30_000;
/**
 * A request whose `expTime` header is past when it is processed. NOT confirmed: neither ccxt's
 * okx error table (4.5.84 and its current source) nor the documentation we could reach names
 * the code; ccxt raises its generic ExchangeError for it. Change it here when known.
 */
export const OKX_EXPIRED_CODE = '50157';

const ok = (data: unknown[]): RouteAnswer => ({ status: 200, body: { code: '0', msg: '', data } });
const fail = (status: number, code: string, msg: string): RouteAnswer => ({
  status,
  body: { code, msg, data: [] },
});
/** Per-order refusal: HTTP 200, code 1, the reason in data[0].sCode. */
const orderFail = (sCode: string, sMsg: string, clOrdId: string): RouteAnswer => ({
  status: 200,
  body: { code: '1', msg: '', data: [{ clOrdId, ordId: '', sCode, sMsg, tag: '' }] },
});

const baseOf = (instId: string | undefined) => (instId ?? '').split('-')[0] ?? '';

/**
 * Swaps of the fee coins (OKB, BNB), listed with a ticker at FEE_COIN_PRICES_USDT so that a fee
 * charged in one is valued in USDT as on the venue. Not traded here.
 */
const FEE_COIN_CONTRACT_VALUES: Readonly<Record<string, number>> = Object.fromEntries(
  Object.keys(FEE_COIN_PRICES_USDT).map((coin) => [coin, 1]),
);

/** The last price of a listed swap: the traded ones at their mark, the fee coins at theirs. */
const lastPriceOf = (base: string): number | undefined =>
  FAKE_PRICES[base] ?? FEE_COIN_PRICES_USDT[base];

function instruments() {
  return Object.entries({ ...OKX_CONTRACT_VALUES, ...FEE_COIN_CONTRACT_VALUES }).map(
    ([base, ctVal]) => ({
      instType: 'SWAP',
      instId: `${base}-USDT-SWAP`,
      uly: `${base}-USDT`,
      instFamily: `${base}-USDT`,
      baseCcy: '',
      quoteCcy: '',
      settleCcy: 'USDT',
      ctVal: String(ctVal),
      ctValCcy: base,
      ctMult: '1',
      ctType: 'linear',
      state: 'live',
      lever: '100',
      lotSz: '0.01',
      minSz: '0.01',
      tickSz: base === 'BTC' ? '0.1' : '0.01',
      listTime: '1606468572000',
      expTime: '',
    }),
  );
}

function ticker(instId: string | undefined, nowMs: number): RouteAnswer {
  const last = lastPriceOf(baseOf(instId));
  if (last === undefined) return fail(200, '51001', "Instrument ID doesn't exist.");
  const px = String(last);
  return ok([
    {
      instType: 'SWAP',
      instId,
      last: px,
      lastSz: '1',
      askPx: px,
      askSz: '100',
      bidPx: px,
      bidSz: '100',
      open24h: px,
      high24h: px,
      low24h: px,
      volCcy24h: '0',
      vol24h: '0',
      sodUtc0: px,
      sodUtc8: px,
      ts: String(nowMs),
    },
  ]);
}

/** What an order's trades cost, negative as OKX writes fees, with the coin charged. */
function feeOfFills(fills: readonly FakeFill[], state: FakeState) {
  const asset =
    fills[0]?.feeAsset ?? (state.behaviour.isFeeInPlatformCoin ? FEE_COINS.okx : 'USDT');
  const total = fills.reduce((sum, fill) => sum + fill.fee, 0);
  return { fee: total === 0 ? '0' : String(-Number(total.toFixed(10))), feeCcy: asset };
}

function orderState(order: FakeOrder): string {
  if (order.status === 'open') return order.filled > 0 ? 'partially_filled' : 'live';
  return order.status;
}

function orderData(order: FakeOrder, state: FakeState) {
  const last = order.fills.at(-1);
  const updatedMs = last?.timestampMs ?? order.timestampMs;
  return {
    instType: 'SWAP',
    instId: `${order.base}-USDT-SWAP`,
    ordId: order.id,
    clOrdId: order.clientOrderId,
    tag: '',
    px: order.price === null ? '' : String(order.price),
    sz: String(order.size),
    ordType: order.type === 'limit' && order.timeInForce === 'IOC' ? 'ioc' : order.type,
    side: order.side,
    posSide: order.positionSide,
    tdMode: 'cross',
    tgtCcy: '',
    accFillSz: String(order.filled),
    fillPx: last ? String(last.price) : '',
    fillSz: last ? String(last.size) : '0',
    fillTime: last ? String(last.timestampMs) : '',
    tradeId: last?.tradeId ?? '',
    avgPx: order.averagePrice === null ? '' : String(order.averagePrice),
    state: orderState(order),
    lever: '10',
    ...feeOfFills(order.fills, state),
    rebate: '0',
    rebateCcy: 'USDT',
    pnl: '0',
    category: 'normal',
    source: '',
    cancelSource: '',
    reduceOnly: String(order.reduceOnly),
    cTime: String(order.timestampMs),
    uTime: String(updatedMs),
  };
}

function algoData(order: FakeOrder) {
  const state = { open: 'live', filled: 'effective', canceled: 'canceled' }[order.status];
  return {
    instType: 'SWAP',
    instId: `${order.base}-USDT-SWAP`,
    algoId: order.id,
    algoClOrdId: order.clientOrderId,
    clOrdId: '',
    sz: String(order.size),
    ordType: 'conditional',
    side: order.side,
    posSide: order.positionSide,
    tdMode: 'cross',
    state,
    slTriggerPx: String(order.triggerPrice),
    slOrdPx: '-1',
    slTriggerPxType: 'last',
    tpTriggerPx: '',
    tpOrdPx: '',
    triggerPx: '',
    lever: '10',
    reduceOnly: String(order.reduceOnly),
    actualSz: '0',
    actualPx: '',
    cTime: String(order.timestampMs),
    uTime: String(order.timestampMs),
  };
}

function isSigned(request: RouteRequest): boolean {
  const h = request.headers;
  return Boolean(
    h['ok-access-key'] &&
      h['ok-access-sign'] &&
      h['ok-access-timestamp'] &&
      h['ok-access-passphrase'],
  );
}

export function okxRoutes(request: RouteRequest, state: FakeState): RouteAnswer {
  const { method, path, params, nowMs } = request;
  if (!PUBLIC_PATHS.has(path)) {
    if (!isSigned(request)) return fail(401, '50111', 'Invalid OK-ACCESS-KEY');
    const sentMs = Date.parse(String(request.headers['ok-access-timestamp']));
    if (Math.abs(sentMs - nowMs) > SKEW_LIMIT_MS) {
      return fail(400, '50102', 'Timestamp request expired');
    }
    const expTime = request.headers.exptime;
    if (
      state.behaviour.enforcesRequestExpiry &&
      typeof expTime === 'string' &&
      expTime !== '' &&
      nowMs > Number(expTime)
    ) {
      return fail(200, OKX_EXPIRED_CODE, 'Request timeout');
    }
  }
  const route = `${method} ${path.replace('/api/v5/', '')}`;
  switch (route) {
    case 'GET public/instruments':
      return ok(instruments());
    case 'GET public/time':
      return ok([{ ts: String(nowMs) }]);
    case 'GET market/ticker':
      return ticker(params.instId, nowMs);
    case 'GET account/balance': {
      const { total, free, used } = state.balance;
      return ok([
        {
          totalEq: String(total),
          uTime: String(nowMs),
          details: [
            {
              ccy: 'USDT',
              eq: String(total),
              cashBal: String(total),
              availBal: String(free),
              availEq: String(free),
              frozenBal: String(used),
              ordFrozen: '0',
              upl: '0',
              uTime: String(nowMs),
            },
          ],
        },
      ]);
    }
    case 'GET account/positions':
      return ok(
        positionsOf(state, request.apiKey).map((p) => ({
          instType: 'SWAP',
          instId: `${p.base}-USDT-SWAP`,
          mgnMode: 'cross',
          posId: `${p.base}-pos`,
          posSide: 'net',
          pos: String(p.side === 'long' ? p.size : -p.size),
          posCcy: '',
          avgPx: String(p.entryPrice),
          markPx: String(p.markPrice),
          upl: String(p.unrealizedPnl),
          lever: String(p.leverage),
          liqPx: '',
          imr: '',
          margin: '',
          mmr: '0',
          notionalUsd: String(p.size * (OKX_CONTRACT_VALUES[p.base] ?? 1) * p.markPrice),
          ccy: 'USDT',
          cTime: '0',
          uTime: '0',
        })),
      );
    case 'GET account/config':
      return ok([
        { uid: '1', acctLv: '2', posMode: 'net_mode', ...state.okxPermissions, label: 'qs' },
      ]);
    case 'POST account/set-leverage':
      state.leverage[baseOf(params.instId)] = Number(params.lever);
      return ok([
        { lever: params.lever, mgnMode: params.mgnMode, instId: params.instId, posSide: '' },
      ]);
    case 'POST trade/order': {
      const clOrdId = params.clOrdId ?? '';
      if (findByClientOrderId(state, clOrdId) !== undefined) {
        return orderFail('51016', 'Duplicated clOrdId', clOrdId);
      }
      if (
        params.reduceOnly === 'true' &&
        !reducesPosition(
          state,
          request.apiKey,
          baseOf(params.instId),
          params.side === 'sell' ? 'sell' : 'buy',
        )
      ) {
        return orderFail('51169', 'No position in this direction to reduce', clOrdId);
      }
      const placed = placeOrder(state, {
        apiKey: request.apiKey,
        clientOrderId: clOrdId,
        base: baseOf(params.instId),
        side: params.side === 'sell' ? 'sell' : 'buy',
        type: params.ordType === 'limit' || params.ordType === 'ioc' ? 'limit' : 'market',
        timeInForce: params.ordType === 'ioc' ? 'IOC' : 'GTC',
        size: Number(params.sz),
        price: params.px ? Number(params.px) : null,
        triggerPrice: null,
        reduceOnly: params.reduceOnly === 'true',
        positionSide: params.posSide ?? 'net',
        timestampMs: nowMs,
      });
      // The venue acks ids only (no state, no fill), as recorded (recorded/okx-answers.json).
      const inTimeUs = `${nowMs}000`;
      return {
        status: 200,
        body: {
          code: '0',
          msg: '',
          data: [
            {
              clOrdId,
              ordId: placed.id,
              tag: '',
              ts: String(nowMs),
              sCode: '0',
              sMsg: 'Order placed',
            },
          ],
          inTime: inTimeUs,
          outTime: inTimeUs,
        },
      };
    }
    case 'POST trade/order-algo': {
      const algoClOrdId = params.algoClOrdId ?? '';
      if (findByClientOrderId(state, algoClOrdId) !== undefined) {
        return orderFail('51016', 'Duplicated clOrdId', algoClOrdId);
      }
      const placed = placeOrder(state, {
        apiKey: request.apiKey,
        clientOrderId: algoClOrdId,
        base: baseOf(params.instId),
        side: params.side === 'sell' ? 'sell' : 'buy',
        type: 'market',
        timeInForce: 'GTC',
        size: Number(params.sz),
        price: null,
        triggerPrice: Number(params.slTriggerPx ?? params.tpTriggerPx),
        reduceOnly: params.reduceOnly === 'true',
        positionSide: params.posSide ?? 'net',
        timestampMs: nowMs,
      });
      return ok([{ algoId: placed.id, algoClOrdId, clOrdId: '', sCode: '0', sMsg: '' }]);
    }
    case 'GET trade/order-algo': {
      const order = state.orders.find(
        (o) =>
          o.triggerPrice !== null &&
          (params.algoClOrdId !== undefined
            ? o.clientOrderId === params.algoClOrdId
            : o.id === params.algoId),
      );
      return order ? ok([algoData(order)]) : fail(200, '51603', 'Order does not exist');
    }
    case 'GET trade/orders-algo-pending':
      return ok(
        state.orders
          .filter((o) => o.status === 'open' && o.triggerPrice !== null)
          .filter((o) => !params.instId || `${o.base}-USDT-SWAP` === params.instId)
          .map(algoData),
      );
    case 'POST trade/cancel-algos': {
      const order = state.orders.find(
        (o) => o.id === params.algoId && o.triggerPrice !== null && o.status === 'open',
      );
      if (!order) return orderFail('51400', 'Cancellation failed as the order does not exist.', '');
      order.status = 'canceled';
      return ok([{ algoId: order.id, sCode: '0', sMsg: '' }]);
    }
    case 'GET trade/order': {
      const named = orderNamed(state, { clientOrderId: params.clOrdId, id: params.ordId }, false);
      const order = named && isVisible(named, nowMs) ? named : undefined;
      return order ? ok([orderData(order, state)]) : fail(200, '51603', 'Order does not exist');
    }
    case 'POST trade/cancel-order': {
      const named = orderNamed(state, { id: params.ordId }, false);
      const order = named && isCancellable(named) ? named : undefined;
      if (!order) return orderFail('51400', 'Cancellation failed as the order does not exist.', '');
      order.status = 'canceled';
      return ok([{ clOrdId: order.clientOrderId, ordId: order.id, sCode: '0', sMsg: '' }]);
    }
    case 'GET trade/orders-pending':
      return ok(
        state.orders
          .filter((o) => o.status === 'open' && o.triggerPrice === null && isVisible(o, nowMs))
          .filter((o) => !params.instId || `${o.base}-USDT-SWAP` === params.instId)
          .map((o) => orderData(o, state)),
      );
    case 'GET trade/fills':
    case 'GET trade/fills-history':
      // One row per venue trade, newest first as OKX lists them.
      // The caller's own fills; `ordId` narrows them to one order; at most `limit` (default 100).
      return ok(
        ordersOfKey(state, request.apiKey)
          .filter(
            (o) =>
              `${o.base}-USDT-SWAP` === params.instId &&
              (params.ordId === undefined || o.id === params.ordId),
          )
          .flatMap((o) => o.fills.map((fill) => fillRow(o, fill)))
          .sort((a, b) => Number(b.ts) - Number(a.ts) || Number(b.tradeId) - Number(a.tradeId))
          .slice(0, Math.min(Number(params.limit ?? 100) || 100, 100)),
      );
    default:
      return fail(404, '404', `no route ${route}`);
  }
}

function fillRow(order: FakeOrder, fill: FakeFill) {
  return {
    instType: 'SWAP',
    instId: `${order.base}-USDT-SWAP`,
    tradeId: fill.tradeId,
    ordId: order.id,
    clOrdId: order.clientOrderId,
    billId: `${fill.tradeId}0`,
    tag: '',
    side: order.side,
    posSide: order.positionSide,
    fillSz: String(fill.size),
    fillPx: String(fill.price),
    fillPnl: '0',
    fee: String(-fill.fee),
    feeCcy: fill.feeAsset,
    feeRate: '-0.0005',
    execType: 'T',
    fillTime: String(fill.timestampMs),
    ts: String(fill.timestampMs),
  };
}
