// One relation moved toward its target on one symbol, for the leader's current change: the reads
// that scope the decision, the engine's copy maths, the orders through the execution core, and the
// change's receipt (copied or missed, why), the relation's figures and its limits.
import {
  type CopyDecision,
  type CopyLeg,
  copyDecision,
  copyJoins,
  copyRatio,
  decisionKey,
  missRetryBackoffMs,
  RETRYABLE_MISSES,
} from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { ExecutionOrderRow } from '../../db/schema/index.js';
import type { MarketFacts } from '../../exchange/exchange-client.js';
import { ExecutionError, type IntentResult } from '../../execution/index.js';
import type { CopyCloses } from './copy-closes.js';
import {
  type CopyContext,
  classifyCopyFailure,
  ownerOf,
  type Trigger,
} from './copy-engine-context.js';
import type { ChangeScope, CopyFigures } from './copy-figures.js';
import type { LeaderPoller } from './copy-leader-poller.js';
import { slippageCapPercent } from './copy-trading.mappers.js';

/** What moving a relation uses: the engine's shared state and its other parts. */
interface ReconcileParts {
  readonly ctx: CopyContext;
  readonly poller: Pick<LeaderPoller, 'leaderBookOf'>;
  readonly figures: CopyFigures;
  readonly closes: Pick<CopyCloses, 'checkLimits' | 'pauseForRisk'>;
}

/** A change this pass acts on, with what a decision needs beyond its receipt. */
interface Decidable extends ChangeScope {
  readonly trigger: Trigger;
  readonly leaderSize: Decimal;
  readonly previousLeader: Decimal;
  /** The key of this decision's orders (one leg each: c/o/r). */
  readonly orderKey: string;
  /** The decision's orders made before (a heal finds them; all final here). */
  readonly earlier: readonly ExecutionOrderRow[];
}

/**
 * Reads what a decision on the change needs, or null when this pass leaves the change alone:
 * an order still on its way, a repeated event, a heal with nothing new or a miss not yet due.
 */
