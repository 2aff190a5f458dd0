// How the copy engine drives its relations: each one's work queued on it and tracked (so a stop
// waits for it), only the relations whose lease this process holds, fanned out a batch at a time
// on a leader's change and on every timer pass (copy-engine.ts builds it and starts the timers).
import { leaderDriftPercent, MISS_RETRY_BASE_MS } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { KeyedQueue } from '../../common/keyed-queue.js';
import { copyLease, type Leases } from '../../common/leases.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import type { BusEvent } from '../../events/index.js';
import type { CopyCloses } from './copy-closes.js';
import { type CopyContext, ownerOf } from './copy-engine-context.js';
import type { CopyHealer } from './copy-heal.js';
import type { LeaderPoller } from './copy-leader-poller.js';
import type { CopyLifecycle } from './copy-lifecycle.js';
import type { SymbolReconciler } from './copy-reconcile.js';

/** One copy engine: its parts' shared context, its parts, and what it drives now. */
export interface CopyDriver {
  readonly ctx: CopyContext;
  readonly leases: Leases;
  /** Relations a fan-out moves at once. */
  readonly concurrency: number;
  /** Per relation, the work queued on it (an event and the timer never interleave). */
  readonly chains: KeyedQueue<number>;
  readonly inFlight: Set<Promise<unknown>>;
  /** Accounts whose exchange client is built and has its markets (see `prepareClients`). */
  readonly prepared: Set<number>;
  /** The square's strategy reader; without it (a bare engine) no strategy is seen withdrawn. */
  readonly hasStrategyReader: boolean;
  readonly lifecycle: CopyLifecycle;
  readonly poller: LeaderPoller;
  readonly closes: CopyCloses;
  readonly reconciler: SymbolReconciler;
  readonly healer: CopyHealer;
  unsubscribe: (() => void)[];
  timer: NodeJS.Timeout | undefined;
  leaseTimer: NodeJS.Timeout | undefined;
  ticking: Promise<void> | null;
  isStopping: boolean;
}

export function track<T>(d: CopyDriver, work: Promise<T>): Promise<T> {
  d.inFlight.add(work);
  void work.finally(() => d.inFlight.delete(work)).catch(() => undefined);
  return work;
}

/**
 * The relations among `relations` this process drives: those whose lease it holds, after
 * taking the free (or expired) leases of the others.
 */
async function held<T extends { readonly id: number }>(
  d: CopyDriver,
  relations: readonly T[],
): Promise<T[]> {
  const { leases } = d;
  const missing = relations.filter((r) => !leases.isHeld(copyLease(r.id)));
  // A stopping engine takes nothing new: its stop is about to let go of what it holds.
  if (missing.length > 0 && !d.isStopping)
    await leases.acquire(missing.map((r) => copyLease(r.id)));
  return relations.filter((r) => leases.isHeld(copyLease(r.id)));
}

/** Runs `work` on the relation's queue if this process holds (or can take) its lease. */
export async function whenHeld(
  d: CopyDriver,
  relationId: number,
  work: () => Promise<void>,
): Promise<void> {
  if ((await held(d, [{ id: relationId }])).length === 0) return;
  await serial(d, relationId, work);
}

/** Keeps this process's leases; takes the free ones of relations that still need a driver. */
export async function leaseUpkeep(d: CopyDriver): Promise<void> {
  const { repo } = d.ctx;
  await d.leases.renew();
  await held(d, [
    ...(await repo.relationsByStatus(['active', 'paused'])),
    ...(await repo.stoppedWithOpenPositions()),
  ]);
}

export function serial<T>(d: CopyDriver, relationId: number, work: () => Promise<T>): Promise<T> {
  const next = d.chains.run(relationId, work);
  return track(d, next);
}

