// The copy engine: copies by position reconciliation on the execution core. Each active relation
// holds, per symbol, target = leader's net position × (copy_amount / leader equity at the base),
// negated for reverse, on the follower market's step. It is recomputed from the execution book
// (never from an event's payload) on every leader PositionChanged, on a timer (a missed event
// heals itself) and on resume, so a repeated or re-ordered event finds the target held already.
// Orders carry deterministic keys (leader change, symbol, try) and owner {copy, relation}.
// Here the engine is built and answers its port; copy-engine-driver.ts drives the relations.

import type { CopyPosition } from '@quantsquare/contracts';
import { unrealizedPnl } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { createKeyedQueue } from '../../common/keyed-queue.js';
import { copyLease, isCopyLease, LEASE_RENEW_MS } from '../../common/leases.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import { createCopyCloses } from './copy-closes.js';
import type { CopyContext, CopyEngineDeps } from './copy-engine-context.js';
import {
  type CopyDriver,
  leaseUpkeep,
  onPositionChanged,
  prepareClients,
  serial,
  tickOnce,
  track,
  whenHeld,
} from './copy-engine-driver.js';
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

async function leaderStartBook(
  d: CopyDriver,
  leaderAccountId: number,
): Promise<Record<string, { size: string; version: string }>> {
  const book: Record<string, { size: string; version: string }> = {};
  for (const state of await d.poller.leaderBookOf(leaderAccountId)) {
    book[state.symbol] = { size: state.size, version: state.version };
  }
  return book;
}

// A relation another process holds is left to it: its timer heals a resumed relation and
// closes a stopped one's positions.
function started(
  d: CopyDriver,
  relationId: number,
  options: { openCurrentPositions: boolean },
): void {
  void track(
    d,
    (async () => {
      const relation = await d.ctx.loaders.relation.run(relationId);
      if (relation) await prepareClients(d, [relation.followerAccountId]);
    })(),
  ).catch(() => undefined);
  if (!options.openCurrentPositions) return;
  void whenHeld(d, relationId, () => d.healer.lateJoin(relationId)).catch((error) =>
    d.ctx.deps.log?.error({ err: error, relationId }, 'copy engine: late join failed'),
  );
}

function resumed(d: CopyDriver, relationId: number): void {
  void whenHeld(d, relationId, () =>
    d.healer.heal(relationId, { ignoreBackoff: true, reconcile: true }),
  ).catch((error) =>
    d.ctx.deps.log?.error({ err: error, relationId }, 'copy engine: resume failed'),
  );
}

function closeAll(d: CopyDriver, relationId: number): Promise<void> {
  return whenHeld(d, relationId, async () => {
    await d.closes.closeAllNow(relationId);
  }).catch((error) =>
    d.ctx.deps.log?.error({ err: error, relationId }, 'copy engine: closing failed'),
  );
}

async function positions(d: CopyDriver, relation: CopyRelationRow): Promise<CopyPosition[]> {
  const open = (await d.ctx.repo.copyBook(relation.id, relation.followerAccountId)).filter(
    (row) => !new Decimal(row.size).isZero(),
  );
  const marks = await d.poller.marksOf(
    await d.ctx.accountOf(relation.followerAccountId),
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
          : unrealizedPnl({ size, entryPrice: row.entryPrice }, mark).toDecimalPlaces(8).toString(),
    };
  });
}

/** Follows the leaders' fills and position changes, and starts the reconcile timer. */
function start(d: CopyDriver): void {
  const { deps } = d.ctx;
  if (d.unsubscribe.length > 0) return;
  d.isStopping = false;
  d.unsubscribe = [
    deps.events.subscribe('OrderFilled', (event) => {
      const { accountId, symbol, price, filledAtMs } = event.payload;
      d.ctx.lastFills.set(`${accountId}|${symbol}`, { price, atMs: filledAtMs });
    }),
    deps.events.subscribe('StrategySharingChanged', (event) =>
      track(d, d.lifecycle.endWithdrawn([event.payload.accountId])).then(
        () => undefined,
        (error) => deps.log?.error({ err: error }, 'copy engine: a strategy change failed'),
      ),
    ),
    deps.events.subscribe('PositionChanged', (event) =>
      track(d, onPositionChanged(d, event)).catch((error) =>
        deps.log?.error({ err: error }, 'copy engine: a leader change failed'),
      ),
    ),
  ];
  const interval = deps.reconcileIntervalMs ?? DEFAULT_COPY_RECONCILE_INTERVAL_MS;
  d.timer = setInterval(() => {
    void tick(d);
  }, interval);
  d.timer.unref();
  d.leaseTimer = setInterval(() => {
    // Tracked, so a stop waits for an upkeep on its way before it lets the leases go (else
    // the upkeep could take leases again after the release, and hold them past the stop).
    void track(d, leaseUpkeep(d)).catch((error) =>
      deps.log?.error({ err: error }, 'copy engine: lease upkeep failed'),
    );
  }, deps.leaseRenewMs ?? LEASE_RENEW_MS);
  d.leaseTimer.unref();
  // After a restart: every active relation heals at once (orders in flight settled first).
  void tick(d);
}

