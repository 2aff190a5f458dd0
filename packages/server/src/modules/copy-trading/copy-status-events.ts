import type { Database } from '../../db/database.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import { copyTradingQueries } from './copy-trading.repository.js';

// A copy relation started, stopped, paused or resumed: a CopyStatusChanged event written in the
// transaction of the change (the notifications read it from the outbox) and published after it.

/** Where the events go; without it (a bare engine in tests) nothing is written. */
export interface CopyStatusOutbox {
  readonly outbox: Outbox;
  readonly events: EventBus;
}

export type CopyStatusChange = 'started' | 'stopped' | 'paused' | 'resumed';

export function copyStatusEvent(
  row: CopyRelationRow,
  status: CopyStatusChange,
  reason: string | null,
  at: Date,
): OutboxEvent<'CopyStatusChanged'> {
  return {
    type: 'CopyStatusChanged',
    id: `copy:${row.id}:${status}:${at.getTime()}`,
    payload: {
      relationId: row.id,
      userId: row.followerUserId,
      leaderAccountId: row.leaderAccountId,
      status,
      reason,
      atMs: at.getTime(),
    },
  };
}

/** Publishes events just committed (the relay publishes them if this does not get there). */
export async function publishCopyStatus(
  copyStatus: CopyStatusOutbox | undefined,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (!copyStatus || events.length === 0) return;
  await copyStatus.outbox.publish(copyStatus.events, events).catch(() => undefined);
}

/**
 * Moves a relation's status (only from one of `from`) and writes its event, in one transaction;
 * undefined when a concurrent change got there first.
 */
export async function transitionTelling(
  deps: { readonly db: Database; readonly copyStatus?: CopyStatusOutbox | undefined },
  id: number,
  from: readonly CopyRelationRow['status'][],
  values: Partial<Omit<CopyRelationRow, 'id'>>,
  change: { status: CopyStatusChange; reason: string | null; at: Date },
): Promise<CopyRelationRow | undefined> {
  const copyStatus = deps.copyStatus;
  if (!copyStatus) return copyTradingQueries(deps.db).transition(id, from, values);
  let event: OutboxEvent | undefined;
  const row = await deps.db.transaction(async (tx) => {
    const moved = await copyTradingQueries(tx).transition(id, from, values);
    if (moved) {
      event = copyStatusEvent(moved, change.status, change.reason, change.at);
      await copyStatus.outbox.write(tx, [event]);
    }
    return moved;
  });
  if (event) await publishCopyStatus(copyStatus, [event]);
  return row;
}
