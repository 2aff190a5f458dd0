// The copy engine: copies by position reconciliation on the execution core. Each active relation
// holds, per symbol, target = leader's net position × (copy_amount / leader equity at the base),
// negated for reverse, on the follower market's step. It is recomputed from the execution book
// (never from an event's payload) on every leader PositionChanged, on a timer (a missed event
// heals itself) and on resume, so a repeated or re-ordered event finds the target held already.
// Orders carry deterministic keys (leader change, symbol, try) and owner {copy, relation}.

import type { CopyPosition } from '@quantsquare/contracts';
import { leaderDriftPercent, MISS_RETRY_BASE_MS, unrealizedPnl } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { createKeyedQueue } from '../../common/keyed-queue.js';
import { copyLease, isCopyLease, LEASE_RENEW_MS } from '../../common/leases.js';
import type { BusEvent } from '../../events/index.js';
import { createCopyCloses } from './copy-closes.js';
import { type CopyContext, type CopyEngineDeps, ownerOf } from './copy-engine-context.js';
import { createCopyFigures } from './copy-figures.js';
import { createCopyHealer } from './copy-heal.js';
import { createLeaderPoller } from './copy-leader-poller.js';
import { createCopyLifecycle } from './copy-lifecycle.js';
import { createCopyLoaders } from './copy-loaders.js';
import { createSymbolReconciler } from './copy-reconcile.js';
import { type CopyTradingQueries, copyTradingQueries } from './copy-trading.repository.js';
import type { CopyEnginePort } from './copy-trading.service.js';

export { decisionKey, stopKey } from '@quantsquare/engine';
export {
  type CopyEngineDeps,
  type CopyEngineLogger,
  classifyCopyFailure,
} from './copy-engine-context.js';

export const DEFAULT_COPY_RECONCILE_INTERVAL_MS = 15_000;
/** Relations a fan-out moves at once: all of a leader's followers (the reads and writes batch). */
const DEFAULT_CONCURRENCY = 1024;