/** One reconcile pass (the timer's; tests call it directly). Concurrent calls share one. */
function tick(d: CopyDriver): Promise<void> {
  if (!d.ticking) {
    d.ticking = track(d, tickOnce(d))
      .catch((error) => d.ctx.deps.log?.error({ err: error }, 'copy engine: tick failed'))
      .finally(() => {
        d.ticking = null;
      });
  }
  return d.ticking;
}

/** Copies one leader change now (what a PositionChanged event does). */
function leaderChanged(d: CopyDriver, accountId: number, symbol: string): Promise<void> {
  const { clock } = d.ctx;
  return onPositionChanged(d, {
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
  });
}

/** Resolves once the work started so far (events, timer, late joins) has finished. */
async function idle(d: CopyDriver): Promise<void> {
  while (d.inFlight.size > 0) await Promise.allSettled([...d.inFlight]);
}

async function stop(d: CopyDriver): Promise<void> {
  d.isStopping = true;
  for (const off of d.unsubscribe) off();
  d.unsubscribe = [];
  if (d.timer) clearInterval(d.timer);
  if (d.leaseTimer) clearInterval(d.leaseTimer);
  d.timer = undefined;
  d.leaseTimer = undefined;
  await idle(d);
  // Another process takes the relations over at once (the bots' leases, if shared, stay).
  await d.leases.release(d.leases.held().filter(isCopyLease)).catch(() => undefined);
}

export function createCopyEngine(deps: CopyEngineDeps) {
  const { clock, execution } = deps;
  const repo: CopyTradingQueries = copyTradingQueries(deps.db);
  const leases = deps.leases;
  const strategyOf = deps.square.strategy;
  const lifecycle = createCopyLifecycle({
    ...deps,
    square: {
      adjustCopyFigures: deps.square.adjustCopyFigures,
      // Without the square's reader (a bare engine), no strategy is seen withdrawn.
      strategy: strategyOf ?? (async () => ({ userId: 0, isPublic: true, acceptCopy: true })),
    },
    closeAll: (relationId) => closeAll(driver, relationId),
    resumed: (relationId) => resumed(driver, relationId),
  });
  const ctx: CopyContext = {
    deps,
    clock,
    execution,
    repo,
    loaders: createCopyLoaders(repo),
    lastFills: new Map(),
    lastMarks: new Map(),
    fenceOf: (relationId: number) => {
      const fence = leases.fenceOf(copyLease(relationId));
      return fence ? { fence } : {};
    },
    accountOf: (accountId: number) => execution.account(accountId),
  };
  const poller = createLeaderPoller(ctx);
  const figures = createCopyFigures(ctx, poller);
  const closes = createCopyCloses(ctx, figures);
  const reconciler = createSymbolReconciler(ctx, { poller, figures, closes });
  const healer = createCopyHealer(ctx, { poller, figures, closes, reconciler });
  const driver: CopyDriver = {
    ctx,
    leases,
    concurrency: deps.concurrency ?? DEFAULT_CONCURRENCY,
    chains: createKeyedQueue<number>(),
    inFlight: new Set(),
    prepared: new Set(),
    hasStrategyReader: strategyOf !== undefined,
    lifecycle,
    poller,
    closes,
    reconciler,
    healer,
    unsubscribe: [],
    timer: undefined,
    leaseTimer: undefined,
    ticking: null,
    isStopping: false,
  };

  const port: CopyEnginePort = {
    leaderEquity: poller.leaderEquity,
    leaderStartBook: (leaderAccountId) => leaderStartBook(driver, leaderAccountId),
    started: (relationId, options) => started(driver, relationId, options),
    resumed: (relationId) => resumed(driver, relationId),
    closeAll: (relationId) => closeAll(driver, relationId),
    // The account goes with this request: closed here and now, whoever holds the lease.
    closeNow: (relationId) => serial(driver, relationId, () => closes.closeAllNow(relationId)),
    positions: (relation) => positions(driver, relation),
  };

  return {
    ...port,
    start: (): void => start(driver),
    tick: (): Promise<void> => tick(driver),
    leaderChanged: (accountId: number, symbol: string) => leaderChanged(driver, accountId, symbol),
    idle: (): Promise<void> => idle(driver),
    stop: (): Promise<void> => stop(driver),
  };
}
export type CopyEngine = ReturnType<typeof createCopyEngine>;