/** Runs `work` for every item, at most `concurrency` at once; failures are logged, not thrown. */
async function fanOut<T>(
  d: CopyDriver,
  items: readonly T[],
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      try {
        await work(items[index] as T);
      } catch (error) {
        d.ctx.deps.log?.error({ err: error }, 'copy engine: a relation failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(d.concurrency, items.length) }, worker));
}

/**
 * Builds the accounts' exchange clients and loads their markets ahead of the leader's next
 * change, one account at a time in the background: a live client costs milliseconds of CPU to
 * build, which a fan-out to a thousand new followers would otherwise pay on its path. A failure
 * (the venue's market list cannot be read) ends the pass: the next pass tries again, and an
 * order that needs the client meanwhile builds it and reports the failure itself.
 */
export async function prepareClients(d: CopyDriver, accountIds: readonly number[]): Promise<void> {
  const { prepared } = d;
  for (const accountId of new Set(accountIds)) {
    if (d.isStopping) return;
    if (prepared.has(accountId)) continue;
    prepared.add(accountId);
    try {
      await d.ctx.execution.clientOf(await d.ctx.accountOf(accountId)).loadMarkets();
    } catch {
      prepared.delete(accountId);
      return;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function onPositionChanged(
  d: CopyDriver,
  event: BusEvent<'PositionChanged'>,
): Promise<void> {
  const { accountId, symbol } = event.payload;
  const copiers = await d.ctx.loaders.copiersOf.run(accountId);
  if (copiers.length === 0) return;
  const relations = await held(d, copiers);
  await fanOut(d, relations, (relation) =>
    serial(d, relation.id, () =>
      d.reconciler.reconcileSymbol(relation.id, symbol, { kind: 'event' }),
    ),
  );
}

/** One pass over every relation: heal targets, retry misses, the leader breaker, closes. */
export async function tickOnce(d: CopyDriver): Promise<void> {
  const { deps, repo, execution, clock } = d.ctx;
  const { lifecycle } = d;
  // What changed outside the relations first (a missed event catches up here): copies on
  // disabled accounts pause (enabled again, resume); a withdrawn strategy's copies end.
  await lifecycle
    .followAccounts()
    .catch((error) => deps.log?.error({ err: error }, 'copy engine: accounts pass failed'));
  if (d.hasStrategyReader) {
    const live = await repo.relationsByStatus(['active', 'paused']);
    await lifecycle
      .endWithdrawn(live.map((r) => r.leaderAccountId))
      .catch((error) => deps.log?.error({ err: error }, 'copy engine: leaders pass failed'));
  }
  const relations = await held(d, await repo.relationsByStatus(['active']));
  // The leaders' exchange positions first: what they traded outside the platform is copied by
  // this pass's heal.
  const leaders = [...new Set(relations.map((r) => r.leaderAccountId))];
  await fanOut(d, leaders, (accountId) =>
    d.poller
      .pollLeader(accountId)
      .catch((error) =>
        deps.log?.error({ err: error, accountId }, 'copy engine: leader poll failed'),
      ),
  );
  const equities = new Map<number, Promise<string | null>>();
  const equityOf = (leaderAccountId: number) => {
    let found = equities.get(leaderAccountId);
    if (!found) {
      found = d.poller.leaderEquity(leaderAccountId).catch(() => null);
      equities.set(leaderAccountId, found);
    }
    return found;
  };
  // Orders to reconcile: only the relations that have some (one query for the pass).
  const unsettled = new Set(
    (await execution.ownersWithUnsettledIntents(relations.map((r) => ownerOf(r.id)))).map(
      (owner) => owner.id,
    ),
  );
  const venueMarks = new Map<string, number>();
  await fanOut(d, relations, (relation) =>
    serial(d, relation.id, async () => {
      const equity = await equityOf(relation.leaderAccountId);
      if (equity !== null && (await leaderBreakerStopped(d, relation, equity))) return;
      await d.healer.heal(relation.id, {
        ignoreBackoff: false,
        reconcile: unsettled.has(relation.id),
        venueMarks,
      });
    }),
  );
  void track(
    d,
    prepareClients(
      d,
      relations.map((r) => r.followerAccountId),
    ),
  );
  // Stopped relations whose closes failed: tried again (the key's try moves with the clock).
  const stopped = await held(d, await repo.stoppedWithOpenPositions());
  await fanOut(d, stopped, async (relation) => {
    const due =
      relation.lastErrorAt === null ||
      clock.now().getTime() - relation.lastErrorAt.getTime() >= MISS_RETRY_BASE_MS * 12;
    if (due) await serial(d, relation.id, () => d.closes.closeAllNow(relation.id));
  });
}

/**
 * Records the leader's equity on the relation (its peak, trough and last) and stops the relation
 * when the leader's drift passed its limit; true when it stopped.
 */
async function leaderBreakerStopped(
  d: CopyDriver,
  relation: CopyRelationRow,
  equity: string,
): Promise<boolean> {
  const peak = Decimal.max(relation.leaderEquityPeak, equity);
  const trough = Decimal.min(relation.leaderEquityTrough, equity);
  const moved =
    !peak.eq(relation.leaderEquityPeak) ||
    !trough.eq(relation.leaderEquityTrough) ||
    !new Decimal(equity).eq(relation.leaderEquityLast);
  const updated = moved
    ? ((await d.ctx.repo.update(relation.id, {
        leaderEquityLast: equity,
        leaderEquityPeak: peak.toString(),
        leaderEquityTrough: trough.toString(),
      })) ?? relation)
    : relation;
  const limit = updated.leaderDrawdownLimitPercent;
  if (
    limit !== null &&
    leaderDriftPercent({ peak, trough, equity, mode: updated.copyMode }) >= limit
  ) {
    await d.closes.autoStop(updated, 'leader_drawdown');
    return true;
  }
  return false;
}
