import { type AppliedFill, applyFill, type BookPosition } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { type Batcher, createBatcher } from '../common/batcher.js';
import type { Clock } from '../common/clock.js';
import { plainDecimal } from '../common/decimal-text.js';
import type {
  ExchangeAccountRow,
  ExecutionOrderRow,
  ExecutionPositionRow,
} from '../db/schema/index.js';
import type { EventBus } from '../events/event-bus.types.js';
import type { Outbox, OutboxEvent } from '../events/outbox.js';
import type { ExchangeOrder, ExchangeTrade } from '../exchange/exchange-client.js';
import type { ExecutionRepository } from './execution.repository.js';
import type {
  OrderOwnerKind,
  OwnerPosition,
  PositionRef,
  Settlement,
  SettlementHook,
} from './execution.types.js';
import { isFinal, transition } from './order-states.js';

// Settling: what the venue says of an order moves its state (order-states.ts), and each venue
// trade not yet in the fills ledger is written there and applied to the owner's position at its
// own price and fee, in one transaction with the owner's settlement hook (a bot's trade row and
// statistics). A trade already in the ledger is never applied again, whoever settles it.
// Concurrent settlements share one transaction. After the commit, OrderFilled and
// PositionChanged are published.

export interface SettleItem {
  readonly account: ExchangeAccountRow;
  readonly intent: ExecutionOrderRow;
  readonly order: ExchangeOrder;
  /**
   * The venue's trades of the order (all it shows; those in the ledger already are skipped), or
   * null where the venue keeps none: then the order's own increase in filled amount is one fill,
   * priced at the increase's share of its average.
   */
  readonly trades: readonly ExchangeTrade[] | null;
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
    size: plainDecimal(row.size),
    entryPrice: plainDecimal(row.entryPrice),
    entryFee: plainDecimal(row.entryFee),
    realizedPnl: plainDecimal(row.realizedPnl),
    openedAt: row.openedAt,
    stopLoss: row.stopLoss === null ? null : plainDecimal(row.stopLoss),
    takeProfit: row.takeProfit === null ? null : plainDecimal(row.takeProfit),
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

/** A fill to apply: one venue trade (or one increase of a trade-less order). */
interface FillIn {
  readonly venueTradeId: string;
  readonly amount: Decimal;
  readonly price: Decimal;
  readonly feeCost: Decimal;
  readonly feeCurrency: string;
  readonly feeQuote: Decimal;
  readonly filledAt: Date;
}

/**
 * The fills an item brings: its trades, or — without trades — the order's increase since what
 * the intent holds (amount, the increase's own average price, the fee's increase).
 */
function fillsOf(item: SettleItem, current: ExecutionOrderRow, fallbackAt: Date): FillIn[] {
  if (item.trades !== null) {
    return item.trades
      .filter((trade) => trade.amount > 0)
      .map((trade) => ({
        venueTradeId: trade.id,
        amount: new Decimal(trade.amount),
        price: new Decimal(trade.price),
        feeCost: new Decimal(trade.feeCost),
        feeCurrency: trade.feeCurrency,
        feeQuote: new Decimal(trade.fee),
        filledAt: trade.timestamp > 0 ? new Date(trade.timestamp) : fallbackAt,
      }));
  }
  const { order } = item;
  const filledBefore = new Decimal(current.filledAmount ?? 0);
  const increase = new Decimal(order.filled).minus(filledBefore);
  if (!increase.gt(0) || order.averagePrice === null) return [];
  const price = new Decimal(order.averagePrice)
    .mul(order.filled)
    .minus(new Decimal(current.averagePrice ?? 0).mul(filledBefore))
    .div(increase);
  const fee = Decimal.max(new Decimal(order.fee).minus(current.fee ?? 0), 0);
  return [
    {
      venueTradeId: `${order.id}#${new Decimal(order.filled).toString()}`,
      amount: increase,
      price: price.gt(0) ? price : new Decimal(order.averagePrice),
      feeCost: fee,
      feeCurrency: 'USDT',
      feeQuote: fee,
      filledAt: fallbackAt,
    },
  ];
}

/** Several fills' effect on one position, as one (sums; the closed part's entry is shared). */
function combine(fills: readonly AppliedFill[]): AppliedFill {
  const [first, ...rest] = fills as [AppliedFill, ...AppliedFill[]];
  return rest.reduce(
    (sum, next) => ({
      position: next.position,
      closedAmount: sum.closedAmount.plus(next.closedAmount),
      closedDirection: sum.closedDirection || next.closedDirection,
      closedEntryPrice: sum.closedAmount.isZero() ? next.closedEntryPrice : sum.closedEntryPrice,
      closedEntryFee: sum.closedEntryFee.plus(next.closedEntryFee),
      closingFee: sum.closingFee.plus(next.closingFee),
      realizedPnl: sum.realizedPnl.plus(next.realizedPnl),
    }),
    first,
  );
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
  /** Events are written with the settlement, published after its commit. */
  readonly outbox: Outbox;
  readonly hooks: ReadonlyMap<OrderOwnerKind, SettlementHook>;
  readonly log?: { error(details: object, message: string): void };
}

/** The facts each settlement states (its fill, then its position), as events with deterministic ids. */
function eventsOf(settlements: readonly Settlement[]): OutboxEvent[][] {
  return settlements.map((s): OutboxEvent[] => {
    const owner = { kind: s.intent.ownerKind, id: s.intent.ownerId };
    return [
      {
        type: 'OrderFilled',
        id: `order:${s.account.id}:${s.intent.clientOrderId}:${s.intent.filledAmount}`,
        payload: {
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
          trigger:
            s.intent.type === 'stop_market'
              ? 'stop_loss'
              : s.intent.type === 'take_profit_market'
                ? 'take_profit'
                : null,
          filledAtMs: s.filledAt.getTime(),
        },
      },
      {
        type: 'PositionChanged',
        id: `position:${s.account.id}:${s.intent.symbol}:${owner.kind}:${owner.id}:${s.intent.id}:${s.intent.filledAmount}`,
        payload: {
          accountId: s.account.id,
          userId: s.account.userId,
          symbol: s.intent.symbol,
          owner,
          size: Number(s.after.size),
          entryPrice: new Decimal(s.after.size).isZero() ? null : Number(s.after.entryPrice),
          changedAtMs: s.filledAt.getTime(),
        },
      },
    ];
  });
}

/** An item whose new fills moved its owner's position: what its settlement will state. */
interface Applied {
  readonly item: SettleItem;
  readonly intent: ExecutionOrderRow;
  readonly before: OwnerPosition;
  readonly applied: AppliedFill;
  readonly filled: Decimal;
  readonly price: Decimal;
  readonly fee: Decimal;
  readonly filledAt: Date;
}

/** The fills each item brings, as the ledger will hold them (one list per item, in order). */
function candidatesOf(
  items: readonly SettleItem[],
  locked: ReadonlyMap<number, ExecutionOrderRow>,
  now: Date,
): FillIn[][] {
  return items.map((item) => {
    const current = locked.get(item.intent.id) ?? item.intent;
    if (isFinal(current.status)) return [];
    const rested = current.type !== 'market' && current.timeInForce !== 'IOC';
    const restedAt = item.order.filledAtMs ? new Date(item.order.filledAtMs) : now;
    // A resting order filled when the market reached it; anything else as it was sent.
    return fillsOf(item, current, rested ? restedAt : now).map((fill) =>
      rested ? fill : { ...fill, filledAt: now },
    );
  });
}

/** The ledger rows of the items' candidate fills. */
function ledgerRows(items: readonly SettleItem[], candidates: readonly FillIn[][], now: Date) {
  return items.flatMap((item, i) =>
    (candidates[i] ?? []).map((fill) => ({
      accountId: item.intent.accountId,
      orderId: item.intent.id,
      venueTradeId: fill.venueTradeId,
      symbol: item.intent.symbol,
      side: item.intent.side,
      amount: fill.amount.toString(),
      price: fill.price.toString(),
      feeCost: fill.feeCost.toString(),
      feeCurrency: fill.feeCurrency,
      feeQuote: fill.feeQuote.toString(),
      filledAt: fill.filledAt,
      createdAt: now,
    })),
  );
}

/** `fresh` fills applied one by one to the position `before`: their sum, and the result. */
function applyFresh(current: ExecutionOrderRow, before: OwnerPosition, fresh: readonly FillIn[]) {
  let position = book(before);
  const appliedEach: AppliedFill[] = [];
  for (const fill of fresh) {
    const signed = current.side === 'buy' ? fill.amount : fill.amount.negated();
    const applied = applyFill(position, { amount: signed, price: fill.price, fee: fill.feeQuote });
    appliedEach.push(applied);
    position = applied.position;
  }
  return {
    applied: combine(appliedEach),
    filled: fresh.reduce((sum, f) => sum.plus(f.amount), new Decimal(0)),
    cost: fresh.reduce((sum, f) => sum.plus(f.amount.mul(f.price)), new Decimal(0)),
    fee: fresh.reduce((sum, f) => sum.plus(f.feeQuote), new Decimal(0)),
  };
}

/**
 * One item against the locked state: its new fills (those the ledger took for it) applied to
 * its owner's position in `positions`, and its intent's next row. `applied` is null when
 * nothing new filled.
 */
function settleItem(
  item: SettleItem,
  current: ExecutionOrderRow,
  fresh: readonly FillIn[],
  positions: Map<string, OwnerPosition>,
  ref: PositionRef,
  now: Date,
): { intent: ExecutionOrderRow; applied: Applied | null } {
  const { order } = item;
  const key = refKey(ref);
  const before = positions.get(key) ?? flatPosition(ref);
  const filledBefore = new Decimal(current.filledAmount ?? 0);
  let filledNow = filledBefore;
  let costNow = filledBefore.mul(current.averagePrice ?? 0);
  let feeNow = new Decimal(current.fee ?? 0);
  let realizedPnl = current.realizedPnl;
  let applied: Applied | null = null;
  if (fresh.length > 0) {
    const sum = applyFresh(current, before, fresh);
    const filledAt = fresh.at(-1)?.filledAt ?? now;
    positions.set(key, { ...nextPosition(before, sum.applied, filledAt), id: before.id });
    realizedPnl = new Decimal(realizedPnl ?? 0).plus(sum.applied.realizedPnl).toString();
    filledNow = filledNow.plus(sum.filled);
    costNow = costNow.plus(sum.cost);
    feeNow = feeNow.plus(sum.fee);
    applied = {
      item,
      intent: current,
      before,
      applied: sum.applied,
      filled: sum.filled,
      price: sum.cost.div(sum.filled),
      fee: sum.fee,
      filledAt,
    };
  }
  // The venue's word moves the state; a final one waits until the ledger holds every trade of
  // what the venue says filled (trades may show a moment after the order).
  let status = transition(current.status, { kind: 'seen', order });
  const isShort = item.trades !== null && filledNow.lt(new Decimal(order.filled).minus(1e-12));
  if (isFinal(status) && isShort) {
    status = transition(current.status, {
      kind: 'seen',
      order: { status: 'open', filled: filledNow.toNumber(), amount: order.amount },
    });
  }
  const intent: ExecutionOrderRow = {
    ...current,
    status,
    exchangeOrderId: order.id,
    filledAmount: filledNow.toString(),
    averagePrice: filledNow.gt(0) ? costNow.div(filledNow).toString() : null,
    fee: feeNow.toString(),
    realizedPnl,
    lookupMisses: 0,
    firstMissAt: null,
    updatedAt: now,
  };
  return { intent, applied };
}

export function createSettler(deps: SettlerDeps): Batcher<SettleItem, SettleOutcome> {
  const { repo, clock } = deps;

  /** The settlements of what applied, each with the book row it left and its owner's hook run. */
  async function settlementsOf(
    txDb: Parameters<SettlementHook>[0],
    pending: readonly Applied[],
    saved: readonly ExecutionOrderRow[],
    after: ReadonlyMap<string, OwnerPosition>,
  ): Promise<Map<SettleItem, Settlement>> {
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
    return settlements;
  }

  async function flush(items: readonly SettleItem[]): Promise<SettleOutcome[]> {
    const now = clock.now();
    const { outcomes, events: settlements } = await repo.transaction(async (tx, txDb) => {
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
      const before = new Map(positions);
      // The ledger decides which trades are new: each is inserted once, and applied by the one
      // item that takes it from the answer (two settlements of one order in a batch share it).
      const candidates = candidatesOf(items, locked, now);
      const inserted = await tx.insertFills(ledgerRows(items, candidates, now));
      const isNew = new Set(inserted.map((row) => `${row.accountId}|${row.venueTradeId}`));
      const pending: Applied[] = [];
      const saved: ExecutionOrderRow[] = [];
      const outcomeOf = items.map((item, i): { intent: ExecutionOrderRow; wasSettled: boolean } => {
        const current = locked.get(item.intent.id) ?? item.intent;
        if (isFinal(current.status)) return { intent: current, wasSettled: true };
        const fresh = (candidates[i] ?? []).filter((fill) =>
          isNew.delete(`${current.accountId}|${fill.venueTradeId}`),
        );
        const next = settleItem(item, current, fresh, positions, refs[i] as PositionRef, now);
        if (next.applied) pending.push(next.applied);
        saved.push(next.intent);
        return { intent: next.intent, wasSettled: false };
      });
      await tx.saveIntents(saved);
      const changed = [...positions].filter(([key, position]) => before.get(key) !== position);
      const written = await tx.upsertPositions(
        changed.map(([, position]) => {
          const { id: _id, owner, ...values } = position;
          return { ...values, ownerKind: owner.kind, ownerId: owner.id, updatedAt: now };
        }),
      );
      const after = new Map(
        written.map((row) => {
          const position = toOwnerPosition(row);
          return [refKey(position), position];
        }),
      );
      const settled = await settlementsOf(txDb, pending, saved, after);
      const groups = eventsOf([...settled.values()]);
      await deps.outbox.writeGroups(txDb, groups);
      const outcomes = items.map(
        (item, i): SettleOutcome => ({
          ...(outcomeOf[i] as { intent: ExecutionOrderRow; wasSettled: boolean }),
          settlement: settled.get(item) ?? null,
        }),
      );
      return { outcomes, events: groups.flat() };
    });
    await publish(settlements);
    return outcomes;
  }

  async function publish(events: readonly OutboxEvent[]): Promise<void> {
    try {
      await deps.outbox.publish(deps.events, events);
    } catch (error) {
      // Written with the fills: the outbox relay publishes what this did not.
      deps.log?.error(
        { err: error, events: events.length },
        'events not published; the relay will',
      );
    }
  }

  return createBatcher(flush, { maxSize: 200 });
}
