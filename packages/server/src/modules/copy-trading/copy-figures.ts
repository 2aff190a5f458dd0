// Receipts and figures: what each leader change did for a relation (copied, at what price and
// delay, or missed and why) and the relation's copied P&L, written together.
import type { CopyMissReason } from '@quantsquare/contracts';
import { copiedPnl, filledDelta, slippageBps as slippageOf } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { CopyReceiptRow, CopyRelationRow, ExecutionOrderRow } from '../../db/schema/index.js';
import type { CopyContext, Failure } from './copy-engine-context.js';
import type { LeaderPoller } from './copy-leader-poller.js';

/** The parts of a change's receipt every outcome shares. */
export interface ReceiptBase {
  readonly relationId: number;
  readonly changeKey: string;
  readonly symbol: string;
  readonly leaderSize: string;
  readonly leaderSizeDelta: string;
  readonly leaderPrice: string | null;
  readonly leaderFilledAt: Date;
  readonly attempts: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One relation facing one leader change on one symbol, as its receipt describes it. */
export interface ChangeScope {
  readonly relation: CopyRelationRow;
  readonly symbol: string;
  /** The follower's size held by the relation before this decision. */
  readonly own: Decimal;
  /** This change's receipt, when a pass wrote one before. */
  readonly existing: CopyReceiptRow | undefined;
  readonly leaderPrice: number | null;
  readonly receiptBase: ReceiptBase;
}

/** A copied fill: the follower's target and how far its orders moved it, at what price. */
export interface CopiedFill {
  readonly target: Decimal;
  readonly delta: Decimal;
  readonly price: number | null;
  readonly filledAt: Date | null;
}

async function recordFailure(
  p: FigureParts,
  relation: CopyRelationRow,
  symbol: string,
  failure: Failure,
) {
  const now = p.ctx.clock.now();
  await p.ctx.repo.update(relation.id, {
    lastError: `${symbol}: ${failure.message}`.slice(0, 1000),
    lastErrorAt: now,
    updatedAt: now,
  });
  await p.ctx.deps.operationLog.record({
    userId: relation.followerUserId,
    type: 'error',
    event: 'copy_failed',
    botSymbol: symbol,
    message: `Copy of ${symbol} failed: ${failure.message}`.slice(0, 1000),
    details: {
      relation_id: relation.id,
      reason: failure.reason,
      error_kind: failure.errorKind,
    },
  });
}

/**
 * The relation's copied P&L and trade count, saved on it. Without `fill`, its open positions
 * are valued at the exchange's marks; with it (a fan-out, which must not read every follower's
 * positions), the symbol just filled at its fill price and the others at their last marks.
 */
async function refreshFigures(
  p: FigureParts,
  relation: CopyRelationRow,
  options: FigureOptions = {},
): Promise<CopyRelationRow> {
  const book = await p.ctx.loaders.copyBook.run({
    relationId: relation.id,
    followerAccountId: relation.followerAccountId,
  });
  let marks: Map<string, number>;
  if (options.fill) {
    marks = new Map(p.ctx.lastMarks.get(relation.id));
    marks.set(options.fill.symbol, options.fill.price);
  } else {
    const open = book.filter((row) => !new Decimal(row.size).isZero()).map((row) => row.symbol);
    const account = await p.ctx.accountOf(relation.followerAccountId);
    const shared = options.venueMarks;
    if (shared) {
      const key = (symbol: string) => `${account.exchange}|${symbol}`;
      const missing = open.filter((symbol) => !shared.has(key(symbol)));
      if (missing.length > 0) {
        for (const [symbol, mark] of await p.poller.marksOf(account, missing))
          shared.set(key(symbol), mark);
      }
      marks = new Map(
        open.flatMap((symbol) => {
          const mark = shared.get(key(symbol));
          return mark === undefined ? [] : [[symbol, mark] as const];
        }),
      );
    } else {
      marks = await p.poller.marksOf(account, open);
    }
  }
  p.ctx.lastMarks.set(relation.id, marks);
  const pnl = copiedPnl(book, marks).toFixed(10);
  await options.beforeSave?.(pnl);
  const updated = await p.ctx.loaders.figures.run({
    id: relation.id,
    totalProfitLoss: pnl,
    clearError: options.clearError ?? false,
  });
  return updated ?? relation;
}

/** The change missed: its receipt, and the failure on the relation when there is one. */
async function missed(
  p: FigureParts,
  scope: ChangeScope,
  reason: CopyMissReason,
  target: Decimal,
  failure?: Failure,
): Promise<CopyReceiptRow> {
  if (failure) await recordFailure(p, scope.relation, scope.symbol, failure);
  return p.ctx.loaders.saveReceipt.run({
    ...scope.receiptBase,
    targetSize: target.toString(),
    status: 'missed',
    missReason: reason,
    errorKind: failure?.errorKind ?? null,
    relationPnl: scope.relation.totalProfitLoss ?? null,
  });
}

/** The change asked nothing of the follower (held already, or not joined): copied as zero. */
async function unchanged(p: FigureParts, scope: ChangeScope, target: Decimal): Promise<void> {
  await p.ctx.loaders.saveReceipt.run({
    ...scope.receiptBase,
    targetSize: target.toString(),
    followerSizeDelta: '0',
    status: 'copied',
    relationPnl: scope.relation.totalProfitLoss,
  });
}

/**
 * The change's receipt, copied: the follower's filled size at the order's price (the
 * weighted average of its venue trades), added to what an earlier decision on the same
 * change copied (a re-based amount), then the relation's figures. Answers the relation after
 * them (its limits are the caller's to check).
 */
async function copied(
  p: FigureParts,
  scope: ChangeScope,
  fill: CopiedFill,
): Promise<CopyRelationRow> {
  const { existing, receiptBase, leaderPrice, relation } = scope;
  const copiedBefore =
    existing?.status === 'copied' ? new Decimal(existing.followerSizeDelta ?? 0) : new Decimal(0);
  const side = fill.delta.gt(0) ? 'buy' : 'sell';
  const receipt = {
    ...receiptBase,
    targetSize: fill.target.toString(),
    followerSizeDelta: fill.delta.plus(copiedBefore).toString(),
    followerPrice: fill.price === null ? null : String(fill.price),
    slippageBps:
      fill.price !== null && leaderPrice !== null
        ? slippageOf(side, leaderPrice, fill.price)
        : null,
    delayMs:
      fill.filledAt === null
        ? null
        : Math.max(0, Math.round(fill.filledAt.getTime() - receiptBase.leaderFilledAt.getTime())),
    status: 'copied' as const,
  };
  // The receipt carries the P&L after it; the figures count it, so it is written first.
  return refreshFigures(p, relation, {
    ...(fill.price !== null ? { fill: { symbol: scope.symbol, price: fill.price } } : {}),
    clearError: relation.lastError !== null,
    beforeSave: (pnl) => p.ctx.loaders.saveReceipt.run({ ...receipt, relationPnl: pnl }),
  });
}

/**
 * The receipt of a decision made before, from its orders (all final). Answers the relation
 * after its figures when something was copied.
 */
async function decided(
  p: FigureParts,
  scope: ChangeScope,
  orders: readonly ExecutionOrderRow[],
): Promise<CopyRelationRow | null> {
  const filled = orders.filter((o) => new Decimal(o.filledAmount ?? 0).gt(0));
  if (filled.length === 0) {
    const refused = orders.find((o) => o.status === 'rejected' || o.status === 'expired');
    await (refused
      ? missed(p, scope, 'exchange_error', scope.own, {
          reason: 'exchange_error',
          errorKind: 'rejected',
          message: `order ${refused.clientOrderId} ${refused.status}: ${refused.error ?? ''}`,
        })
      : missed(p, scope, 'capped', scope.own));
    return null;
  }
  const last = filled.at(-1) as ExecutionOrderRow;
  return copied(p, scope, {
    target: scope.own,
    delta: filledDelta(filled),
    price: last.averagePrice === null ? null : Number(last.averagePrice),
    filledAt: last.updatedAt,
  });
}

/** How `refreshFigures` values the relation's open positions. */
export interface FigureOptions {
  readonly fill?: { readonly symbol: string; readonly price: number };
  /** Marks by exchange|symbol shared by a timer pass (filled from this account when missing). */
  readonly venueMarks?: Map<string, number>;
  /** Runs with the P&L before the relation's figures are saved (which count the receipts). */
  readonly beforeSave?: (pnl: string) => Promise<unknown>;
  readonly clearError?: boolean;
}

/** What receipts and figures use: the engine's shared state and the venue's marks. */
interface FigureParts {
  readonly ctx: CopyContext;
  readonly poller: Pick<LeaderPoller, 'marksOf'>;
}

export function createCopyFigures(ctx: CopyContext, poller: Pick<LeaderPoller, 'marksOf'>) {
  const p: FigureParts = { ctx, poller };
  return {
    recordFailure: (relation: CopyRelationRow, symbol: string, failure: Failure) =>
      recordFailure(p, relation, symbol, failure),
    refreshFigures: (relation: CopyRelationRow, options?: FigureOptions) =>
      refreshFigures(p, relation, options),
    missed: (scope: ChangeScope, reason: CopyMissReason, target: Decimal, failure?: Failure) =>
      missed(p, scope, reason, target, failure),
    unchanged: (scope: ChangeScope, target: Decimal) => unchanged(p, scope, target),
    copied: (scope: ChangeScope, fill: CopiedFill) => copied(p, scope, fill),
    decided: (scope: ChangeScope, orders: readonly ExecutionOrderRow[]) =>
      decided(p, scope, orders),
  };
}
export type CopyFigures = ReturnType<typeof createCopyFigures>;
