import type { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { ExecutionCore } from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { SharingService } from '../square/sharing.service.js';
import type { Ledger } from '../wallet/ledger.js';
import { type CopyEngineLogger, createCopyEngine } from './copy-engine.js';
import { createCopySimulationService } from './copy-simulation.service.js';
import { type LeaderCopyFigures, leaderCopyFigures } from './copy-trading.mappers.js';
import { copyTradingQueries } from './copy-trading.repository.js';
import { createCopyTradingService } from './copy-trading.service.js';

export interface CopyTradingModuleDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly execution: ExecutionCore;
  readonly events: EventBus;
  readonly operationLog: OperationLogWriter;
  /** The square's share settings and counters (each table written by its own module). */
  readonly sharing: Pick<SharingService, 'copyStrategy' | 'recordCopyFigures'>;
  readonly log?: CopyEngineLogger;
  readonly reconcileIntervalMs?: number;
  /** The process's worker leases (the engine drives only the relations it holds). */
  readonly leases: Leases;
  /** Relations' starts, stops and pauses are written here with them (notifications). */
  readonly outbox?: Outbox;
  /** Recorded equity of an account at a time (the accounts' balance snapshots). */
  readonly equityAt: (accountId: number, at: Date, maxAgeMs: number) => Promise<Decimal | null>;
  /** The paper exchange's slippage, the copy simulator's fill model. */
  readonly slippageBps: number;
}

/**
 * Copy trading wired together: the API's service and the copy engine. main.ts starts the engine
 * (leader events and the reconcile timer); the API works without it (creates, edits, stops).
 */
export function createCopyTradingModule(deps: CopyTradingModuleDeps) {
  const square = {
    strategy: (accountId: number) => deps.sharing.copyStrategy(accountId),
    adjustCopyFigures: (
      accountId: number,
      change: { copiersDelta: number; earnings: string },
      tx: Database,
    ) => deps.sharing.recordCopyFigures(accountId, change, tx),
  };
  const copyStatus = deps.outbox ? { outbox: deps.outbox, events: deps.events } : undefined;
  const engine = createCopyEngine({
    copyStatus,
    db: deps.db,
    clock: deps.clock,
    execution: deps.execution,
    events: deps.events,
    operationLog: deps.operationLog,
    square,
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.reconcileIntervalMs ? { reconcileIntervalMs: deps.reconcileIntervalMs } : {}),
    leases: deps.leases,
  });
  const service = createCopyTradingService({
    db: deps.db,
    clock: deps.clock,
    ledger: deps.ledger,
    square,
    engine,
    operationLog: deps.operationLog,
    copyStatus,
  });
  const simulation = createCopySimulationService({
    clock: deps.clock,
    events: deps.events,
    execution: deps.execution,
    strategy: (accountId) => deps.sharing.copyStrategy(accountId),
    equityAt: deps.equityAt,
    slippageBps: deps.slippageBps,
  });
  return { service, engine, simulation };
}
export type CopyTradingModule = ReturnType<typeof createCopyTradingModule>;

/** The square's "is the viewer copying this strategy" (built before the square, from the db). */
export function createCopyingCheck(db: Database) {
  const repo = copyTradingQueries(db);
  return (viewerId: number, accountId: number) => repo.isCopying(viewerId, accountId);
}

/**
 * The square's copy figures of leader accounts (copiers' P&L and copy efficiency, over their
 * relations not deleted), read through this module's repository (built before the square).
 * A leader nobody copies is answered with zeros.
 */
export function createCopyFiguresReader(db: Database) {
  const repo = copyTradingQueries(db);
  return async (leaderAccountIds: readonly number[]): Promise<Map<number, LeaderCopyFigures>> => {
    const groups = await repo.copyFiguresByLeader(leaderAccountIds);
    return new Map(leaderAccountIds.map((id) => [id, leaderCopyFigures(groups.get(id) ?? [])]));
  };
}
