import { Decimal } from 'decimal.js';
import type { PaperOrderRow, PaperPositionRow } from '../../db/schema/index.js';
import { ExchangeAdapterError, type OrderSide, type PositionSide } from '../exchange-client.js';
import type { NewPaperFill, PaperAccountState, PaperQueries } from './paper.repository.js';
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

/** A fill planned on an account's state: what to write, and the state after it. */
export interface PlannedPaperFill {
  /** The order row's fill columns. */
  readonly filled: {
    readonly status: 'closed';
    readonly filled: string;
    readonly averagePrice: string;
    readonly fee: string;
    readonly filledAt: Date;
  };
  readonly fill: Omit<NewPaperFill, 'accountId' | 'orderId'>;
  /** The symbol's positions after the fill: amount ≤ 0 means the row goes. */
  readonly positions: readonly (Omit<PaperPositionRow, 'accountId'> & { readonly gone: boolean })[];
  /** The wallet after the fill. */
  readonly paperBalance: string;
}

/**
 * The paper exchange's fill rule on an account's state (its wallet, every open position and the
 * symbol's leverage): pure. Throws the planner's adapter errors (margin, reduce-only, amount).
 */
export function planPaperFill(
  account: PaperAccountState,
  all: readonly PaperPositionRow[],
  symbolLeverage: number | undefined,
  spec: PaperFillSpec,
  marketPrice: Decimal,
  rates: PaperRates,
  now: Date,
): PlannedPaperFill {
  const wallet = new Decimal(account.paperBalance);
  const usedMargin = all.reduce(
    (sum, row) => sum.plus(positionMargin(toPaperPositionState(row))),
    new Decimal(0),
  );
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
    leverage: symbolLeverage ?? account.defaultLeverage,
    availableMargin: wallet.minus(usedMargin),
  });
  return {
    filled: {
      status: 'closed',
      filled: outcome.filled.toString(),
      averagePrice: outcome.fillPrice.toString(),
      fee: outcome.fee.toString(),
      filledAt: now,
    },
    fill: {
      symbol: spec.symbol,
      side: spec.side,
      amount: outcome.filled.toString(),
      price: outcome.fillPrice.toString(),
      fee: outcome.fee.toString(),
      realizedPnl: outcome.realizedPnl.toString(),
      createdAt: now,
    },
    positions: outcome.positions.map((position) => ({
      symbol: spec.symbol,
      side: position.side,
      amount: position.amount.toString(),
      entryPrice: position.entryPrice.toString(),
      leverage: position.leverage,
      updatedAt: now,
      gone: position.amount.lte(0),
    })),
    paperBalance: wallet.plus(outcome.realizedPnl).minus(outcome.fee).toString(),
  };
}

/** The order row of a market or IOC order the paper exchange takes (its fill columns apart). */
export const paperOrderValues = (spec: PaperFillSpec, now: Date) => ({
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
});

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
  const plan = planPaperFill(
    account,
    await tx.positions(),
    await tx.leverage(spec.symbol),
    spec,
    marketPrice,
    rates,
    now,
  );
  const order =
    restingOrderId === undefined
      ? await tx.insertOrder({ ...paperOrderValues(spec, now), ...plan.filled })
      : await tx.settleOrder(restingOrderId, plan.filled);
  if (!order) throw new ExchangeAdapterError('unknown_outcome', 'Order id collision');
  await tx.insertFill({ orderId: order.id, ...plan.fill });
  for (const { gone, ...position } of plan.positions) {
    if (gone) await tx.deletePosition(position.symbol, position.side);
    else await tx.savePosition(position);
  }
  await tx.setBalance(plan.paperBalance, now);
  return { order, account: { ...account, paperBalance: plan.paperBalance } };
}
