// Healing a relation (after a restart, a takeover, a missed event, a resume): orders written and
// never sent go under their own keys, unsettled ones are reconciled, then every symbol moves to
// its target. And the late join: the leader's current positions, within the entry distance.
import { decisionKey, isWithinEntryDistance } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { CopyRelationRow, ExecutionOrderRow } from '../../db/schema/index.js';
import type { CopyCloses } from './copy-closes.js';
import { type CopyContext, ownerOf } from './copy-engine-context.js';
import type { CopyFigures } from './copy-figures.js';
import type { LeaderPoller } from './copy-leader-poller.js';
import type { SymbolReconciler } from './copy-reconcile.js';

/** What healing uses: the engine's shared state and its other parts. */
interface HealParts {
  readonly ctx: CopyContext;
  readonly poller: LeaderPoller;
  readonly figures: CopyFigures;
  readonly closes: CopyCloses;
  readonly reconciler: SymbolReconciler;
}

export interface HealOptions {
  readonly ignoreBackoff: boolean;
  /** Settles the relation's unsettled orders first (a restart, a takeover, an unknown outcome). */
  readonly reconcile: boolean;
  /** A timer pass's marks by exchange|symbol, shared by its relations. */
  readonly venueMarks?: Map<string, number>;
}

/** Every symbol the leader's book or the relation's own book holds. */
async function symbolsOf(p: HealParts, relation: CopyRelationRow): Promise<string[]> {
  const leader = await p.poller.leaderBookOf(relation.leaderAccountId);
  const own = await p.ctx.loaders.copyBook.run({
    relationId: relation.id,
    followerAccountId: relation.followerAccountId,
  });
  return [...new Set([...leader.map((s) => s.symbol), ...own.map((r) => r.symbol)])];
}

/**
 * Orders of the relation's current decisions written and never claimed (by a process that
 * died or froze before sending, or lost the lease): sent now under their own keys — the same
 * decision, once; the claim is fenced by this process's lease, so the old holder cannot send
 * it too. (Reconcile would call them never sent, and the decision would be lost.)
 */
async function sendWrittenDecisions(p: HealParts, relation: CopyRelationRow): Promise<void> {
  const owner = ownerOf(relation.id);
  const leader = await p.poller.leaderBookOf(relation.leaderAccountId);
  for (const symbol of await symbolsOf(p, relation)) {
    const state = leader.find((s) => s.symbol === symbol);
    const decision = decisionKey(`${symbol}|${state?.version ?? 'none'}`, relation);
    const ref = { accountId: relation.followerAccountId, symbol, owner };
    const written = (await p.ctx.execution.liveIntentsOn(ref)).filter(
      (i) => i.status === 'created' && i.idempotencyKey.startsWith(`${decision}|`),
    );
    for (const key of new Set(written.map((i) => i.idempotencyKey))) {
      const row = written.find((i) => i.idempotencyKey === key) as ExecutionOrderRow;
      // The stored intent is driven; the size given here is not used for a key that exists.
      await p.ctx.execution
        .submit({
          ...ref,
          key,
          size: { kind: 'target', amount: 0 },
          action: row.action,
          ...p.ctx.fenceOf(relation.id),
        })
        .catch(() => undefined); // refused: reconcile and the decision's receipt say so
    }
  }
}

/**
 * Heals a relation: its unsettled orders first (when `reconcile`: after a restart, a takeover,
 * an unknown outcome), then every symbol to its target, then its figures and limits. `venueMarks`
 * (a timer pass's, by exchange|symbol) lets the relations of one pass share the venue's marks
 * instead of each reading its own account's positions.
 */
async function heal(p: HealParts, relationId: number, options: HealOptions): Promise<void> {
  const relation = await p.ctx.loaders.relation.run(relationId);
  if (relation?.status !== 'active') return;
  // Orders in flight when the process stopped are settled before any new decision.
  if (options.reconcile) {
    await sendWrittenDecisions(p, relation);
    await p.ctx.execution.reconcileIntents(ownerOf(relationId));
  }
  for (const symbol of await symbolsOf(p, relation)) {
    await p.reconciler.reconcileSymbol(relationId, symbol, {
      kind: 'heal',
      ignoreBackoff: options.ignoreBackoff,
    });
  }
  const fresh = await p.ctx.loaders.relation.run(relationId);
  if (fresh && fresh.status !== 'stopped') {
    await p.closes.checkLimits(
      await p.figures.refreshFigures(
        fresh,
        options.venueMarks ? { venueMarks: options.venueMarks } : {},
      ),
    );
  }
}

async function lateJoin(p: HealParts, relationId: number): Promise<void> {
  const relation = await p.ctx.repo.relation(relationId);
  if (relation?.status !== 'active') return;
  const leaderAccount = await p.ctx.accountOf(relation.leaderAccountId);
  const book = (await p.poller.leaderBookOf(relation.leaderAccountId)).filter(
    (s) => !new Decimal(s.size).isZero(),
  );
  const marks = await p.poller.marksOf(
    leaderAccount,
    book.map((s) => s.symbol),
  );
  for (const state of book) {
    const mark = marks.get(state.symbol);
    const entry = Number(state.entryPrice);
    if (mark === undefined || !isWithinEntryDistance(entry, mark, relation.entryDistancePercent)) {
      const now = p.ctx.clock.now();
      await p.ctx.loaders.saveReceipt.run({
        relationId,
        changeKey: `${state.symbol}|${state.version}`,
        symbol: state.symbol,
        leaderSize: state.size,
        leaderSizeDelta: '0',
        leaderPrice: state.entryPrice,
        leaderFilledAt: new Date(Number(state.version.split('|')[0])),
        targetSize: '0',
        status: 'missed',
        missReason: 'too_far_from_entry',
        createdAt: now,
        updatedAt: now,
      });
      continue;
    }
    // The leader's entry is the cap's reference for a late join.
    p.ctx.lastFills.set(`${relation.leaderAccountId}|${state.symbol}`, {
      price: mark,
      atMs: p.ctx.clock.now().getTime(),
    });
    await p.reconciler.reconcileSymbol(relationId, state.symbol, { kind: 'late_join' });
  }
}

export function createCopyHealer(ctx: CopyContext, parts: Omit<HealParts, 'ctx'>) {
  const p: HealParts = { ctx, ...parts };
  return {
    heal: (relationId: number, options: HealOptions) => heal(p, relationId, options),
    lateJoin: (relationId: number) => lateJoin(p, relationId),
  };
}
export type CopyHealer = ReturnType<typeof createCopyHealer>;
