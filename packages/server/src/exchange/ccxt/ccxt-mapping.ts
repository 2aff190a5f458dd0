import type { Balances as CcxtBalances, Market as MaybeMarket, Order, Position, Trade } from 'ccxt';
import Decimal from 'decimal.js';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import type {
  Balances,
  CurrencyBalance,
  ExchangeOrder,
  ExchangePosition,
  ExchangeTrade,
  MarketFacts,
  OrderStatus,
  OrderType,
} from '../exchange-client.js';

// ccxt structures → ours. Quantities: ccxt speaks contracts where the capability says so (OKX);
// we always speak base asset. Conversions go through decimals so 0.3 ETH / 0.1 is 3 contracts,
// not 2.9999999999999996.

const QUOTE = 'USDT';

/** A loaded ccxt market (ccxt's `Market` type includes undefined). */
export type Market = NonNullable<MaybeMarket>;

/** Base-asset quantity of one ccxt amount on `market`. */
export function toBaseAmount(amount: number, market: Market, caps: ExchangeCapabilities): number {
  if (!caps.amountsInContracts) return amount;
  return new Decimal(amount).mul(contractSizeOf(market)).toNumber();
}

/** ccxt amount (contracts where the exchange counts contracts) of a base-asset quantity. */
export function toCcxtAmount(base: number, market: Market, caps: ExchangeCapabilities): number {
  if (!caps.amountsInContracts) return base;
  return new Decimal(base).div(contractSizeOf(market)).toNumber();
}

function contractSizeOf(market: Market): number {
  const size = market.contractSize;
  return typeof size === 'number' && size > 0 ? size : 1;
}

