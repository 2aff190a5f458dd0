import { type AppliedFill, applyFill, type BookPosition } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { type Batcher, createBatcher } from '../common/batcher.js';
import type { Clock } from '../common/clock.js';
import type {
  ExchangeAccountRow,
  ExecutionOrderRow,
  ExecutionPositionRow,
} from '../db/schema/index.js';
import type { EventBus } from '../events/event-bus.types.js';
import type { ExchangeOrder } from '../exchange/exchange-client.js';
import type { ExecutionRepository } from './execution.repository.js';
import type {
  OrderOwnerKind,
  OwnerPosition,
  PositionRef,
  Settlement,
  SettlementHook,
} from './execution.types.js';

// Settling: an exchange order's state written to its intent and, for what filled, to the owner's
// position in the book, in one transaction with the owner's settlement hook (a bot's trade row
// and statistics). Concurrent settlements share one transaction. After the commit, OrderFilled
// and PositionChanged are published.

export const FINAL_STATUSES: ReadonlySet<ExecutionOrderRow['status']> = new Set([
  'filled',
  'canceled',
  'failed',
]);

export interface SettleItem {
  readonly account: ExchangeAccountRow;
  readonly intent: ExecutionOrderRow;
  readonly order: ExchangeOrder;
}

export interface SettleOutcome {
  readonly intent: ExecutionOrderRow;
  /** The fill applied to the book; null when nothing (more) filled. */
  readonly settlement: Settlement | null;
  /** The intent was settled before (by another path): nothing was applied. */
  readonly wasSettled: boolean;
}

const refKey = (ref: PositionRef) =>
  `${ref.accountId}|${ref.symbol}|${ref.owner.kind}|${ref.owner.id}`;

export function toOwnerPosition(row: ExecutionPositionRow): OwnerPosition {
  return {
    id: row.id,
    accountId: row.accountId,
    symbol: row.symbol,
    owner: { kind: row.ownerKind, id: row.ownerId },
    size: new Decimal(row.size).toString(),
    entryPrice: new Decimal(row.entryPrice).toString(),
    entryFee: new Decimal(row.entryFee).toString(),
    realizedPnl: new Decimal(row.realizedPnl).toString(),
    openedAt: row.openedAt,
    stopLoss: row.stopLoss === null ? null : new Decimal(row.stopLoss).toString(),
    takeProfit: row.takeProfit === null ? null : new Decimal(row.takeProfit).toString(),
    stopLossOrderId: row.stopLossOrderId,
    takeProfitOrderId: row.takeProfitOrderId,
  };
}

/** A position with no row yet: flat. */
export function flatPosition(ref: PositionRef): OwnerPosition {
  return {
    id: 0,
    accountId: ref.accountId,
    symbol: ref.symbol,
    owner: ref.owner,
    size: '0',
    entryPrice: '0',
    entryFee: '0',
    realizedPnl: '0',
    openedAt: null,
    stopLoss: null,
    takeProfit: null,
    stopLossOrderId: null,
    takeProfitOrderId: null,
  };
}

function intentStatus(order: ExchangeOrder): ExecutionOrderRow['status'] {
  if (order.status === 'open') return 'open';
  if (order.filled > 0) return 'filled';
  return order.status === 'canceled' ? 'canceled' : 'failed';
}

const book = (position: OwnerPosition): BookPosition => ({
  size: new Decimal(position.size),
  entryPrice: new Decimal(position.entryPrice),
  entryFee: new Decimal(position.entryFee),
});

/** The position after a fill: its book part, plus what flat and newly opened positions reset. */
function nextPosition(
  before: OwnerPosition,
  applied: AppliedFill,
  filledAt: Date,
): Omit<OwnerPosition, 'id'> {
  const size = applied.position.size;
  const isFlat = size.isZero();
  const flipped = !isFlat && !new Decimal(before.size).isZero() && applied.closedAmount.gt(0);
  const keepsProtection = !isFlat && !flipped;
  return {
    accountId: before.accountId,
    symbol: before.symbol,
    owner: before.owner,
    size: size.toString(),
    entryPrice: isFlat ? '0' : applied.position.entryPrice.toString(),
    entryFee: isFlat ? '0' : applied.position.entryFee.toString(),
    realizedPnl: new Decimal(before.realizedPnl).plus(applied.realizedPnl).toString(),
    openedAt: isFlat
      ? null
      : new Decimal(before.size).isZero() || flipped
        ? filledAt
        : before.openedAt,
    stopLoss: keepsProtection ? before.stopLoss : null,
    takeProfit: keepsProtection ? before.takeProfit : null,
    stopLossOrderId: keepsProtection ? before.stopLossOrderId : null,
    takeProfitOrderId: keepsProtection ? before.takeProfitOrderId : null,
  };
}

export interface SettlerDeps {
  readonly repo: ExecutionRepository;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly hooks: ReadonlyMap<OrderOwnerKind, SettlementHook>;
  readonly log?: { error(details: object, message: string): void };
}

