// A relation's own stops and pauses: max loss and the leader's drawdown stop it and close its
// copied positions; the follower's risk gate pauses it.
import { stopKey } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import { ExecutionError } from '../../execution/index.js';
import { type CopyContext, classifyCopyFailure, ownerOf } from './copy-engine-context.js';
import type { CopyFigures } from './copy-figures.js';
import { transitionTelling } from './copy-status-events.js';
import { type CloseOutcome, stopRelation } from './copy-trading.service.js';

export function createCopyCloses(
  ctx: CopyContext,
  figures: Pick<CopyFigures, 'recordFailure' | 'refreshFigures'>,
) {
  /** Pauses a relation whose follower account's risk gate refused an opening (kept open). */
  async function pauseForRisk(
    relation: CopyRelationRow,
    reason: 'risk_halted' | 'risk_limit',
    message: string,
  ) {
    const at = ctx.clock.now();
    const paused = await transitionTelling(
      ctx.deps,
      relation.id,
      ['active'],
      { status: 'paused', pauseReason: reason, updatedAt: at },
      { status: 'paused', reason, at },
    );
    if (!paused) return;
    await ctx.deps.operationLog.record({
      userId: paused.followerUserId,
      type: 'system',
      event: 'copy_paused',
      message: `Copy trading paused: ${message}`.slice(0, 1000),
      details: { relation_id: paused.id, leader_account_id: paused.leaderAccountId, reason },
    });
  }

  /** Stops a relation on its own (max loss, the leader's drawdown) and closes its positions. */
  async function autoStop(relation: CopyRelationRow, reason: 'max_loss' | 'leader_drawdown') {
    const stopped = await stopRelation(ctx.deps, relation.id, reason, ctx.clock.now());
    if (!stopped) return;
    await ctx.deps.operationLog.record({
      userId: stopped.followerUserId,
      type: 'system',
      event: 'copy_stopped',
      message:
        reason === 'max_loss'
          ? `Copy trading stopped: the loss reached the limit of ${new Decimal(stopped.maxLoss ?? 0).toString()} USDT`
          : stopped.copyMode === 'reverse'
            ? `Copy trading stopped: the leader's rise from its low passed ${stopped.leaderDrawdownLimitPercent}%`
            : `Copy trading stopped: the leader's drawdown passed ${stopped.leaderDrawdownLimitPercent}%`,
      details: {
        relation_id: stopped.id,
        reason,
        copy_mode: stopped.copyMode,
        limit:
          reason === 'max_loss'
            ? new Decimal(stopped.maxLoss ?? 0).toNumber()
            : stopped.leaderDrawdownLimitPercent,
        total_profit_loss: new Decimal(stopped.totalProfitLoss).toString(),
      },
    });
    await closeAllNow(stopped.id);
  }

  /** Max loss: copied P&L at or below −max_loss stops the relation. */
  async function checkLimits(relation: CopyRelationRow): Promise<void> {
    if (relation.status === 'stopped' || relation.maxLoss === null) return;
    const limit = new Decimal(relation.maxLoss);
    if (limit.lte(0)) return;
    if (new Decimal(relation.totalProfitLoss).lte(limit.neg())) {
      await autoStop(relation, 'max_loss');
    }
  }

  /** Closes the relation's copied positions; a failed close is recorded and reported. */
  async function closeAllNow(relationId: number): Promise<CloseOutcome> {
    const outcome: CloseOutcome = { closed: [], failed: [] };
    const relation = await ctx.repo.relation(relationId);
    if (!relation) return outcome;
    const owner = ownerOf(relationId);
    // An order in flight when the process stopped is settled (or failed) before closing.
    await ctx.execution.reconcileIntents(owner).catch(() => undefined);
    const book = await ctx.repo.copyBook(relationId, relation.followerAccountId);
    for (const row of book) {
      if (new Decimal(row.size).isZero()) continue;
      // One close per stop and symbol: a retry (the timer, the account's deletion) sends it
      // only if it was never written (the key refused before it left); a refused one is final.
      const key = stopKey(row.symbol, relation.stoppedAt);
      const [made] = await ctx.execution.intentsOf(owner, key);
      if (made && (made.status === 'rejected' || made.status === 'expired')) {
        outcome.failed.push({
          symbol: row.symbol,
          error: new ExecutionError('rejected', `order ${made.clientOrderId} ${made.status}`),
        });
        continue;
      }
      try {
        await ctx.execution.submit({
          accountId: relation.followerAccountId,
          symbol: row.symbol,
          owner,
          key,
          ...ctx.fenceOf(relationId),
          size: { kind: 'close' },
          pricing: { type: 'market' },
          action: 'copy_close',
        });
        outcome.closed.push(row.symbol);
      } catch (error) {
        await figures.recordFailure(relation, row.symbol, classifyCopyFailure(error));
        outcome.failed.push({ symbol: row.symbol, error });
      }
    }
    await figures.refreshFigures(relation);
    return outcome;
  }

  return { pauseForRisk, autoStop, checkLimits, closeAllNow };
}
export type CopyCloses = ReturnType<typeof createCopyCloses>;