const num = (value: number | undefined | null, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

export function toMarketFacts(market: Market, caps: ExchangeCapabilities): MarketFacts {
  const amountStep = num(market.precision.amount, 0);
  const minAmount = num(market.limits.amount?.min, 0);
  return {
    symbol: market.symbol,
    contractSize: caps.amountsInContracts ? contractSizeOf(market) : 1,
    amountStep: toBaseAmount(amountStep, market, caps),
    priceStep: num(market.precision.price, 0),
    minAmount: toBaseAmount(minAmount, market, caps),
    minNotional: num(market.limits.cost?.min, 0),
    maxLeverage: market.limits.leverage?.max ?? null,
  };
}

export function toBalances(balances: CcxtBalances): Balances {
  const out: Record<string, CurrencyBalance> = {};
  for (const [code, entry] of Object.entries(balances)) {
    if (typeof entry !== 'object' || entry === null || !('total' in entry)) continue;
    const { total, free, used } = entry as { total?: number; free?: number; used?: number };
    if (total === undefined && free === undefined) continue;
    const freeAmount = num(free, 0);
    const usedAmount = num(used, 0);
    out[code] = { total: num(total, freeAmount + usedAmount), free: freeAmount, used: usedAmount };
  }
  return out;
}

export function toPosition(
  position: Position,
  market: Market,
  caps: ExchangeCapabilities,
): ExchangePosition | null {
  const contracts = Math.abs(num(position.contracts, 0));
  if (contracts === 0 || (position.side !== 'long' && position.side !== 'short')) return null;
  return {
    symbol: market.symbol,
    side: position.side,
    amount: toBaseAmount(contracts, market, caps),
    entryPrice: num(position.entryPrice, 0),
    markPrice: position.markPrice ?? null,
    unrealizedPnl: num(position.unrealizedPnl, 0),
    leverage: position.leverage ?? null,
  };
}

/**
 * ccxt folds STOP_MARKET / TAKE_PROFIT_MARKET into 'market' with a trigger price; the exchange's
 * own type (info.type, info.orderType, OKX tpTriggerPx) tells take-profit from stop.
 */
function orderType(order: Order): OrderType {
  const info: unknown = order.info;
  const raw = typeof info === 'object' && info !== null ? (info as Record<string, unknown>) : {};
  const rawType = String(raw.orderType ?? raw.type ?? raw.ordType ?? '').toLowerCase();
  const isTakeProfit =
    rawType.includes('take_profit') ||
    (order.takeProfitPrice !== undefined && order.takeProfitPrice !== null) ||
    (typeof raw.tpTriggerPx === 'string' && raw.tpTriggerPx !== '');
  const hasTrigger =
    (order.triggerPrice !== undefined && order.triggerPrice !== null) ||
    (order.stopLossPrice !== undefined && order.stopLossPrice !== null) ||
    rawType.includes('stop') ||
    rawType === 'conditional' ||
    rawType === 'trigger';
  if (isTakeProfit) return 'take_profit_market';
  if (hasTrigger) return 'stop_market';
  return order.type === 'limit' ? 'limit' : 'market';
}

function orderStatus(status: string | undefined): OrderStatus {
  if (status === 'closed') return 'closed';
  if (status === 'canceled' || status === 'expired') return 'canceled';
  if (status === 'rejected') return 'rejected';
  return 'open';
}

/** Fee in quote: ccxt gives it positive for a cost; fees in other currencies are not counted. */
function quoteFee(fee: { cost?: number; currency?: string } | undefined): number {
  if (!fee || fee.currency !== QUOTE) return 0;
  return Math.abs(num(fee.cost, 0));
}

/** What we asked for, to fill what a terse create answer leaves out (OKX answers ids only). */
export interface OrderDefaults {
  readonly clientOrderId: string;
  readonly side: 'buy' | 'sell';
  readonly type: OrderType;
  readonly amount: number;
  readonly reduceOnly: boolean;
}

/** When a filled order last traded: ccxt's lastTradeTimestamp, else its last update. */
function filledAtOf(order: Order): number | null {
  if (!(num(order.filled, 0) > 0)) return null;
  const at = order.lastTradeTimestamp ?? order.lastUpdateTimestamp;
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}

export function toExchangeOrder(
  order: Order,
  market: Market,
  caps: ExchangeCapabilities,
  nowMs: number,
  defaults?: OrderDefaults,
): ExchangeOrder {
  const side = order.side === 'buy' || order.side === 'sell' ? order.side : defaults?.side;
  return {
    id: String(order.id),
    clientOrderId: order.clientOrderId || defaults?.clientOrderId || null,
    symbol: market.symbol,
    side: side ?? 'buy',
    // The answer to our own create is for the type we asked.
    type: defaults?.type ?? orderType(order),
    status: orderStatus(order.status),
    amount:
      order.amount !== undefined && order.amount !== null
        ? toBaseAmount(order.amount, market, caps)
        : (defaults?.amount ?? 0),
    filled: toBaseAmount(num(order.filled, 0), market, caps),
    averagePrice: order.average ?? null,
    reduceOnly: order.reduceOnly ?? defaults?.reduceOnly ?? false,
    fee: quoteFee(order.fee),
    timestamp: num(order.timestamp, nowMs),
    filledAtMs: filledAtOf(order),
  };
}

/**
 * A venue trade. The fee is kept as charged (its currency and cost) and valued in quote: USDT as
 * it is, the base asset at the trade's price, any other currency (BNB, OKB) at `priceOf` (its
 * USDT price when the trade is read; 0 where unknown — the cost and currency stay recorded).
 */
export function toExchangeTrade(
  trade: Trade,
  market: Market,
  caps: ExchangeCapabilities,
  priceOf: (currency: string) => number | undefined = () => undefined,
): ExchangeTrade {
  const price = num(trade.price, 0);
  const feeCost = Math.abs(num(trade.fee?.cost, 0));
  const feeCurrency = trade.fee?.currency ?? QUOTE;
  let fee: Decimal;
  if (feeCurrency === QUOTE) fee = new Decimal(feeCost);
  else if (feeCurrency === market.base) fee = new Decimal(feeCost).mul(price);
  else fee = new Decimal(feeCost).mul(priceOf(feeCurrency) ?? 0);
  return {
    id: String(trade.id),
    orderId: trade.order ?? null,
    symbol: market.symbol,
    side: trade.side === 'sell' ? 'sell' : 'buy',
    amount: toBaseAmount(num(trade.amount, 0), market, caps),
    price,
    fee: fee.toNumber(),
    feeCost,
    feeCurrency,
    timestamp: num(trade.timestamp, 0),
  };
}