async function scopeOf(
  p: ReconcileParts,
  relationId: number,
  symbol: string,
  trigger: Trigger,
): Promise<Decidable | null> {
  const relation = await p.ctx.loaders.relation.run(relationId);
  if (!relation || relation.status === 'stopped') return null;
  const leaderBook = await p.poller.leaderBookOf(relation.leaderAccountId);
  const state = leaderBook.find((s) => s.symbol === symbol);
  const leaderSize = new Decimal(state?.size ?? 0);
  const version = state?.version ?? 'none';
  const changeKey = `${symbol}|${version}`;
  const start = relation.leaderStartBook[symbol];
  const owner = ownerOf(relation.id);
  const bookRef = { accountId: relation.followerAccountId, symbol, owner };
  const [existing, latest, ownPosition, live] = await Promise.all([
    p.ctx.loaders.receipt.run({ relationId: relation.id, changeKey }),
    p.ctx.loaders.latestOnSymbol.run({ relationId: relation.id, symbol }),
    p.ctx.execution.position(bookRef),
    p.ctx.execution.liveIntentsOn(bookRef),
  ]);
  // An order of the relation on the symbol is still on its way (accepted, in doubt): nothing
  // is decided until the venue has answered — a second order now would double the copy.
  // A created intent never left: of this decision it is sent below under its own key; of an
  // older decision (the leader moved on while its process was down) it is an orphan that
  // must not hold the relation back.
  if (live.some((intent) => intent.status !== 'created')) return null;

  if (trigger.kind === 'event' && existing) return null; // a repeated event: this change is done
  if (trigger.kind === 'heal') {
    if (!existing && start && start.version === version) return null; // nothing since joining
    if (existing?.status === 'missed') {
      const reason = existing.missReason;
      if (!reason || !RETRYABLE_MISSES.has(reason)) return null;
      const due = existing.updatedAt.getTime() + missRetryBackoffMs(existing.attempts);
      if (!trigger.ignoreBackoff && p.ctx.clock.now().getTime() < due) return null;
    }
  }

  // The previous leader size this relation saw: its latest receipt on the symbol, else the
  // book at the start.
  const previous = latest.find((r) => r.changeKey !== changeKey);
  const previousLeader = new Decimal(previous?.leaderSize ?? start?.size ?? 0);
  const fill = p.ctx.lastFills.get(`${relation.leaderAccountId}|${symbol}`);
  const leaderPrice = fill?.price ?? (Number(state?.entryPrice ?? 0) || null);
  const changedAtMs = state ? Number(state.version.split('|')[0]) : p.ctx.clock.now().getTime();
  // One decision, one key: the leader's change on the symbol at the relation's sizing (an edit
  // of the amount re-bases it: the user's new decision). Its orders are the legs c/o/r.
  const firstKey = decisionKey(changeKey, relation);
  // A heal (after a restart, a missed event, an order the follower settled after the submit)
  // finds the decision's orders, all final here: made already. Its receipt is written from
  // them when there is none yet; nothing is sent again. (Events, the fan-out's path, skip this
  // read: a repeated key answers `done`.)
  const tries =
    trigger.kind !== 'event' ? await p.ctx.execution.intentsOf(owner, `${firstKey}|`) : [];
  // An order proven never to have reached the venue (expired: its process died after claiming
  // it) made nothing: the decision is made again, keyed by how many such orders it has.
  const expired = tries.filter((o) => o.status === 'expired').length;
  const now = p.ctx.clock.now();
  return {
    relation,
    symbol,
    trigger,
    own: new Decimal(ownPosition.size),
    existing,
    leaderPrice,
    leaderSize,
    previousLeader,
    orderKey: expired === 0 ? firstKey : `${firstKey}|x${expired}`,
    earlier: tries.filter((o) => o.status !== 'expired'),
    receiptBase: {
      relationId: relation.id,
      changeKey,
      symbol,
      leaderSize: leaderSize.toString(),
      leaderSizeDelta: leaderSize.minus(previousLeader).toString(),
      leaderPrice: leaderPrice === null ? null : String(leaderPrice),
      leaderFilledAt: new Date(fill?.atMs ?? changedAtMs),
      // Passes that met this change and could not act on it (the miss receipt's backoff).
      attempts: (existing?.attempts ?? 0) + 1,
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** The receipt of a decision made before, then the relation's limits. */
async function decided(
  p: ReconcileParts,
  scope: Decidable,
  orders: readonly ExecutionOrderRow[],
): Promise<void> {
  const updated = await p.figures.decided(scope, orders);
  if (updated) await p.closes.checkLimits(updated);
}

/**
 * The engine's decision for the change, or null when it was answered here (a paused or
 * disabled follower, a change it does not join, a market it cannot read, a size below the
 * market's minimum).
 */
async function decide(
  p: ReconcileParts,
  scope: Decidable,
): Promise<Exclude<CopyDecision, { kind: 'below_minimum' }> | null> {
  const { relation, existing, own, symbol } = scope;
  if (relation.status === 'paused') {
    if (!existing) await p.figures.missed(scope, 'paused', own);
    return null;
  }
  // A follower who never joined this position does not open on the leader's reductions.
  const joins = copyJoins({
    leaderSize: scope.leaderSize,
    previousLeaderSize: scope.previousLeader,
    followerSize: own,
    isLateJoin: scope.trigger.kind === 'late_join',
  });
  if (!joins) {
    // Recorded already: a later pass must not overwrite what it says.
    if (!existing) await p.figures.unchanged(scope, new Decimal(0));
    return null;
  }
  const follower = await p.ctx.accountOf(relation.followerAccountId);
  if (!follower.isActive) {
    // A disabled account takes no orders: missed as paused (the timer pauses the relation).
    if (!existing) await p.figures.missed(scope, 'paused', own);
    return null;
  }
  let facts: MarketFacts;
  try {
    facts = await p.ctx.execution.clientOf(follower).marketFacts(symbol);
  } catch (error) {
    const failure = classifyCopyFailure(error);
    await p.figures.missed(scope, failure.reason, own, failure);
    return null;
  }
  // The sizing, reverse, the venue's step and minimums and the entry cap: the engine's one
  // decision, which the copy simulator replays too.
  const decision = copyDecision({
    leaderSize: scope.leaderSize,
    ratio: copyRatio(relation.copyAmount, relation.leaderEquityBase),
    mode: relation.copyMode,
    followerSize: own,
    market: facts,
    leaderPrice: scope.leaderPrice,
    slippageCapPercent: slippageCapPercent(relation, symbol),
  });
  if (decision.kind === 'below_minimum') {
    await p.figures.missed(scope, 'below_minimum', new Decimal(decision.target));
    await p.ctx.repo.update(relation.id, {
      lastError: `${symbol}: the copied size ${new Decimal(decision.unrounded).toDecimalPlaces(8)} is below the market's minimum ${decision.minimum}${decision.limit === 'notional' ? ' USDT' : ''}`,
      lastErrorAt: scope.receiptBase.createdAt,
    });
    return null;
  }
  return decision;
}

/**
 * Sends the decision's legs in order. Answers their results, or null when this pass is done
 * with the change (a flip's close still on its way, fenced, or refused and recorded).
 */
async function sendLegs(
  p: ReconcileParts,
  scope: Decidable,
  legs: readonly CopyLeg[],
  target: Decimal,
): Promise<IntentResult[] | null> {
  const { relation, symbol, leaderPrice } = scope;
  const results: IntentResult[] = [];
  try {
    for (const leg of legs) {
      results.push(
        await p.ctx.execution.submit({
          accountId: relation.followerAccountId,
          symbol,
          owner: ownerOf(relation.id),
          key: `${scope.orderKey}|${leg.leg}`,
          ...p.ctx.fenceOf(relation.id),
          size: { kind: 'target', amount: leg.targetSize },
          pricing:
            leg.priceCap === null ? { type: 'market' } : { type: 'ioc', priceCap: leg.priceCap },
          action: leg.action,
          ...(leg.leg === 'o' && leaderPrice !== null ? { referencePrice: leaderPrice } : {}),
        }),
      );
      // A flip's close is still on its way: the opening leg waits for the next pass.
      if (results.at(-1)?.status === 'in_flight') return null;
    }
  } catch (error) {
    // Another worker holds the relation now: it decides (nothing was sent).
    if (error instanceof ExecutionError && error.kind === 'fenced') return null;
    // Refused (or never sent): final for this decision; the next change decides again.
    const failure = classifyCopyFailure(error);
    await p.figures.missed(scope, failure.reason, target, failure);
    // The follower's account refused the opening by its risk gate: the copy pauses with it.
    if (
      error instanceof ExecutionError &&
      (error.kind === 'risk_halted' || error.kind === 'risk_limit')
    ) {
      await p.closes.pauseForRisk(relation, error.kind, error.message);
    }
    return null;
  }
  return results;
}

/** The change's receipt from what the sent legs answered. */
async function recordSent(
  p: ReconcileParts,
  scope: Decidable,
  results: readonly IntentResult[],
  target: Decimal,
  opens: boolean,
): Promise<void> {
  // Accepted and not filled yet: the core's follower settles it, and the next pass writes
  // this change's receipt from the settled order.
  if (results.some((r) => r.status === 'in_flight')) return;
  const owner = ownerOf(scope.relation.id);
  const last = results.at(-1);
  // Made before (a repeated event met the settled key): its receipt from its orders.
  if (last?.status === 'done') {
    if (!scope.existing)
      await decided(p, scope, await p.ctx.execution.intentsOf(owner, `${scope.orderKey}|`));
    return;
  }
  if (last?.status === 'skipped') {
    await p.figures.missed(scope, 'below_minimum', target);
    return;
  }
  const after = new Decimal(
    (last?.status === 'filled'
      ? last.settlement.after
      : last && 'position' in last && last.position
        ? last.position
        : await p.ctx.execution.position({
            accountId: scope.relation.followerAccountId,
            symbol: scope.symbol,
            owner,
          })
    ).size,
  );
  const delta = after.minus(scope.own);
  if (delta.isZero() && (last?.status === 'not_filled' || (opens && last?.status !== 'noop'))) {
    // The IOC found no price inside the cap: missed, final for this decision.
    await p.figures.missed(scope, 'capped', target);
    return;
  }
  const settlement = [...results].reverse().find((r) => r.status === 'filled');
  const order = settlement?.status === 'filled' ? settlement.settlement : null;
  const updated = await p.figures.copied(scope, {
    target,
    delta,
    // The order's average over its venue trades (a settlement's own price is its part only).
    price: order ? Number(order.intent.averagePrice ?? order.price) : null,
    filledAt: order ? order.filledAt : null,
  });
  await p.closes.checkLimits(updated);
}

/**
 * Moves one relation toward its target on one symbol, for the leader's current change. Writes
 * the change's receipt (copied or missed, why), the relation's figures and its limits.
 */
async function reconcileSymbol(
  p: ReconcileParts,
  relationId: number,
  symbol: string,
  trigger: Trigger,
): Promise<void> {
  const scope = await scopeOf(p, relationId, symbol, trigger);
  if (!scope) return;
  const { earlier, existing } = scope;
  // Made before (only a flip's closing leg may come before its opening one): never again.
  if (
    earlier.some((o) => !o.idempotencyKey.endsWith('|c') || !new Decimal(o.filledAmount ?? 0).gt(0))
  ) {
    if (!existing) await decided(p, scope, earlier);
    return;
  }
  const decision = await decide(p, scope);
  if (!decision) return;
  const target = new Decimal(decision.target);
  if (decision.kind === 'hold') {
    // Held already. A timer pass after this change was copied must keep the receipt's fill
    // (it once overwrote it with a zero delta, so the copied trade vanished from the count).
    if (existing) return;
    // A flip's closing leg that left the follower at the target: that is the decision.
    if (earlier.length > 0) await decided(p, scope, earlier);
    else await p.figures.unchanged(scope, target);
    return;
  }
  // An increase (not a flip, whose opening leg follows a close).
  const opens = decision.legs.length === 1 && decision.legs[0]?.leg === 'o';
  const results = await sendLegs(p, scope, decision.legs, target);
  if (results) await recordSent(p, scope, results, target, opens);
}

export function createSymbolReconciler(ctx: CopyContext, parts: Omit<ReconcileParts, 'ctx'>) {
  const p: ReconcileParts = { ctx, ...parts };
  return {
    reconcileSymbol: (relationId: number, symbol: string, trigger: Trigger) =>
      reconcileSymbol(p, relationId, symbol, trigger),
  };
}
export type SymbolReconciler = ReturnType<typeof createSymbolReconciler>;
