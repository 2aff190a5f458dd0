// What the copy engine's parts share: its dependencies, the state one process keeps (the leader's
// last fills, the marks the figures were valued at), and how an order failure is named.
import type { CopyMissReason } from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import {
  type ExecutionCore,
  ExecutionError,
  type LeaseFence,
  type OrderOwner,
} from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { CopyLoaders } from './copy-loaders.js';
import type { CopyStatusOutbox } from './copy-status-events.js';
import type { CopyTradingQueries } from './copy-trading.repository.js';
import type { CopySquarePort } from './copy-trading.service.js';

export interface CopyEngineLogger {
  error(details: object, message: string): void;
}

export interface CopyEngineDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly events: EventBus;
  readonly operationLog: OperationLogWriter;
  /** With `strategy`, copies of a leader that withdrew its strategy end (copy-lifecycle.ts). */
  readonly square: Pick<CopySquarePort, 'adjustCopyFigures'> &
    Partial<Pick<CopySquarePort, 'strategy'>>;
  readonly log?: CopyEngineLogger;
  /** The reconcile timer's period (real time); default 15 s. */
  readonly reconcileIntervalMs?: number;
  /** Relations reconciled at once by a fan-out (each account's orders still one at a time). */
  readonly concurrency?: number;
  /**
   * A relation is driven by the one process holding its lease (`common/leases.ts`): events,
   * the timer and closes act on held relations only; a dead holder's relations move to another
   * process within the lease's time to live. The process's own, from the composition root.
   */
  readonly leases: Leases;
  /** How often leases are renewed and free ones taken (default LEASE_RENEW_MS). */
  readonly leaseRenewMs?: number;
  /** CopyStatusChanged events go to the outbox with each change (notifications). */
  readonly copyStatus?: CopyStatusOutbox | undefined;
}

export type Trigger =
  /** A leader event (or its duplicate): acts once per change. */
  | { readonly kind: 'event' }
  /** The timer, a resume or an edit: heals what is not at its target. */
  | { readonly kind: 'heal'; readonly ignoreBackoff: boolean }
  /** Late join: the leader's current positions, within the entry distance. */
  | { readonly kind: 'late_join' };

export interface Failure {
  readonly reason: CopyMissReason;
  readonly errorKind: string | null;
  readonly message: string;
}

export const ownerOf = (relationId: number): OrderOwner => ({ kind: 'copy', id: relationId });

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An order failure as the relation names it (invalid key, margin, rate limit, …). */
export function classifyCopyFailure(error: unknown): Failure {
  const adapter =
    error instanceof ExchangeAdapterError
      ? error
      : error instanceof ExecutionError && error.cause instanceof ExchangeAdapterError
        ? error.cause
        : undefined;
  const message = errorText(error);
  if (!adapter) {
    const kind = error instanceof ExecutionError ? error.kind : null;
    return { reason: 'exchange_error', errorKind: kind, message };
  }
  const reason: CopyMissReason =
    adapter.kind === 'invalid_key'
      ? 'invalid_key'
      : adapter.kind === 'insufficient_funds'
        ? 'insufficient_margin'
        : adapter.kind === 'rate_limited'
          ? 'rate_limited'
          : 'exchange_error';
  return { reason, errorKind: adapter.kind, message };
}

/** The state and reads one engine's parts share (built once by `createCopyEngine`). */
export interface CopyContext {
  readonly deps: CopyEngineDeps;
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly repo: CopyTradingQueries;
  readonly loaders: CopyLoaders;
  /** The leader's last fill per account|symbol (the slippage cap's reference). */
  readonly lastFills: Map<string, { price: number; atMs: number }>;
  /** The marks each relation's P&L was last valued at (a fan-out values its fill, keeps these). */
  readonly lastMarks: Map<number, Map<string, number>>;
  /** The relation's lease as its orders carry it: claimed for sending only while it is current. */
  readonly fenceOf: (relationId: number) => { readonly fence?: LeaseFence };
  readonly accountOf: (accountId: number) => Promise<ExchangeAccountRow>;
}
