import {
  clean,
  feeOf,
  iocFilledSize,
  type PlannedTrade,
  planTrades,
  type VenueBehaviour,
} from './fake-venue-behaviour.js';

// The fake venues' books: orders, their trades and (with `tracksPositions`) each key's net
// position, in the venue's own units (OKX: contracts). Time is the fake's clock (`nowMs` of a
// request): a planned trade happens when a request at or after its time is processed (`settle`).

export type FakeVenue = 'binance' | 'okx';

/** Marked prices: market orders fill here (the first trade; later ones walk away from it). */
export const FAKE_PRICES: Readonly<Record<string, number>> = { BTC: 50_000, ETH: 2_000 };
/** OKX contract values (base per contract). */
export const OKX_CONTRACT_VALUES: Readonly<Record<string, number>> = { BTC: 0.01, ETH: 0.1 };

/** One venue trade of an order (a row of Binance userTrades / OKX fills). */
export interface FakeFill {
  readonly tradeId: string;
  /** In the venue's units. */
  readonly size: number;
  readonly price: number;
  /** Positive: what was charged, in `feeAsset`. */
  readonly fee: number;
  readonly feeAsset: string;
  readonly timestampMs: number;
}

export interface FakeOrder {
  id: string;
  /** The API key that placed it (each key is one exchange account). */
  apiKey: string;
  clientOrderId: string;
  /** Base asset, e.g. ETH. */
  base: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  /** Limit orders: IOC fills at once if marketable, else expires; GTC rests. */
  timeInForce: 'GTC' | 'IOC';
  /** In the exchange's units (OKX: contracts). */
  size: number;
  price: number | null;
  /** Stop / take-profit trigger; such orders live in the exchange's algo book. */
  triggerPrice: number | null;
  filled: number;
  averagePrice: number | null;
  reduceOnly: boolean;
  /** LONG/SHORT/BOTH (binance) or long/short/net (okx). */
  positionSide: string;
  /** `canceled` also stands for an IOC whose unfilled rest expired (Binance says EXPIRED). */
  status: 'open' | 'filled' | 'canceled';
  timestampMs: number;
  /** Lookups find it from this time on (`lookupLagMs` after the ack). */
  visibleAtMs: number;
  /** Trades still to happen (`fillDelayMs`, `tradeSpacingMs`). */
  plannedTrades: PlannedTrade[];
  /** Trades that happened, oldest first. */
  fills: FakeFill[];
  /** Whatever is unfilled once the planned trades are done expires (IOC). */
  expiresAfterTrades: boolean;
}

export interface FakePosition {
  base: string;
  side: 'long' | 'short';
  /** In the exchange's units (OKX: contracts), positive. */
  size: number;
  entryPrice: number;
  markPrice: number;
  unrealizedPnl: number;
  leverage: number;
}

export interface FakeState {
  readonly venue: FakeVenue;
  /** The behaviours switched on (fake-venue-behaviour.ts). */
  readonly behaviour: VenueBehaviour;
  orders: FakeOrder[];
  readonly ordersByClientId: Map<string, FakeOrder>;
  /** Indexes over `orders` (a busy fake answers from them, not by scanning every order). */
  readonly ordersById: Map<string, FakeOrder>;
  readonly ordersOfKey: Map<string, FakeOrder[]>;
  /** The orders with trades still planned (what `settle` plays). */
  readonly unsettled: Set<FakeOrder>;
  /** The positions answered without `tracksPositions` (tests set them by hand). */
  positions: FakePosition[];
  /** With `tracksPositions`: each API key's net positions, as its fills made them. */
  readonly tracksPositions: boolean;
  readonly accountPositions: Map<string, FakePosition[]>;
  /** Orders refused for the key's order rate (`orderRateLimit`) or `rateLimitEveryNthOrder`. */
  rateLimitRejections: number;
  /** Order creates received (what `rateLimitEveryNthOrder` counts). */
  orderRequests: number;
  balance: { total: number; free: number; used: number };
  leverage: Record<string, number>;
  /** OKX account/config `perm` and `ip`. */
  okxPermissions: { perm: string; ip: string };
  /**
   * The fake's clock minus the real clock (ms): a client off by more than the venue's window
   * gets a skew error. Tests move the fake's time forward with `advanceClock`.
   */
  serverClockOffsetMs: number;
  nextOrderId: number;
  nextTradeId: number;
}

