import {
  type Exchange,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  PLATFORM_FEE_RATE,
} from '@quantsquare/contracts';
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
import { createPaperRepository } from './paper.repository.js';
import {
  type PaperPositionState,
  planMarketFill,
  positionMargin,
  unrealizedPnl,
} from './paper-fill.js';
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
}

const BPS = new Decimal(10_000);
/** Paper markets accept any size down to these steps; there is no exchange to impose more. */
const PAPER_AMOUNT_STEP = 0.0001;
const PAPER_PRICE_STEP = 0.01;

const toState = (row: PaperPositionRow): PaperPositionState => ({
  side: row.side,
  amount: new Decimal(row.amount),
  entryPrice: new Decimal(row.entryPrice),
  leverage: row.leverage,
});

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
  };
}

/**
 * A simulated exchange account: market orders fill at the feed's price with slippage and the
 * platform fee; positions, orders, fills and the USDT wallet live in the database, so a new
 * instance on the same database continues where the last one stopped. Trigger and limit orders
 * are kept open for the bot engine to evaluate.
 */
export function createPaperExchangeClient(deps: PaperClientDeps): ExchangeClient {
  const repo = createPaperRepository(deps.db, deps.accountId);
  const slippageRate = new Decimal(deps.slippageBps).dividedBy(BPS);
  const feeRate = new Decimal(deps.feeRate ?? PLATFORM_FEE_RATE);

  const price = async (symbol: string) =>
    new Decimal(await deps.prices.lastPrice(deps.exchange, symbol));

  async function marks(rows: readonly PaperPositionRow[]): Promise<Map<string, Decimal>> {
    const symbols = [...new Set(rows.map((r) => r.symbol))];
    const prices = await Promise.all(symbols.map((s) => price(s)));
    return new Map(symbols.map((s, i) => [s, prices[i] ?? new Decimal(0)]));
  }

  function requireSymbol(symbol: string): void {
    if (symbol.trim() === '') throw new ExchangeAdapterError('invalid_order', 'Symbol is required');
  }

  async function placeResting(request: OrderRequest): Promise<ExchangeOrder> {
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
        createdAt: deps.clock.now(),
      });
      if (!row) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
      return toOrder(row);
    });
  }

  async function fillMarket(request: OrderRequest): Promise<ExchangeOrder> {
    // Read outside the lock: a feed call must not hold the account row.
    const existing = await repo.orderByClientId(request.clientOrderId);
    if (existing) return toOrder(existing);
    const marketPrice = await price(request.symbol);
    return repo.withAccountLock(async (tx, account) => {
      const again = await tx.orderByClientId(request.clientOrderId);
      if (again) return toOrder(again);
      const now = deps.clock.now();
      const all = await tx.positions();
      const wallet = new Decimal(account.paperBalance);
      const usedMargin = all.reduce(
        (sum, row) => sum.plus(positionMargin(toState(row))),
        new Decimal(0),
      );
      const leverage = (await tx.leverage(request.symbol)) ?? account.defaultLeverage;
      const outcome = planMarketFill({
        positionMode: account.positionMode,
        positions: all.filter((r) => r.symbol === request.symbol).map(toState),
        side: request.side,
        amount: new Decimal(request.amount),
        reduceOnly: request.reduceOnly ?? false,
        positionSide: request.positionSide,
        marketPrice,
        slippageRate,
        feeRate,
        leverage,
        availableMargin: wallet.minus(usedMargin),
      });
      const order = await tx.insertOrder({
        clientOrderId: request.clientOrderId,
        symbol: request.symbol,
        side: request.side,
        type: 'market',
        status: 'closed',
        amount: String(request.amount),
        filled: outcome.filled.toString(),
        averagePrice: outcome.fillPrice.toString(),
        reduceOnly: request.reduceOnly ?? false,
        positionSide: request.positionSide ?? null,
        fee: outcome.fee.toString(),
        createdAt: now,
      });
      if (!order) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
      await tx.insertFill({
        orderId: order.id,
        symbol: request.symbol,
        side: request.side,
        amount: outcome.filled.toString(),
        price: outcome.fillPrice.toString(),
        fee: outcome.fee.toString(),
        realizedPnl: outcome.realizedPnl.toString(),
        createdAt: now,
      });
      for (const position of outcome.positions) {
        if (position.amount.lte(0)) {
          await tx.deletePosition(request.symbol, position.side);
        } else {
          await tx.savePosition({
            symbol: request.symbol,
            side: position.side,
            amount: position.amount.toString(),
            entryPrice: position.entryPrice.toString(),
            leverage: position.leverage,
            updatedAt: now,
          });
        }
      }
      await tx.setBalance(wallet.plus(outcome.realizedPnl).minus(outcome.fee).toString(), now);
      return toOrder(order);
    });
  }

  return {
    exchange: deps.exchange,
    isPaper: true,
    async loadMarkets() {
      // Prices come from the market feed on demand; nothing to load.
    },
    async marketFacts(symbol): Promise<MarketFacts> {
      return {
        symbol,
        contractSize: 1,
        amountStep: PAPER_AMOUNT_STEP,
        priceStep: PAPER_PRICE_STEP,
        minAmount: 0,
        minNotional: 0,
        maxLeverage: LEVERAGE_MAX,
      };
    },
    async fetchBalance(): Promise<Balances> {
      const account = await repo.account();
      if (!account) throw new ExchangeAdapterError('invalid_key', 'Paper account not found');
      const rows = await repo.positions();
      const markPrices = await marks(rows);
      let unrealized = new Decimal(0);
      let used = new Decimal(0);
      for (const row of rows) {
        const state = toState(row);
        unrealized = unrealized.plus(
          unrealizedPnl(state, markPrices.get(row.symbol) ?? state.entryPrice),
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
          unrealizedPnl: unrealizedPnl(state, mark).toNumber(),
          leverage: row.leverage,
        };
      });
    },
    async setLeverage(symbol, leverage) {
      requireSymbol(symbol);
      if (!Number.isInteger(leverage) || leverage < LEVERAGE_MIN || leverage > LEVERAGE_MAX) {
        throw new ExchangeAdapterError(
          'invalid_order',
          `Leverage must be between ${LEVERAGE_MIN} and ${LEVERAGE_MAX}`,
        );
      }
      await repo.setLeverage(symbol, leverage);
    },
    async createOrder(request) {
      requireSymbol(request.symbol);
      if (!Number.isFinite(request.amount) || request.amount <= 0) {
        throw new ExchangeAdapterError('invalid_order', 'Order amount must be positive');
      }
      if (request.clientOrderId.trim() === '') {
        throw new ExchangeAdapterError('invalid_order', 'A client order id is required');
      }
      return request.type === 'market' ? fillMarket(request) : placeResting(request);
    },
    async fetchOrderByClientId(_symbol, clientOrderId) {
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
      return (await repo.openOrders(symbol)).map(toOrder);
    },
    async fetchMyTrades(symbol, sinceMs): Promise<ExchangeTrade[]> {
      const rows = await repo.fills(symbol, sinceMs === undefined ? undefined : new Date(sinceMs));
      return rows.map((row) => ({
        id: String(row.id),
        orderId: String(row.orderId),
        symbol: row.symbol,
        side: row.side,
        amount: Number(row.amount),
        price: Number(row.price),
        fee: Number(row.fee),
        timestamp: row.createdAt.getTime(),
      }));
    },
    async checkPermissions(): Promise<KeyPermissions> {
      return { canTrade: true, canWithdraw: false, ipRestricted: null };
    },
  };
}
