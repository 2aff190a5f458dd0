import {
  type Exchange,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  PLATFORM_FEE_RATE,
} from '@quantsquare/contracts';
import { slippedPriceDecimal } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { PaperOrderRow, PaperPositionRow } from '../../db/schema/index.js';
import {
  type Balances,
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
  type ExchangePosition,
  type ExchangeTrade,
  type KeyPermissions,
  type MarketFacts,
  type OrderRequest,
} from '../exchange-client.js';
import { createPaperRepository, type PaperRepository } from './paper.repository.js';
import type { PaperBalanceWriter } from './paper-balances.js';
import type { PaperDesk } from './paper-desk.js';
import { type PaperFillSpec, toPaperPositionState as toState } from './paper-execution.js';
import { paperUnrealizedPnl, positionMargin } from './paper-fill.js';
import { matchRestingOrders } from './paper-matcher.js';
import type { PriceSource } from './price-source.js';

export interface PaperClientDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly prices: PriceSource;
  readonly accountId: number;
  /** The venue whose market prices the account trades on. */
  readonly exchange: Exchange;
  /** Market orders fill this many basis points away from the feed's price. */
  readonly slippageBps: number;
  readonly feeRate?: number;
  /** Writes the account's balance (the accounts module's, passed in by the composition root). */
  readonly paperBalances: PaperBalanceWriter;
  /** The desk its immediate orders fill through (shared by a factory's paper accounts). */
  readonly desk: PaperDesk;
}

const BPS = new Decimal(10_000);
/** Paper markets accept any size down to these steps; there is no exchange to impose more. */
const PAPER_AMOUNT_STEP = 0.0001;
const PAPER_PRICE_STEP = 0.01;

/** A paper market's facts (every symbol alike): what the copy simulator sizes a paper follower by. */
export function paperMarketFacts(symbol: string): MarketFacts {
  return {
    symbol,
    contractSize: 1,
    amountStep: PAPER_AMOUNT_STEP,
    priceStep: PAPER_PRICE_STEP,
    minAmount: 0,
    minNotional: 0,
    maxLeverage: LEVERAGE_MAX,
  };
}

function toOrder(row: PaperOrderRow): ExchangeOrder {
  return {
    id: String(row.id),
    clientOrderId: row.clientOrderId,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    status: row.status,
    amount: Number(row.amount),
    filled: Number(row.filled),
    averagePrice: row.averagePrice === null ? null : Number(row.averagePrice),
    reduceOnly: row.reduceOnly,
    fee: Number(row.fee),
    timestamp: row.createdAt.getTime(),
    filledAtMs: row.filledAt?.getTime() ?? null,
  };
}

function requireSymbol(symbol: string): void {
  if (symbol.trim() === '') throw new ExchangeAdapterError('invalid_order', 'Symbol is required');
}

const specOf = (request: OrderRequest): PaperFillSpec => ({
  clientOrderId: request.clientOrderId,
  symbol: request.symbol,
  side: request.side,
  type: request.type,
  amount: new Decimal(request.amount),
  reduceOnly: request.reduceOnly ?? false,
  positionSide: request.positionSide,
  price: request.price === undefined ? null : new Decimal(request.price),
  triggerPrice: request.triggerPrice === undefined ? null : new Decimal(request.triggerPrice),
});

/** A stop, take-profit or limit order: it rests until the feed reaches it. */
async function placeResting(
  repo: PaperRepository,
  clock: Clock,
  request: OrderRequest,
): Promise<ExchangeOrder> {
  const needsTrigger = request.type === 'stop_market' || request.type === 'take_profit_market';
  const level = needsTrigger ? request.triggerPrice : request.price;
  if (level === undefined || !Number.isFinite(level) || level <= 0) {
    throw new ExchangeAdapterError(
      'invalid_order',
      needsTrigger
        ? 'A trigger order needs a positive trigger price'
        : 'A limit order needs a positive price',
    );
  }
  return repo.withAccountLock(async (tx) => {
    const existing = await tx.orderByClientId(request.clientOrderId);
    if (existing) return toOrder(existing);
    const now = clock.now();
    const row = await tx.insertOrder({
      clientOrderId: request.clientOrderId,
      symbol: request.symbol,
      side: request.side,
      type: request.type,
      status: 'open',
      amount: String(request.amount),
      filled: '0',
      price: request.price === undefined ? null : String(request.price),
      triggerPrice: request.triggerPrice === undefined ? null : String(request.triggerPrice),
      reduceOnly: request.reduceOnly ?? false,
      positionSide: request.positionSide ?? null,
      fee: '0',
      createdAt: now,
      checkedUntil: now,
    });
    if (!row) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
    return toOrder(row);
  });
}