export function createCopyEngine(deps: CopyEngineDeps) {
  const { clock, execution } = deps;
  const repo: CopyTradingQueries = copyTradingQueries(deps.db);
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  /** Per relation, the work queued on it (an event and the timer never interleave). */
  const chains = createKeyedQueue<number>();
  const inFlight = new Set<Promise<unknown>>();
  /** The leader's last fill per account|symbol (the slippage cap's reference). */
  const lastFills = new Map<string, { price: number; atMs: number }>();
  /** The marks each relation's P&L was last valued at (a fan-out values its fill, keeps these). */
  const lastMarks = new Map<number, Map<string, number>>();
  const loaders = createCopyLoaders(repo);
  const leases = deps.leases;
  let unsubscribe: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  /** Accounts whose exchange client is built and has its markets (see `prepareClients`). */
  const prepared = new Set<number>();
  let isStopping = false;
  const strategyOf = deps.square.strategy;
  const lifecycle = createCopyLifecycle({
    ...deps,
    square: {
      adjustCopyFigures: deps.square.adjustCopyFigures,
      // Without the square's reader (a bare engine), no strategy is seen withdrawn.
      strategy: strategyOf ?? (async () => ({ userId: 0, isPublic: true, acceptCopy: true })),
    },
    closeAll: (relationId) => port.closeAll(relationId),
    resumed: (relationId) => port.resumed(relationId),
  });

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * The relations among `relations` this process drives: those whose lease it holds, after
   * taking the free (or expired) leases of the others.
   */
  async function held<T extends { readonly id: number }>(relations: readonly T[]): Promise<T[]> {
    const missing = relations.filter((r) => !leases.isHeld(copyLease(r.id)));
    // A stopping engine takes nothing new: its stop is about to let go of what it holds.
    if (missing.length > 0 && !isStopping)
      await leases.acquire(missing.map((r) => copyLease(r.id)));
    return relations.filter((r) => leases.isHeld(copyLease(r.id)));
  }

  /** The relation's lease as its orders carry it: claimed for sending only while it is current. */
  const fenceOf = (relationId: number) => {
    const fence = leases.fenceOf(copyLease(relationId));
    return fence ? { fence } : {};
  };
  const accountOf = (accountId: number) => execution.account(accountId);
  const ctx: CopyContext = {
    deps,
    clock,
    execution,
    repo,
    loaders,
    lastFills,
    lastMarks,
    fenceOf,
    accountOf,
  };
  const poller = createLeaderPoller(ctx);
  const figures = createCopyFigures(ctx, poller);
  const closes = createCopyCloses(ctx, figures);
  const reconciler = createSymbolReconciler(ctx, { poller, figures, closes });
  const { heal, lateJoin } = createCopyHealer(ctx, { poller, figures, closes, reconciler });
  const { leaderBookOf, pollLeader, leaderEquity, marksOf } = poller;
  const { closeAllNow, autoStop } = closes;
  const reconcileSymbol = reconciler.reconcileSymbol;

  /** Runs `work` on the relation's queue if this process holds (or can take) its lease. */
  async function whenHeld(relationId: number, work: () => Promise<void>): Promise<void> {
    if ((await held([{ id: relationId }])).length === 0) return;
    await serial(relationId, work);
  }

  /** Keeps this process's leases; takes the free ones of relations that still need a driver. */
  async function leaseUpkeep(): Promise<void> {
    await leases.renew();
    await held([
      ...(await repo.relationsByStatus(['active', 'paused'])),
      ...(await repo.stoppedWithOpenPositions()),
    ]);
  }

  function serial<T>(relationId: number, work: () => Promise<T>): Promise<T> {
    const next = chains.run(relationId, work);
    return track(next);
  }

  /** Runs `work` for every item, at most `concurrency` at once; failures are logged, not thrown. */
  async function fanOut<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < items.length; index = next++) {
        try {
          await work(items[index] as T);
        } catch (error) {
          deps.log?.error({ err: error }, 'copy engine: a relation failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  }

  /**
   * Builds the accounts' exchange clients and loads their markets ahead of the leader's next
   * change, one account at a time in the background: a live client costs milliseconds of CPU to
   * build, which a fan-out to a thousand new followers would otherwise pay on its path. A failure
   * (the venue's market list cannot be read) ends the pass: the next pass tries again, and an
   * order that needs the client meanwhile builds it and reports the failure itself.
   */
  async function prepareClients(accountIds: readonly number[]): Promise<void> {
    for (const accountId of new Set(accountIds)) {
      if (isStopping) return;
      if (prepared.has(accountId)) continue;
      prepared.add(accountId);
      try {
        await execution.clientOf(await accountOf(accountId)).loadMarkets();
      } catch {
        prepared.delete(accountId);
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function onPositionChanged(event: BusEvent<'PositionChanged'>): Promise<void> {
    const { accountId, symbol } = event.payload;
    const copiers = await loaders.copiersOf.run(accountId);
    if (copiers.length === 0) return;
    const relations = await held(copiers);
    await fanOut(relations, (relation) =>
      serial(relation.id, () => reconcileSymbol(relation.id, symbol, { kind: 'event' })),
    );
  }

  /** One pass over every relation: heal targets, retry misses, the leader breaker, closes. */
  async function tickOnce(): Promise<void> {
    // What changed outside the relations first (a missed event catches up here): copies on
    // disabled accounts pause (enabled again, resume); a withdrawn strategy's copies end.
    await lifecycle
      .followAccounts()
      .catch((error) => deps.log?.error({ err: error }, 'copy engine: accounts pass failed'));
    if (strategyOf) {
      const live = await repo.relationsByStatus(['active', 'paused']);
      await lifecycle
        .endWithdrawn(live.map((r) => r.leaderAccountId))
        .catch((error) => deps.log?.error({ err: error }, 'copy engine: leaders pass failed'));
    }
    const relations = await held(await repo.relationsByStatus(['active']));
    // The leaders' exchange positions first: what they traded outside the platform is copied by
    // this pass's heal.
    const leaders = [...new Set(relations.map((r) => r.leaderAccountId))];
    await fanOut(leaders, (accountId) =>
      pollLeader(accountId).catch((error) =>
        deps.log?.error({ err: error, accountId }, 'copy engine: leader poll failed'),
      ),
    );
    const equities = new Map<number, Promise<string | null>>();
    const equityOf = (leaderAccountId: number) => {
      let found = equities.get(leaderAccountId);
      if (!found) {
        found = leaderEquity(leaderAccountId).catch(() => null);
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
    await fanOut(relations, (relation) =>
      serial(relation.id, async () => {
        const equity = await equityOf(relation.leaderAccountId);
        if (equity !== null) {
          const peak = Decimal.max(relation.leaderEquityPeak, equity);
          const trough = Decimal.min(relation.leaderEquityTrough, equity);
          const moved =
            !peak.eq(relation.leaderEquityPeak) ||
            !trough.eq(relation.leaderEquityTrough) ||
            !new Decimal(equity).eq(relation.leaderEquityLast);
          const updated = moved
            ? ((await repo.update(relation.id, {
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
            await autoStop(updated, 'leader_drawdown');
            return;
          }
        }
        await heal(relation.id, {
          ignoreBackoff: false,
          reconcile: unsettled.has(relation.id),
          venueMarks,
        });
      }),
    );
    void track(prepareClients(relations.map((r) => r.followerAccountId)));
    // Stopped relations whose closes failed: tried again (the key's try moves with the clock).
    const stopped = await held(await repo.stoppedWithOpenPositions());
    await fanOut(stopped, async (relation) => {
      const due =
        relation.lastErrorAt === null ||
        clock.now().getTime() - relation.lastErrorAt.getTime() >= MISS_RETRY_BASE_MS * 12;
      if (due) await serial(relation.id, () => closeAllNow(relation.id));
    });
  }

  const port: CopyEnginePort = {
    leaderEquity,
    async leaderStartBook(leaderAccountId) {
      const book: Record<string, { size: string; version: string }> = {};
      for (const state of await leaderBookOf(leaderAccountId)) {
        book[state.symbol] = { size: state.size, version: state.version };
      }
      return book;
    },
    // A relation another process holds is left to it: its timer heals a resumed relation and
    // closes a stopped one's positions.
    started(relationId, options) {
      void track(
        (async () => {
          const relation = await loaders.relation.run(relationId);
          if (relation) await prepareClients([relation.followerAccountId]);
        })(),
      ).catch(() => undefined);
      if (!options.openCurrentPositions) return;
      void whenHeld(relationId, () => lateJoin(relationId)).catch((error) =>
        deps.log?.error({ err: error, relationId }, 'copy engine: late join failed'),
      );
    },
    resumed(relationId) {
      void whenHeld(relationId, () =>
        heal(relationId, { ignoreBackoff: true, reconcile: true }),
      ).catch((error) => deps.log?.error({ err: error, relationId }, 'copy engine: resume failed'));
    },
    closeAll: (relationId) =>
      whenHeld(relationId, async () => {
        await closeAllNow(relationId);
      }).catch((error) =>
        deps.log?.error({ err: error, relationId }, 'copy engine: closing failed'),
      ),
    // The account goes with this request: closed here and now, whoever holds the lease.
    closeNow: (relationId) => serial(relationId, () => closeAllNow(relationId)),
    async positions(relation): Promise<CopyPosition[]> {
      const open = (await repo.copyBook(relation.id, relation.followerAccountId)).filter(
        (row) => !new Decimal(row.size).isZero(),
      );
      const marks = await marksOf(
        await accountOf(relation.followerAccountId),
        open.map((r) => r.symbol),
      );
      return open.map((row) => {
        const mark = marks.get(row.symbol);
        const size = new Decimal(row.size);
        return {
          symbol: row.symbol,
          size: size.toString(),
          side: size.gt(0) ? 'long' : 'short',
          entry_price: new Decimal(row.entryPrice).toString(),
          mark_price: mark === undefined ? null : String(mark),
          unrealized_pnl:
            mark === undefined
              ? null
              : unrealizedPnl({ size, entryPrice: row.entryPrice }, mark)
                  .toDecimalPlaces(8)
                  .toString(),
        };
      });
    },
  };

  return {
    ...port,
    /** Follows the leaders' fills and position changes, and starts the reconcile timer. */
    start(): void {
      if (unsubscribe.length > 0) return;
      isStopping = false;
      unsubscribe = [
        deps.events.subscribe('OrderFilled', (event) => {
          const { accountId, symbol, price, filledAtMs } = event.payload;
          lastFills.set(`${accountId}|${symbol}`, { price, atMs: filledAtMs });
        }),
        deps.events.subscribe('StrategySharingChanged', (event) =>
          track(lifecycle.endWithdrawn([event.payload.accountId])).then(
            () => undefined,
            (error) => deps.log?.error({ err: error }, 'copy engine: a strategy change failed'),
          ),
        ),
        deps.events.subscribe('PositionChanged', (event) =>
          track(onPositionChanged(event)).catch((error) =>
            deps.log?.error({ err: error }, 'copy engine: a leader change failed'),
          ),
        ),
      ];
      const interval = deps.reconcileIntervalMs ?? DEFAULT_COPY_RECONCILE_INTERVAL_MS;
      timer = setInterval(() => {
        void this.tick();
      }, interval);
      timer.unref();
      leaseTimer = setInterval(() => {
        // Tracked, so a stop waits for an upkeep on its way before it lets the leases go (else
        // the upkeep could take leases again after the release, and hold them past the stop).
        void track(leaseUpkeep()).catch((error) =>
          deps.log?.error({ err: error }, 'copy engine: lease upkeep failed'),
        );
      }, deps.leaseRenewMs ?? LEASE_RENEW_MS);
      leaseTimer.unref();
      // After a restart: every active relation heals at once (orders in flight settled first).
      void this.tick();
    },
    /** One reconcile pass (the timer's; tests call it directly). Concurrent calls share one. */
    tick(): Promise<void> {
      if (!ticking) {
        ticking = track(tickOnce())
          .catch((error) => deps.log?.error({ err: error }, 'copy engine: tick failed'))
          .finally(() => {
            ticking = null;
          });
      }
      return ticking;
    },
    /** Copies one leader change now (what a PositionChanged event does). */
    leaderChanged: (accountId: number, symbol: string) =>
      onPositionChanged({
        id: `manual-${accountId}-${symbol}`,
        type: 'PositionChanged',
        at: clock.now().toISOString(),
        payload: {
          accountId,
          userId: 0,
          symbol,
          owner: { kind: 'manual', id: 0 },
          size: 0,
          entryPrice: null,
          changedAtMs: clock.now().getTime(),
        },
      }),
    /** Resolves once the work started so far (events, timer, late joins) has finished. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop(): Promise<void> {
      isStopping = true;
      for (const off of unsubscribe) off();
      unsubscribe = [];
      if (timer) clearInterval(timer);
      if (leaseTimer) clearInterval(leaseTimer);
      timer = undefined;
      leaseTimer = undefined;
      await this.idle();
      // Another process takes the relations over at once (the bots' leases, if shared, stay).
      await leases.release(leases.held().filter(isCopyLease)).catch(() => undefined);
    },
  };
}
export type CopyEngine = ReturnType<typeof createCopyEngine>;