export function findByClientOrderId(state: FakeState, clientOrderId: string) {
  return state.ordersByClientId.get(clientOrderId);
}

/** Whether lookups see the order at `nowMs` (`lookupLagMs`). */
export const isVisible = (order: FakeOrder, nowMs: number): boolean => nowMs >= order.visibleAtMs;

/** Whether a cancel can still take it: open, and no fill already under way. */
export const isCancellable = (order: FakeOrder): boolean =>
  order.status === 'open' && order.plannedTrades.length === 0;

/** Base asset per unit of size (OKX: the contract value). */
export function baseUnitsPerSize(state: FakeState, base: string): number {
  return state.venue === 'okx' ? (OKX_CONTRACT_VALUES[base] ?? 1) : 1;
}

/** The positions a key's position reads answer. */
export function positionsOf(state: FakeState, apiKey: string): FakePosition[] {
  return state.tracksPositions ? (state.accountPositions.get(apiKey) ?? []) : state.positions;
}

/**
 * With `tracksPositions`: whether a reduce-only order of `side` would reduce the key's position
 * (the exchange refuses one that would open or increase it).
 */
export function reducesPosition(
  state: FakeState,
  apiKey: string,
  base: string,
  side: 'buy' | 'sell',
): boolean {
  if (!state.tracksPositions) return true;
  const held = positionsOf(state, apiKey).find((p) => p.base === base);
  return held !== undefined && (held.side === 'long') === (side === 'sell');
}

/** One trade on the key's one-way position (amounts in the exchange's units). */
function applyToPosition(state: FakeState, order: FakeOrder, size: number, price: number): void {
  const positions = state.accountPositions.get(order.apiKey) ?? [];
  state.accountPositions.set(order.apiKey, positions);
  const held = positions.find((p) => p.base === order.base);
  const signed = (order.side === 'buy' ? 1 : -1) * size;
  const current = held ? (held.side === 'long' ? held.size : -held.size) : 0;
  const next = clean(current + signed);
  if (held) positions.splice(positions.indexOf(held), 1);
  if (Math.abs(next) < 1e-12) return;
  const isSameSide = current !== 0 && Math.sign(next) === Math.sign(current);
  const isAdding = isSameSide && Math.abs(next) > Math.abs(current);
  positions.push({
    base: order.base,
    side: next > 0 ? 'long' : 'short',
    size: Math.abs(next),
    entryPrice: !isSameSide
      ? price
      : isAdding
        ? (Math.abs(current) * (held?.entryPrice ?? price) + size * price) / Math.abs(next)
        : (held?.entryPrice ?? price),
    markPrice: FAKE_PRICES[order.base] ?? 1,
    unrealizedPnl: 0,
    leverage: state.leverage[order.base] ?? 1,
  });
}

/** Plays the order's planned trades due at `nowMs`, then closes it when none is left. */
function settleOrder(state: FakeState, order: FakeOrder, nowMs: number): void {
  while (order.plannedTrades.length > 0 && (order.plannedTrades[0]?.atMs ?? 0) <= nowMs) {
    const trade = order.plannedTrades.shift() as PlannedTrade;
    const notional = trade.size * baseUnitsPerSize(state, order.base) * trade.price;
    const { fee, asset } = feeOf(notional, state.venue, state.behaviour);
    order.fills.push({
      tradeId: String(state.nextTradeId++),
      size: trade.size,
      price: trade.price,
      fee,
      feeAsset: asset,
      timestampMs: trade.atMs,
    });
    const filled = clean(order.filled + trade.size);
    order.averagePrice = clean(
      ((order.averagePrice ?? 0) * order.filled + trade.price * trade.size) / filled,
    );
    order.filled = filled;
    if (state.tracksPositions) applyToPosition(state, order, trade.size, trade.price);
  }
  // Trigger orders wait in the algo book; resting limit orders stay open.
  if (order.plannedTrades.length > 0 || order.status !== 'open' || order.triggerPrice !== null) {
    return;
  }
  // A market order is done once its trades are (a reduce-only one may fill less than its size).
  if (order.type === 'market' || order.filled >= order.size - 1e-12) order.status = 'filled';
  else if (order.expiresAfterTrades) order.status = 'canceled';
}

