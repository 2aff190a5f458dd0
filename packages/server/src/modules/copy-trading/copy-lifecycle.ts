// What ends or pauses copies from outside the relation: the leader withdrawing the strategy
// (made private, or copying turned off) stops its running and paused copies as `leader_gone`
// and closes their positions; a follower account disabled pauses its running copies
// (`account_disabled`), which resume when the account is enabled again. Each transition is
// conditional (a racing process or user action wins once); the follower is told in their log.
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import { type CopyStatusOutbox, transitionTelling } from './copy-status-events.js';
import { copyTradingQueries } from './copy-trading.repository.js';
import { type CopySquarePort, stopRelation } from './copy-trading.service.js';

export interface CopyLifecycleDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly square: Pick<CopySquarePort, 'strategy' | 'adjustCopyFigures'>;
  readonly operationLog: OperationLogWriter;
  /** Closes a stopped relation's copied positions (the engine, where it holds the relation). */
  readonly closeAll: (relationId: number) => Promise<unknown>;
  /** A relation resumed by the platform: reconciled to its target (the engine). */
  readonly resumed: (relationId: number) => void;
  /** CopyStatusChanged events go to the outbox with each change (notifications). */
  readonly copyStatus?: CopyStatusOutbox | undefined;
}

/** Why a leader's strategy no longer takes copies; undefined while it does. */
export function withdrawalOf(
  strategy: { readonly isPublic: boolean; readonly acceptCopy: boolean } | undefined,
): 'private' | 'copy_off' | undefined {
  if (!strategy?.isPublic) return 'private';
  if (!strategy.acceptCopy) return 'copy_off';
  return undefined;
}

export function createCopyLifecycle(deps: CopyLifecycleDeps) {
  const repo = copyTradingQueries(deps.db);

  /** Stops the running and paused copies of the leaders that withdrew their strategy. */
  async function endWithdrawn(leaderAccountIds: readonly number[]): Promise<number[]> {
    const ended: number[] = [];
    const relations = await repo.relationsOfLeaders(
      [...new Set(leaderAccountIds)],
      ['active', 'paused'],
    );
    const leaders = [...new Set(relations.map((r) => r.leaderAccountId))];
    for (const leaderAccountId of leaders) {
      const why = withdrawalOf(await deps.square.strategy(leaderAccountId));
      if (!why) continue;
      for (const relation of relations.filter((r) => r.leaderAccountId === leaderAccountId)) {
        const stopped = await stopRelation(deps, relation.id, 'leader_gone', deps.clock.now());
        if (!stopped) continue;
        await deps.operationLog.record({
          userId: stopped.followerUserId,
          type: 'system',
          event: 'copy_stopped',
          message:
            why === 'private'
              ? 'Copy trading stopped: the strategy is no longer public'
              : 'Copy trading stopped: the strategy no longer accepts copying',
          details: {
            relation_id: stopped.id,
            leader_account_id: stopped.leaderAccountId,
            reason: 'leader_gone',
            leader_change: why,
          },
        });
        await deps.closeAll(stopped.id);
        ended.push(stopped.id);
      }
    }
    return ended;
  }

  /** Pauses copies on disabled follower accounts; resumes those paused so once re-enabled. */
  async function followAccounts(): Promise<void> {
    for (const relation of await repo.relationsOutOfStepWithAccount()) {
      if (relation.status === 'active') await pauseForAccount(relation);
      else await resumeForAccount(relation);
    }
  }

  async function pauseForAccount(relation: CopyRelationRow): Promise<void> {
    const now = deps.clock.now();
    const paused = await transitionTelling(
      deps,
      relation.id,
      ['active'],
      { status: 'paused', pauseReason: 'account_disabled', updatedAt: now },
      { status: 'paused', reason: 'account_disabled', at: now },
    );
    if (!paused) return;
    await deps.operationLog.record({
      userId: paused.followerUserId,
      type: 'system',
      event: 'copy_paused',
      message: 'Copy trading paused: its trading account is disabled',
      details: {
        relation_id: paused.id,
        leader_account_id: paused.leaderAccountId,
        reason: 'account_disabled',
      },
    });
  }

  async function resumeForAccount(relation: CopyRelationRow): Promise<void> {
    if (relation.pauseReason !== 'account_disabled') return;
    const at = deps.clock.now();
    const resumed = await transitionTelling(
      deps,
      relation.id,
      ['paused'],
      { status: 'active', pauseReason: null, updatedAt: at },
      { status: 'resumed', reason: 'account_enabled', at },
    );
    if (!resumed) return;
    await deps.operationLog.record({
      userId: resumed.followerUserId,
      type: 'system',
      event: 'copy_resumed',
      message: 'Copy trading resumed: its trading account is enabled again',
      details: {
        relation_id: resumed.id,
        leader_account_id: resumed.leaderAccountId,
        reason: 'account_enabled',
      },
    });
    deps.resumed(resumed.id);
  }

  return { endWithdrawn, followAccounts };
}
export type CopyLifecycle = ReturnType<typeof createCopyLifecycle>;