/** The paper wallet and positions, marked at the feed's prices (resting orders matched first). */
function holdingReads(
  repo: PaperRepository,
  catchUp: (symbol?: string) => Promise<unknown>,
  marks: (rows: readonly PaperPositionRow[]) => Promise<Map<string, Decimal>>,
): Pick<ExchangeClient, 'fetchBalance' | 'fetchPositions'> {
  return {
    async fetchBalance(): Promise<Balances> {
      await catchUp();
      const account = await repo.account();
      if (!account) throw new ExchangeAdapterError('invalid_key', 'Paper account not found');
      const rows = await repo.positions();
      const markPrices = await marks(rows);
      let unrealized = new Decimal(0);
      let used = new Decimal(0);
      for (const row of rows) {
        const state = toState(row);
        unrealized = unrealized.plus(
          paperUnrealizedPnl(state, markPrices.get(row.symbol) ?? state.entryPrice),
        );
        used = used.plus(positionMargin(state));
      }
      const total = new Decimal(account.paperBalance).plus(unrealized);
      return {
        USDT: {
          total: total.toNumber(),
          free: total.minus(used).toNumber(),
          used: used.toNumber(),
        },
      };
    },
    async fetchPositions(symbols): Promise<ExchangePosition[]> {
      await catchUp(symbols?.length === 1 ? symbols[0] : undefined);
      const rows = (await repo.positions()).filter((r) => !symbols || symbols.includes(r.symbol));
      const markPrices = await marks(rows);
      return rows.map((row) => {
        const state = toState(row);
        const mark = markPrices.get(row.symbol) ?? state.entryPrice;
        return {
          symbol: row.symbol,
          side: row.side,
          amount: state.amount.toNumber(),
          entryPrice: state.entryPrice.toNumber(),
          markPrice: mark.toNumber(),
          unrealizedPnl: paperUnrealizedPnl(state, mark).toNumber(),
          leverage: row.leverage,
        };
      });
    },
  };
}

/**
 * A simulated exchange account: market orders fill at the feed's price with slippage and the
 * platform fee; a marketable-limit IOC fills likewise unless the price is beyond its cap; stop,
 * take-profit and limit orders rest until the feed's candles reach them (`paper-matcher.ts`: stop
 * first when one candle reaches both, a gap fills at the open), exactly as a live exchange
 * would fill them. Positions, orders, fills and the USDT wallet live in the database, so a new
 * instance on the same database continues where the last one stopped.
 */