/** Brings every order up to the fake's time `nowMs` (before each request is answered). */
export function settle(state: FakeState, nowMs: number): void {
  for (const order of state.unsettled) {
    settleOrder(state, order, nowMs);
    if (order.plannedTrades.length === 0) state.unsettled.delete(order);
  }
}

/** A key's orders, oldest first. */
export const ordersOfKey = (state: FakeState, apiKey: string): readonly FakeOrder[] =>
  state.ordersOfKey.get(apiKey) ?? [];

/** A regular (`isTrigger` false) or trigger order by its venue id or client id. */
export function orderNamed(
  state: FakeState,
  by: { readonly id?: string | undefined; readonly clientOrderId?: string | undefined },
  isTrigger: boolean,
): FakeOrder | undefined {
  const indexed =
    by.clientOrderId !== undefined
      ? state.ordersByClientId.get(by.clientOrderId)
      : by.id !== undefined
        ? state.ordersById.get(by.id)
        : undefined;
  // Client ids are unique across both books (the venue refuses a duplicate).
  return indexed && (indexed.triggerPrice !== null) === isTrigger ? indexed : undefined;
}

/**
 * Places a new order at `timestampMs` (its ack): market orders fill from the marked price, an
 * IOC limit too when the price is marketable (else it expires); GTC limit and trigger orders
 * stay open. A reduce-only fill never exceeds the tracked position. With no behaviour on, the
 * fill is one trade at the mark, done before the ack is answered.
 */
export function placeOrder(
  state: FakeState,
  order: Omit<
    FakeOrder,
    | 'id'
    | 'filled'
    | 'averagePrice'
    | 'status'
    | 'visibleAtMs'
    | 'plannedTrades'
    | 'fills'
    | 'expiresAfterTrades'
  >,
): FakeOrder {
  const { behaviour } = state;
  const mark = FAKE_PRICES[order.base] ?? 1;
  const isMarketable =
    order.price === null || (order.side === 'buy' ? order.price >= mark : order.price <= mark);
  const isImmediate =
    order.triggerPrice === null &&
    (order.type === 'market' || (order.timeInForce === 'IOC' && isMarketable));
  const isIoc = order.type === 'limit' && order.timeInForce === 'IOC';
  const held = state.tracksPositions
    ? positionsOf(state, order.apiKey).find((p) => p.base === order.base)
    : undefined;
  const size = order.reduceOnly && held ? Math.min(order.size, held.size) : order.size;
  const fillSize = isIoc ? iocFilledSize(size, state.venue, behaviour) : size;
  const placed: FakeOrder = {
    ...order,
    id: String(state.nextOrderId++),
    filled: 0,
    averagePrice: null,
    status: isIoc && !isMarketable ? 'canceled' : 'open',
    visibleAtMs: order.timestampMs + behaviour.lookupLagMs,
    plannedTrades: isImmediate
      ? planTrades({
          venue: state.venue,
          base: order.base,
          side: order.side,
          size: fillSize,
          mark,
          limitPrice: order.type === 'limit' ? order.price : null,
          ackMs: order.timestampMs,
          behaviour,
        })
      : [],
    fills: [],
    expiresAfterTrades: isIoc,
  };
  state.orders.push(placed);
  state.ordersByClientId.set(placed.clientOrderId, placed);
  state.ordersById.set(placed.id, placed);
  const ofKey = state.ordersOfKey.get(placed.apiKey);
  if (ofKey) ofKey.push(placed);
  else state.ordersOfKey.set(placed.apiKey, [placed]);
  settleOrder(state, placed, order.timestampMs);
  if (placed.plannedTrades.length > 0) state.unsettled.add(placed);
  return placed;
}
