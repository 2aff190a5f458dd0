import { Decimal } from 'decimal.js';
import type { PaperOrderRow, PaperPositionRow } from '../../db/schema/index.js';
import { ExchangeAdapterError, type OrderSide, type PositionSide } from '../exchange-client.js';
import type { PaperAccountState, PaperQueries } from './paper.repository.js';
import { type PaperPositionState, planMarketFill, positionMargin } from './paper-fill.js';

// Writing a fill of the paper exchange: the order, its fill row, the positions and the wallet, in
// the caller's transaction (which holds the account row lock).

export const toPaperPositionState = (row: PaperPositionRow): PaperPositionState => ({
  side: row.side,
  amount: new Decimal(row.amount),
  entryPrice: new Decimal(row.entryPrice),
  leverage: row.leverage,
});

export interface PaperFillSpec {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: PaperOrderRow['type'];
  readonly amount: Decimal;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide | undefined;
  readonly price: Decimal | null;
  readonly triggerPrice: Decimal | null;
}

export interface PaperRates {
  readonly slippageRate: Decimal;
  readonly feeRate: Decimal;
}

export interface PaperFillResult {
  readonly order: PaperOrderRow;
  /** The wallet after the fill: the account state of a next fill in the same transaction. */
  readonly account: PaperAccountState;
}

/**
 * Fills `spec` at `marketPrice` (slippage per `rates`): a new order row, or `restingOrderId`'s
 * row when a resting order fills. Throws the planner's adapter errors (nothing written then).
 */
export async function fillInLock(
  tx: PaperQueries,
  account: PaperAccountState,
  spec: PaperFillSpec,
  marketPrice: Decimal,
  rates: PaperRates,
  now: Date,
  restingOrderId?: number,
): Promise<PaperFillResult> {
  const all = await tx.positions();
  const wallet = new Decimal(account.paperBalance);
  const usedMargin = all.reduce(
    (sum, row) => sum.plus(positionMargin(toPaperPositionState(row))),
    new Decimal(0),
  );
  const leverage = (await tx.leverage(spec.symbol)) ?? account.defaultLeverage;
  const outcome = planMarketFill({
    positionMode: account.positionMode,
    positions: all.filter((r) => r.symbol === spec.symbol).map(toPaperPositionState),
    side: spec.side,
    amount: spec.amount,
    reduceOnly: spec.reduceOnly,
    positionSide: spec.positionSide,
    marketPrice,
    slippageRate: rates.slippageRate,
    feeRate: rates.feeRate,
    leverage,
    availableMargin: wallet.minus(usedMargin),
  });
  const filled = {
    status: 'closed' as const,
    filled: outcome.filled.toString(),
    averagePrice: outcome.fillPrice.toString(),
    fee: outcome.fee.toString(),
    filledAt: now,
  };
  const order =
    restingOrderId === undefined
      ? await tx.insertOrder({
          clientOrderId: spec.clientOrderId,
          symbol: spec.symbol,
          side: spec.side,
          type: spec.type,
          amount: spec.amount.toString(),
          price: spec.price?.toString() ?? null,
          triggerPrice: spec.triggerPrice?.toString() ?? null,
          reduceOnly: spec.reduceOnly,
          positionSide: spec.positionSide ?? null,
          createdAt: now,
          ...filled,
        })
      : await tx.settleOrder(restingOrderId, filled);
  if (!order) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
  await tx.insertFill({
    orderId: order.id,
    symbol: spec.symbol,
    side: spec.side,
    amount: outcome.filled.toString(),
    price: outcome.fillPrice.toString(),
    fee: outcome.fee.toString(),
    realizedPnl: outcome.realizedPnl.toString(),
    createdAt: now,
  });
  for (const position of outcome.positions) {
    if (position.amount.lte(0)) {
      await tx.deletePosition(spec.symbol, position.side);
    } else {
      await tx.savePosition({
        symbol: spec.symbol,
        side: position.side,
        amount: position.amount.toString(),
        entryPrice: position.entryPrice.toString(),
        leverage: position.leverage,
        updatedAt: now,
      });
    }
  }
  const paperBalance = wallet.plus(outcome.realizedPnl).minus(outcome.fee).toString();
  await tx.setBalance(paperBalance, now);
  return { order, account: { ...account, paperBalance } };
}