export function createPaperExchangeClient(deps: PaperClientDeps): ExchangeClient {
  const repo = createPaperRepository(deps.db, deps.accountId, deps.paperBalances);
  const slippageRate = new Decimal(deps.slippageBps).dividedBy(BPS);
  const feeRate = new Decimal(deps.feeRate ?? PLATFORM_FEE_RATE);
  const { desk } = deps;

  const price = async (symbol: string) =>
    new Decimal(await deps.prices.lastPrice(deps.exchange, symbol));

  async function marks(rows: readonly PaperPositionRow[]): Promise<Map<string, Decimal>> {
    const symbols = [...new Set(rows.map((r) => r.symbol))];
    const prices = await Promise.all(symbols.map((s) => price(s)));
    return new Map(symbols.map((s, i) => [s, prices[i] ?? new Decimal(0)]));
  }

  const rates = { slippageRate, feeRate };
  /** Resting orders the feed reached are filled before anything is read or sent. */
  const catchUp = (symbol?: string) =>
    matchRestingOrders(
      { repo, prices: deps.prices, exchange: deps.exchange, clock: deps.clock, rates },
      symbol,
    );

  /** A market order, or a marketable-limit IOC (nothing fills beyond its cap). */
  async function fillNow(request: OrderRequest): Promise<ExchangeOrder> {
    // The price is read before the desk locks the account: a feed call must not hold its row.
    // An order the account already has under this client id is answered as it is, by the desk.
    const marketPrice = await price(request.symbol);
    const order = await desk.fill({
      accountId: deps.accountId,
      spec: specOf(request),
      marketPrice,
      fillPrice: slippedPriceDecimal(marketPrice, request.side === 'buy', slippageRate.times(BPS)),
      rates,
      now: deps.clock.now(),
    });
    return toOrder(order);
  }

  return {
    exchange: deps.exchange,
    async loadMarkets() {
      // Prices come from the market feed on demand; nothing to load.
    },
    async marketFacts(symbol): Promise<MarketFacts> {
      return paperMarketFacts(symbol);
    },
    ...holdingReads(repo, catchUp, marks),
    async setLeverage(symbol, leverage) {
      requireSymbol(symbol);
      if (!Number.isInteger(leverage) || leverage < LEVERAGE_MIN || leverage > LEVERAGE_MAX) {
        throw new ExchangeAdapterError(
          'invalid_order',
          `Leverage must be between ${LEVERAGE_MIN} and ${LEVERAGE_MAX}`,
        );
      }
      await desk.setLeverage({ accountId: deps.accountId, symbol, leverage });
    },
    async createOrder(request) {
      requireSymbol(request.symbol);
      if (!Number.isFinite(request.amount) || request.amount <= 0) {
        throw new ExchangeAdapterError('invalid_order', 'Order amount must be positive');
      }
      if (request.clientOrderId.trim() === '') {
        throw new ExchangeAdapterError('invalid_order', 'A client order id is required');
      }
      if (await desk.hasResting(deps.accountId, request.symbol)) await catchUp(request.symbol);
      const isImmediate =
        request.type === 'market' || (request.type === 'limit' && request.timeInForce === 'IOC');
      return isImmediate ? fillNow(request) : placeResting(repo, deps.clock, request);
    },
    async fetchOrderByClientId(symbol, clientOrderId) {
      await catchUp(symbol);
      const row = await repo.orderByClientId(clientOrderId);
      return row ? toOrder(row) : null;
    },
    async cancelOrder(_symbol, orderId) {
      const id = Number(orderId);
      const row = Number.isSafeInteger(id) ? await repo.orderById(id) : undefined;
      if (!row) throw new ExchangeAdapterError('invalid_order', `Order ${orderId} not found`);
      if (row.status !== 'open') {
        throw new ExchangeAdapterError('invalid_order', `Order ${orderId} is not open`);
      }
      await repo.setOrderStatus(row.id, 'canceled');
    },
    async fetchOpenOrders(symbol) {
      // Market orders never rest: the open orders are the resting ones still open.
      return (await catchUp(symbol)).map(toOrder);
    },
    async fetchMyTrades(symbol, sinceMs): Promise<ExchangeTrade[]> {
      await catchUp(symbol);
      const rows = await repo.fills(symbol, sinceMs === undefined ? undefined : new Date(sinceMs));
      return rows.map((row) => ({
        id: String(row.id),
        orderId: String(row.orderId),
        symbol: row.symbol,
        side: row.side,
        amount: Number(row.amount),
        price: Number(row.price),
        fee: Number(row.fee),
        feeCost: Number(row.fee),
        feeCurrency: 'USDT',
        timestamp: row.createdAt.getTime(),
      }));
    },
    // A paper order fills at once at one price: the order itself is its only fill.
    fetchOrderTrades: async () => null,
    async checkPermissions(): Promise<KeyPermissions> {
      return { canTrade: true, canWithdraw: false, ipRestricted: null };
    },
  };
}
