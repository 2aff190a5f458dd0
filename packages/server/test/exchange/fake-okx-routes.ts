import {
  FAKE_PRICES,
  type FakeOrder,
  type FakeState,
  findByClientOrderId,
  OKX_CONTRACT_VALUES,
  placeOrder,
  positionsOf,
  type RouteAnswer,
  type RouteRequest,
  reducesPosition,
} from './fake-exchange-private.js';

// OKX v5 swaps as ccxt's okx calls them. Sizes (sz, pos, fillSz) are contracts.

const PUBLIC_PATHS = new Set(['/api/v5/public/instruments', '/api/v5/public/time']);
const SKEW_LIMIT_MS = 30_000;

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

function instruments() {
  return Object.entries(OKX_CONTRACT_VALUES).map(([base, ctVal]) => ({
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
  }));
}

function orderData(order: FakeOrder) {
  const state = { open: 'live', filled: 'filled', canceled: 'canceled' }[order.status];
  const ctVal = OKX_CONTRACT_VALUES[order.base] ?? 1;
  const fee = order.filled * ctVal * (order.averagePrice ?? 0) * 0.0005;
  return {
    instType: 'SWAP',
    instId: `${order.base}-USDT-SWAP`,
    ordId: order.id,
    clOrdId: order.clientOrderId,
    px: order.price === null ? '' : String(order.price),
    sz: String(order.size),
    ordType: order.type,
    side: order.side,
    posSide: order.positionSide,
    tdMode: 'cross',
    accFillSz: String(order.filled),
    fillPx: order.averagePrice === null ? '' : String(order.averagePrice),
    avgPx: order.averagePrice === null ? '' : String(order.averagePrice),
    state,
    lever: '10',
    fee: String(-fee),
    feeCcy: 'USDT',
    reduceOnly: String(order.reduceOnly),
    cTime: String(order.timestampMs),
    uTime: String(order.timestampMs),
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
  }
  const route = `${method} ${path.replace('/api/v5/', '')}`;
  switch (route) {
    case 'GET public/instruments':
      return ok(instruments());
    case 'GET public/time':
      return ok([{ ts: String(nowMs) }]);
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
      return ok([{ clOrdId, ordId: placed.id, sCode: '0', sMsg: 'Order placed', tag: '' }]);
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
      const order = state.orders.find(
        (o) =>
          o.triggerPrice === null &&
          (params.clOrdId !== undefined
            ? o.clientOrderId === params.clOrdId
            : o.id === params.ordId),
      );
      return order ? ok([orderData(order)]) : fail(200, '51603', 'Order does not exist');
    }
    case 'POST trade/cancel-order': {
      const order = state.orders.find(
        (o) => o.id === params.ordId && o.triggerPrice === null && o.status === 'open',
      );
      if (!order) return orderFail('51400', 'Cancellation failed as the order does not exist.', '');
      order.status = 'canceled';
      return ok([{ clOrdId: order.clientOrderId, ordId: order.id, sCode: '0', sMsg: '' }]);
    }
    case 'GET trade/orders-pending':
      return ok(
        state.orders
          .filter((o) => o.status === 'open' && o.triggerPrice === null)
          .filter((o) => !params.instId || `${o.base}-USDT-SWAP` === params.instId)
          .map(orderData),
      );
    case 'GET trade/fills':
    case 'GET trade/fills-history':
      return ok(
        state.orders
          .filter((o) => o.filled > 0 && `${o.base}-USDT-SWAP` === params.instId)
          .map((o) => ({
            instType: 'SWAP',
            instId: params.instId,
            tradeId: String(Number(o.id) + 500_000),
            ordId: o.id,
            clOrdId: o.clientOrderId,
            billId: o.id,
            side: o.side,
            posSide: o.positionSide,
            fillSz: String(o.filled),
            fillPx: String(o.averagePrice ?? FAKE_PRICES[o.base]),
            fee: String(
              -(o.filled * (OKX_CONTRACT_VALUES[o.base] ?? 1) * (o.averagePrice ?? 0) * 0.0005),
            ),
            feeCcy: 'USDT',
            execType: 'T',
            ts: String(o.timestampMs),
          })),
      );
    default:
      return fail(404, '404', `no route ${route}`);
  }
}