export function createSettler(deps: SettlerDeps): Batcher<SettleItem, SettleOutcome> {
  const { repo, clock } = deps;

  async function flush(items: readonly SettleItem[]): Promise<SettleOutcome[]> {
    const now = clock.now();
    const { outcomes, settlements } = await repo.transaction(async (tx, txDb) => {
      const locked = new Map(
        (await tx.lockIntents(items.map((item) => item.intent.id))).map((row) => [row.id, row]),
      );
      const refs = items.map((item) => ({
        accountId: item.intent.accountId,
        symbol: item.intent.symbol,
        owner: { kind: item.intent.ownerKind, id: item.intent.ownerId },
      }));
      const positions = new Map<string, OwnerPosition>();
      for (const row of await tx.lockPositions(refs)) {
        const position = toOwnerPosition(row);
        positions.set(refKey(position), position);
      }
      const pending: {
        item: SettleItem;
        intent: ExecutionOrderRow;
        before: OwnerPosition;
        applied: AppliedFill;
        filled: Decimal;
        price: Decimal;
        fee: Decimal;
        filledAt: Date;
      }[] = [];
      const outcomeOf = new Map<number, { intent: ExecutionOrderRow; wasSettled: boolean }>();
      const changed = new Set<string>();
      const saved: ExecutionOrderRow[] = [];
      items.forEach((item, i) => {
        const current = locked.get(item.intent.id) ?? item.intent;
        if (FINAL_STATUSES.has(current.status)) {
          outcomeOf.set(i, { intent: current, wasSettled: true });
          return;
        }
        const order = item.order;
        // Only what filled since the last settlement of this intent (a resting order fills later).
        const filledBefore = new Decimal(current.filledAmount ?? 0);
        const feeBefore = new Decimal(current.fee ?? 0);
        const newlyFilled = new Decimal(order.filled).minus(filledBefore);
        const ref = refs[i] as PositionRef;
        const key = refKey(ref);
        const before = positions.get(key) ?? flatPosition(ref);
        let realizedPnl = current.realizedPnl;
        if (newlyFilled.gt(0)) {
          // A resting order filled when the market reached it; anything else fills as it is sent.
          const rested = current.type !== 'market' && current.timeInForce !== 'IOC';
          const filledAt = new Date(rested && order.filledAtMs ? order.filledAtMs : now.getTime());
          const signed = order.side === 'buy' ? newlyFilled : newlyFilled.negated();
          const price = new Decimal(order.averagePrice ?? 0);
          const fee = Decimal.max(new Decimal(order.fee).minus(feeBefore), 0);
          const applied = applyFill(book(before), { amount: signed, price, fee });
          positions.set(key, { ...nextPosition(before, applied, filledAt), id: before.id });
          changed.add(key);
          realizedPnl = new Decimal(realizedPnl ?? 0).plus(applied.realizedPnl).toString();
          pending.push({
            item,
            intent: current,
            before,
            applied,
            filled: newlyFilled,
            price,
            fee,
            filledAt,
          });
        }
        const intent: ExecutionOrderRow = {
          ...current,
          status: intentStatus(order),
          exchangeOrderId: order.id,
          filledAmount: String(order.filled),
          averagePrice: order.averagePrice === null ? null : String(order.averagePrice),
          fee: String(order.fee),
          realizedPnl,
          updatedAt: now,
        };
        saved.push(intent);
        outcomeOf.set(i, { intent, wasSettled: false });
      });
      await tx.saveIntents(saved);
      const written = await tx.upsertPositions(
        [...changed].map((key) => {
          const { id: _id, owner, ...values } = positions.get(key) as OwnerPosition;
          return { ...values, ownerKind: owner.kind, ownerId: owner.id, updatedAt: now };
        }),
      );
      const after = new Map(
        written.map((row) => [refKey(toOwnerPosition(row)), toOwnerPosition(row)]),
      );
      const savedById = new Map(saved.map((row) => [row.id, row]));
      const settlements = new Map<SettleItem, Settlement>();
      for (const entry of pending) {
        const intent = savedById.get(entry.intent.id) ?? entry.intent;
        const settlement: Settlement = {
          account: entry.item.account,
          intent,
          order: entry.item.order,
          filled: entry.filled.toString(),
          price: entry.price.toString(),
          fee: entry.fee.toString(),
          applied: entry.applied,
          before: entry.before,
          after: after.get(refKey(entry.before)) ?? entry.before,
          filledAt: entry.filledAt,
        };
        settlements.set(entry.item, settlement);
        const hook = deps.hooks.get(intent.ownerKind);
        if (hook) await hook(txDb, settlement);
      }
      const outcomes = items.map((item, i): SettleOutcome => {
        const outcome = outcomeOf.get(i) as { intent: ExecutionOrderRow; wasSettled: boolean };
        return { ...outcome, settlement: settlements.get(item) ?? null };
      });
      return { outcomes, settlements: [...settlements.values()] };
    });
    await publish(settlements);
    return outcomes;
  }

  async function publish(settlements: readonly Settlement[]): Promise<void> {
    for (const s of settlements) {
      const owner = { kind: s.intent.ownerKind, id: s.intent.ownerId };
      try {
        await deps.events.publish(
          'OrderFilled',
          {
            accountId: s.account.id,
            userId: s.account.userId,
            symbol: s.intent.symbol,
            owner,
            clientOrderId: s.intent.clientOrderId,
            exchangeOrderId: s.order.id,
            side: s.order.side,
            amount: Number(s.filled),
            price: Number(s.price),
            fee: Number(s.fee),
            reduceOnly: s.intent.reduceOnly,
            filledAtMs: s.filledAt.getTime(),
          },
          `order:${s.account.id}:${s.intent.clientOrderId}:${s.intent.filledAmount}`,
        );
        await deps.events.publish(
          'PositionChanged',
          {
            accountId: s.account.id,
            userId: s.account.userId,
            symbol: s.intent.symbol,
            owner,
            size: Number(s.after.size),
            entryPrice: new Decimal(s.after.size).isZero() ? null : Number(s.after.entryPrice),
            changedAtMs: s.filledAt.getTime(),
          },
          `position:${s.account.id}:${s.intent.symbol}:${owner.kind}:${owner.id}:${s.intent.id}:${s.intent.filledAmount}`,
        );
      } catch (error) {
        deps.log?.error(
          { err: error, clientOrderId: s.intent.clientOrderId },
          'event not published',
        );
      }
    }
  }

  return createBatcher(flush, { maxSize: 200 });
}
