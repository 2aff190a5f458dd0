import {
  COPY_DELETABLE_STATUSES,
  COPY_EDITABLE_STATUSES,
  COPY_ERROR_CODES,
  COPY_MESSAGES,
  COPY_TRANSITIONS,
  type CopyAction,
  type CopyCreateRequest,
  type CopyDetailResponse,
  type CopyFollowersResponse,
  type CopyFollowingResponse,
  type CopyPosition,
  type CopyRelation,
  type CopyUpdateRequest,
  copyUpdateRequest,
  ERROR_CODES,
  type OperationLogEvent,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { Conflict, DomainError, NotFound } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { CopyRelationRow } from '../../db/schema/index.js';
import type { OutboxEvent } from '../../events/outbox.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { Ledger } from '../wallet/ledger.js';
import { createRelation, decimalOrNull } from './copy-relation-create.js';
import {
  type CopyStatusOutbox,
  copyStatusEvent,
  publishCopyStatus,
  transitionTelling,
} from './copy-status-events.js';
import { money, toCopyReceipt, toCopyRelation } from './copy-trading.mappers.js';
import { copyTradingQueries } from './copy-trading.repository.js';

export { CopyInsufficientBalance } from './copy-relation-create.js';

/** What copy trading needs from the strategy square (its share settings and counters). */
export interface CopySquarePort {
  /** The strategy of a leader account: its owner and share settings; undefined if never shared. */
  strategy(accountId: number): Promise<
    | {
        readonly userId: number;
        readonly isPublic: boolean;
        readonly acceptCopy: boolean;
      }
    | undefined
  >;
  /** Copiers joining (+1) or leaving (−1) and fees earned, inside the caller's transaction. */
  adjustCopyFigures(
    accountId: number,
    change: { copiersDelta: number; earnings: string },
    tx: Database,
  ): Promise<void>;
}

/** What the API asks of the copy engine. */
export interface CopyEnginePort {
  /** The leader's equity now (the base of copy_amount / equity). */
  leaderEquity(leaderAccountId: number): Promise<string>;
  /** The leader's book now (net size and version per symbol): what a new relation starts from. */
  leaderStartBook(
    leaderAccountId: number,
  ): Promise<Record<string, { size: string; version: string }>>;
  /** A new relation: late join (its current positions) when asked; runs in the background. */
  started(relationId: number, options: { openCurrentPositions: boolean }): void;
  /** A resumed relation: reconcile to the current target (background). */
  resumed(relationId: number): void;
  /** Closes the relation's copied positions (reduce-only); failures are recorded, not thrown. */
  closeAll(relationId: number): Promise<void>;
  /**
   * Closes them now in this process, whoever holds the relation's lease (its account is being
   * deleted): what closed, and what failed with its error (recorded on the relation too).
   */
  closeNow(relationId: number): Promise<CloseOutcome>;
  /** The relation's open copied positions, marked now. */
  positions(relation: CopyRelationRow): Promise<CopyPosition[]>;
}

/** The symbols a close of a relation's positions closed, and those it could not. */
export interface CloseOutcome {
  readonly closed: string[];
  readonly failed: { readonly symbol: string; readonly error: unknown }[];
}

/**
 * Stops a running or paused relation: status stopped with its reason, and the strategy's copier
 * counted out, in one transaction. Undefined when the relation was not running or paused (a
 * racing stop got there first). The user's stop, the automatic stops and an account's deletion
 * all stop through here.
 */
export async function stopRelation(
  deps: {
    readonly db: Database;
    readonly square: Pick<CopySquarePort, 'adjustCopyFigures'>;
    readonly copyStatus?: CopyStatusOutbox | undefined;
  },
  relationId: number,
  reason: NonNullable<CopyRelationRow['stopReason']>,
  now: Date,
): Promise<CopyRelationRow | undefined> {
  const written: OutboxEvent[] = [];
  const stopped = await deps.db.transaction(async (tx) => {
    const row = await copyTradingQueries(tx).transition(relationId, COPY_TRANSITIONS.stop, {
      status: 'stopped',
      stopReason: reason,
      stoppedAt: now,
      updatedAt: now,
    });
    if (row) {
      await deps.square.adjustCopyFigures(
        row.leaderAccountId,
        { copiersDelta: -1, earnings: '0' },
        tx,
      );
      if (deps.copyStatus) {
        const event = copyStatusEvent(row, 'stopped', reason, now);
        await deps.copyStatus.outbox.write(tx, [event]);
        written.push(event);
      }
    }
    return row;
  });
  await publishCopyStatus(deps.copyStatus, written);
  return stopped;
}

const COPY_LEADER_UNAVAILABLE =
  "The strategy's balance cannot be read right now; please try again later";

/** Followers' copies ended at once when a strategy's account is deleted. */
const END_CONCURRENCY = 32;

/** What the copy-trading service uses. */
export interface CopyTradingServiceDeps {
  db: Database;
  clock: Clock;
  ledger: Ledger;
  square: CopySquarePort;
  engine: CopyEnginePort;
  operationLog: OperationLogWriter;
  /** CopyStatusChanged events go to the outbox with each change (notifications). */
  copyStatus?: CopyStatusOutbox | undefined;
}

/** What the service's operations share: its ctx, queries and helpers. */
export type CopyServiceContext = CopyTradingServiceDeps & {
  readonly repo: ReturnType<typeof copyTradingQueries>;
  ownRelation(userId: number, id: number): Promise<CopyRelationRow>;
  leaderEquityNow(leaderAccountId: number): Promise<string>;
  answer(id: number): Promise<CopyRelation>;
  log(
    row: CopyRelationRow,
    event: OperationLogEvent,
    message: string,
    details?: Record<string, unknown>,
  ): Promise<void>;
};

/** What endOnAccount answers: the copies' positions it closed. */
type ClosedCopies = { relation_id: number; symbol: string }[];

async function detailOf(
  ctx: CopyServiceContext,
  userId: number,
  id: number,
): Promise<CopyDetailResponse> {
  const row = await ctx.ownRelation(userId, id);
  const receipts = await ctx.repo.receipts(id);
  const positions = row.status === 'stopped' ? [] : await ctx.engine.positions(row);
  // The copied P&L over time: 0 when the copy began, the relation's P&L after each copied
  // fill, and its P&L now (or when it stopped): a line from the first trade on.
  const startedAtMs = row.createdAt.getTime();
  const endedAtMs = Math.max(startedAtMs, (row.stoppedAt ?? ctx.clock.now()).getTime());
  const series = [
    { timestamp: startedAtMs, pnl: 0 },
    ...receipts
      .filter((r) => r.relationPnl !== null)
      .map((r) => ({ timestamp: r.updatedAt.getTime(), pnl: Number(r.relationPnl) }))
      .filter((point) => point.timestamp >= startedAtMs && point.timestamp <= endedAtMs)
      .reverse(),
    { timestamp: endedAtMs, pnl: Number(row.totalProfitLoss) },
  ];
  return {
    relation: await ctx.answer(id),
    receipts: receipts.map(toCopyReceipt),
    positions,
    pnl_series: series,
  };
}

async function actOn(
  ctx: CopyServiceContext,
  userId: number,
  id: number,
  action: CopyAction,
): Promise<CopyRelation> {
  const row = await ctx.ownRelation(userId, id);
  const from = COPY_TRANSITIONS[action];
  const refused = () =>
    new Conflict(COPY_MESSAGES.transitionRefused, COPY_ERROR_CODES.transitionRefused);
  if (!from.includes(row.status)) throw refused();
  const now = ctx.clock.now();
  if (action === 'stop') {
    const stopped = await stopRelation(ctx, id, 'user', now);
    if (!stopped) throw refused();
    await ctx.log(stopped, 'copy_stopped', 'Copy trading stopped', { reason: 'user' });
    await ctx.engine.closeAll(id);
    return ctx.answer(id);
  }
  // A copy paused for its disabled account resumes with the account (copy-lifecycle.ts).
  if (action === 'resume' && (await ctx.repo.account(row.followerAccountId))?.isActive === false) {
    throw refused();
  }
  const updated = await transitionTelling(
    ctx,
    id,
    from,
    { status: action === 'pause' ? 'paused' : 'active', pauseReason: null, updatedAt: now },
    { status: action === 'pause' ? 'paused' : 'resumed', reason: 'user', at: now },
  );
  if (!updated) throw refused();
  if (action === 'pause') await ctx.log(updated, 'copy_paused', 'Copy trading paused');
  else await ctx.log(updated, 'copy_resumed', 'Copy trading resumed');
  if (action === 'resume') ctx.engine.resumed(id);
  return ctx.answer(id);
}

async function updateRelation(
  ctx: CopyServiceContext,
  userId: number,
  id: number,
  body: CopyUpdateRequest,
): Promise<CopyRelation> {
  const input = copyUpdateRequest.parse(body);
  const row = await ctx.ownRelation(userId, id);
  if (!COPY_EDITABLE_STATUSES.includes(row.status)) {
    throw new Conflict(COPY_MESSAGES.notEditable, COPY_ERROR_CODES.transitionRefused);
  }
  const values: Partial<CopyRelationRow> = { updatedAt: ctx.clock.now() };
  if (input.copy_amount !== undefined && !new Decimal(input.copy_amount).eq(row.copyAmount)) {
    values.copyAmount = input.copy_amount;
    // Re-based: the new amount is a share of the leader's equity as it is now.
    values.leaderEquityBase = await ctx.leaderEquityNow(row.leaderAccountId);
  }
  if (input.max_loss !== undefined) values.maxLoss = decimalOrNull(input.max_loss);
  if (input.max_slippage_percent !== undefined) {
    values.maxSlippagePercent = input.max_slippage_percent;
  }
  if (input.leader_drawdown_limit_percent !== undefined) {
    values.leaderDrawdownLimitPercent = input.leader_drawdown_limit_percent;
  }
  const updated = await ctx.repo.transition(id, COPY_EDITABLE_STATUSES, values);
  if (!updated) throw new Conflict(COPY_MESSAGES.notEditable, COPY_ERROR_CODES.transitionRefused);
  await ctx.log(updated, 'copy_updated', 'Copy settings changed', {
    copy_amount: money(updated.copyAmount),
    max_loss: updated.maxLoss === null ? null : money(updated.maxLoss),
  });
  // A new amount moves the target now (active relations).
  if (values.copyAmount !== undefined && updated.status === 'active') ctx.engine.resumed(id);
  return ctx.answer(id);
}

async function removeRelation(ctx: CopyServiceContext, userId: number, id: number): Promise<void> {
  const row = await ctx.ownRelation(userId, id);
  if (!COPY_DELETABLE_STATUSES.includes(row.status)) {
    throw new Conflict(COPY_MESSAGES.notDeletable, COPY_ERROR_CODES.transitionRefused);
  }
  // A close that failed at the stop is retried by the engine while the copy exists; deleted,
  // its position would be left open with nothing to drive it.
  const book = await ctx.repo.copyBook(id, row.followerAccountId);
  if (book.some((position) => !new Decimal(position.size).isZero())) {
    throw new Conflict(COPY_MESSAGES.positionsOpen, COPY_ERROR_CODES.positionsOpen);
  }
  const now = ctx.clock.now();
  const deleted = await ctx.repo.transition(id, COPY_DELETABLE_STATUSES, {
    deletedAt: now,
    updatedAt: now,
  });
  if (!deleted) throw new Conflict(COPY_MESSAGES.notDeletable, COPY_ERROR_CODES.transitionRefused);
  await ctx.log(deleted, 'copy_deleted', 'Copy relation deleted');
}

/**
 * Before an exchange account is deleted, the copies it drives end and their copied positions
 * are closed through the execution core: those copying WITH it stop as the user's own stop
 * ('account_deleted' in the log), and a close that fails throws (the deletion is refused,
 * and can be tried again); those copying IT stop as 'leader_gone', each follower told in
 * their log, and a follower's close that fails is recorded on that follower, not in the way
 * of the deletion. The relations then go with the account.
 */
async function endCopiesOnAccount(
  ctx: CopyServiceContext,
  accountId: number,
): Promise<ClosedCopies> {
  const closed: ClosedCopies = [];
  const end = async (row: CopyRelationRow) => {
    const asFollower = row.followerAccountId === accountId;
    if (row.status !== 'stopped') {
      const stopped = await stopRelation(
        ctx,
        row.id,
        asFollower ? 'user' : 'leader_gone',
        ctx.clock.now(),
      );
      if (stopped) {
        await ctx.log(
          stopped,
          'copy_stopped',
          asFollower
            ? 'Copy trading stopped: its trading account was deleted'
            : "Copy trading stopped: the strategy's exchange account was deleted",
          { reason: asFollower ? 'account_deleted' : 'leader_gone' },
        );
      }
    }
    const outcome = await ctx.engine.closeNow(row.id);
    const failure = outcome.failed[0];
    if (asFollower && failure) throw failure.error;
    closed.push(...outcome.closed.map((symbol) => ({ relation_id: row.id, symbol })));
  };
  const relations = await ctx.repo.relationsOnAccount(accountId);
  // The account's own copies one by one (a failure stops here); its followers side by side.
  for (const row of relations.filter((r) => r.followerAccountId === accountId)) await end(row);
  const followers = relations.filter((r) => r.followerAccountId !== accountId);
  for (let i = 0; i < followers.length; i += END_CONCURRENCY) {
    await Promise.all(followers.slice(i, i + END_CONCURRENCY).map(end));
  }
  return closed;
}

export function createCopyTradingService(deps: CopyTradingServiceDeps) {
  const repo = copyTradingQueries(deps.db);

  async function ownRelation(userId: number, id: number): Promise<CopyRelationRow> {
    const row = await repo.relation(id);
    // Another user's relation reads as missing (the leader sees it in followers/ only).
    if (!row || row.followerUserId !== userId) throw new NotFound('Copy relation not found');
    return row;
  }

  /** The leader's equity; an exchange that cannot be read answers 503 (try again later). */
  async function leaderEquityNow(leaderAccountId: number): Promise<string> {
    try {
      return await deps.engine.leaderEquity(leaderAccountId);
    } catch {
      throw new DomainError(503, ERROR_CODES.exchangeUnavailable, COPY_LEADER_UNAVAILABLE);
    }
  }

  async function answer(id: number): Promise<CopyRelation> {
    const view = await repo.view(id);
    if (!view) throw new NotFound('Copy relation not found');
    return toCopyRelation(view, 'follower');
  }

  async function log(
    row: CopyRelationRow,
    event: OperationLogEvent,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    await deps.operationLog.record({
      userId: row.followerUserId,
      type: 'user_action',
      event,
      message,
      details: { relation_id: row.id, leader_account_id: row.leaderAccountId, ...details },
    });
  }

  const ctx: CopyServiceContext = { ...deps, repo, ownRelation, leaderEquityNow, answer, log };

  return {
    create: (userId: number, input: CopyCreateRequest): Promise<CopyRelation> =>
      createRelation(ctx, userId, input),

    async following(userId: number): Promise<CopyFollowingResponse> {
      const views = await repo.following(userId);
      return { results: views.map((v) => toCopyRelation(v, 'follower')), count: views.length };
    },

    async followers(userId: number): Promise<CopyFollowersResponse> {
      const views = await repo.followers(userId);
      return {
        results: views.map((v) => toCopyRelation(v, 'leader')),
        count: views.length,
        totals: {
          followers: views.length,
          active: views.filter((v) => v.relation.status === 'active').length,
          fees_earned: money(await repo.feesEarned(userId)),
        },
      };
    },

    detail: (userId: number, id: number): Promise<CopyDetailResponse> => detailOf(ctx, userId, id),

    act: (userId: number, id: number, action: CopyAction): Promise<CopyRelation> =>
      actOn(ctx, userId, id, action),

    update: (userId: number, id: number, body: CopyUpdateRequest): Promise<CopyRelation> =>
      updateRelation(ctx, userId, id, body),

    remove: (userId: number, id: number): Promise<void> => removeRelation(ctx, userId, id),

    /**
     * Before an exchange account is deleted, the copies it drives end and their copied positions
     * are closed through the execution core: those copying WITH it stop as the user's own stop
     * ('account_deleted' in the log), and a close that fails throws (the deletion is refused,
     * and can be tried again); those copying IT stop as 'leader_gone', each follower told in
     * their log, and a follower's close that fails is recorded on that follower, not in the way
     * of the deletion. The relations then go with the account.
     */
    endOnAccount: (accountId: number): Promise<ClosedCopies> => endCopiesOnAccount(ctx, accountId),

    /** Whether the viewer copies the strategy (the square's strategy detail asks). */
    isCopying: (userId: number, leaderAccountId: number) => repo.isCopying(userId, leaderAccountId),
  };
}
export type CopyTradingService = ReturnType<typeof createCopyTradingService>;
