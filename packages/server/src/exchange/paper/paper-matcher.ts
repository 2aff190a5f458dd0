import { CANDLE_LIMIT_MAX, type Exchange, type Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { PaperOrderRow } from '../../db/schema/index.js';
import type { MarketCandle } from '../../market/market.types.js';
import { ExchangeAdapterError } from '../exchange-client.js';
import type { PaperRepository } from './paper.repository.js';
import { fillInLock, type PaperRates } from './paper-execution.js';
import { RESTING_ORDER_RANK, restingFillPrice } from './paper-fill.js';
import type { PriceSource } from './price-source.js';

// The paper exchange's matching of resting orders (stop-loss, take-profit, limit): like a live
// exchange, it fills them when the market reaches them, whoever watches. Every call of the
// paper client first brings its account's resting orders up to now against the feed's candles,
// so any reader sees the same state a live account would show.

const TIMEFRAMES_FINE_FIRST: readonly Timeframe[] = ['1m', '5m', '15m', '1h', '4h', '1d'];

/** The finest timeframe whose candle limit covers `spanMs` (the SL-first rule is per candle). */
export function timeframeCovering(spanMs: number): Timeframe {
  for (const timeframe of TIMEFRAMES_FINE_FIRST) {
    if (Math.ceil(spanMs / TIMEFRAME_MS[timeframe]) + 1 <= CANDLE_LIMIT_MAX) return timeframe;
  }
  return '1d';
}

const restingFrom = (order: PaperOrderRow) => (order.checkedUntil ?? order.createdAt).getTime();

function byRank(a: PaperOrderRow, b: PaperOrderRow): number {
  const rank = (o: PaperOrderRow) => RESTING_ORDER_RANK[o.type === 'market' ? 'limit' : o.type];
  return rank(a) - rank(b) || a.id - b.id;
}

export interface PaperMatcherDeps {
  readonly repo: PaperRepository;
  readonly prices: PriceSource;
  readonly exchange: Exchange;
  readonly clock: Clock;
  readonly rates: PaperRates;
}

/** Resting orders are marked checked at least this often, so a catch-up never walks far back. */
const CHECKPOINT_MS = 60 * 60 * 1000;

interface Candidate {
  readonly order: PaperOrderRow;
  readonly price: number;
  readonly filledAt: Date;
}

/**
 * The first resting order the candles reach, in time (and, inside a candle, stop before
 * take-profit before limit): pure, on the rows as read.
 */
function firstReached(
  orders: readonly PaperOrderRow[],
  candles: readonly MarketCandle[],
  stepMs: number,
  nowMs: number,
): Candidate | null {
  for (const candle of candles) {
    const endMs = Math.min(candle.timestamp + stepMs, nowMs);
    const reached = orders.filter((o) => restingFrom(o) < endMs).sort(byRank);
    for (const order of reached) {
      const fromMs = restingFrom(order);
      const price = restingFillPrice(
        {
          side: order.side,
          type: order.type === 'market' ? 'limit' : order.type,
          price: order.price === null ? null : Number(order.price),
          triggerPrice: order.triggerPrice === null ? null : Number(order.triggerPrice),
        },
        { ...candle, isPartial: candle.timestamp < fromMs },
      );
      if (price !== null) {
        return { order, price, filledAt: new Date(Math.max(candle.timestamp, fromMs)) };
      }
    }
  }
  return null;
}

/**
 * Fills the account's resting orders (of `symbol`, or all) that the feed reached until now, in
 * the order the market reached them; answers the ones still open. Reading the candles and
 * finding nothing takes no lock.
 */
export async function matchRestingOrders(
  deps: PaperMatcherDeps,
  symbol?: string,
): Promise<PaperOrderRow[]> {
  const resting = await deps.repo.restingOrders(symbol);
  if (resting.length === 0) return resting;
  let hasFilled = false;
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const symbols = [...new Set(resting.map((o) => o.symbol))];
  for (const orderSymbol of symbols) {
    const orders = resting.filter((o) => o.symbol === orderSymbol);
    const sinceMs = Math.min(...orders.map(restingFrom));
    const timeframe = timeframeCovering(nowMs - sinceMs);
    const stepMs = TIMEFRAME_MS[timeframe];
    const closedCount = Math.min(CANDLE_LIMIT_MAX, Math.ceil((nowMs - sinceMs) / stepMs) + 1);
    // The feed is read before the account row is locked: a feed call never holds the lock.
    const candles = await deps.prices.recentCandles(
      deps.exchange,
      orderSymbol,
      timeframe,
      closedCount,
    );
    if (!firstReached(orders, candles, stepMs, nowMs)) {
      if (nowMs - sinceMs > CHECKPOINT_MS) {
        await deps.repo.setCheckedUntil(
          orders.map((o) => o.id),
          now,
        );
      }
      continue;
    }
    hasFilled = true;
    await deps.repo.withAccountLock(async (tx, locked) => {
      let account = locked;
      // Again under the lock (another caller may have filled some), one fill at a time.
      let open = await tx.restingOrders(orderSymbol);
      for (let hit = firstReached(open, candles, stepMs, nowMs); hit; ) {
        const { order, price, filledAt } = hit;
        try {
          const result = await fillInLock(
            tx,
            account,
            {
              clientOrderId: order.clientOrderId,
              symbol: order.symbol,
              side: order.side,
              type: order.type,
              amount: new Decimal(order.amount),
              reduceOnly: order.reduceOnly,
              positionSide: order.positionSide ?? undefined,
              price: order.price === null ? null : new Decimal(order.price),
              triggerPrice: order.triggerPrice === null ? null : new Decimal(order.triggerPrice),
            },
            new Decimal(price),
            // Stops and take-profits fill as market orders (slippage); limits at their price.
            order.type === 'limit' ? { ...deps.rates, slippageRate: new Decimal(0) } : deps.rates,
            filledAt,
            order.id,
          );
          account = result.account;
        } catch (error) {
          if (!(error instanceof ExchangeAdapterError)) throw error;
          // A reduce-only order with nothing left to reduce expires, as on an exchange; an
          // order the wallet cannot carry is rejected.
          await tx.settleOrder(order.id, {
            status: error.kind === 'insufficient_funds' ? 'rejected' : 'canceled',
            filled: '0',
            averagePrice: null,
            fee: '0',
            filledAt: null,
          });
        }
        // The others: none was reached before this one; the scan goes on from the same candle.
        open = open.filter((o) => o.id !== order.id);
        hit = firstReached(open, candles, stepMs, nowMs);
      }
      await tx.setCheckedUntil(
        open.map((o) => o.id),
        now,
      );
    });
  }
  return hasFilled ? deps.repo.restingOrders(symbol) : resting;
}
