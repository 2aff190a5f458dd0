// Starting a copy: the checks, the relation, the fee (follower → leader) and the square's
// counters in one transaction, then the engine is told.
import {
  COPY_ERROR_CODES,
  COPY_FEE_COINS,
  COPY_MESSAGES,
  type CopyCreateRequest,
  type CopyRelation,
  copyCreateRequest,
  FIELD_ERROR_CODES,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { Conflict, FieldErrorList, InsufficientBalance, NotFound } from '../../common/errors.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { OutboxEvent } from '../../events/outbox.js';
import { copyStatusEvent, publishCopyStatus } from './copy-status-events.js';
import { money } from './copy-trading.mappers.js';
import { copyTradingQueries } from './copy-trading.repository.js';
import type { CopyServiceContext } from './copy-trading.service.js';

/** The ‘insufficient balance’ refusal of the copy fee (document 2 §8). */
export class CopyInsufficientBalance extends InsufficientBalance {
  constructor() {
    super(COPY_MESSAGES.insufficientBalance);
  }
}

export const decimalOrNull = (value: string | null | undefined): string | null =>
  value === null || value === undefined || Number(value) === 0 ? null : value;

/** Why the follower's account cannot copy, added to `errors` (nothing when it can). */
function checkFollower(
  errors: FieldErrorList,
  follower: ExchangeAccountRow | undefined,
  userId: number,
  leaderAccountId: number,
): void {
  if (!follower || follower.userId !== userId) {
    errors.add(
      'follower_account_id',
      COPY_MESSAGES.followerAccountNotFound,
      FIELD_ERROR_CODES.unknownAccount,
    );
  } else if (!follower.isActive) {
    errors.add(
      'follower_account_id',
      COPY_MESSAGES.followerAccountInactive,
      FIELD_ERROR_CODES.accountInactive,
    );
  } else if (!follower.isPaper && follower.lastCheckOk === false) {
    // An account that cannot reach its exchange cannot trade the copy: charge nothing.
    errors.add(
      'follower_account_id',
      COPY_MESSAGES.followerAccountCheckFailed,
      FIELD_ERROR_CODES.accountCheckFailed,
    );
  } else if (follower.id === leaderAccountId) {
    errors.add(
      'follower_account_id',
      COPY_MESSAGES.followerIsLeader,
      COPY_ERROR_CODES.followerIsLeader,
    );
  }
}

export async function createRelation(
  ctx: CopyServiceContext,
  userId: number,
  input: CopyCreateRequest,
): Promise<CopyRelation> {
  const request = copyCreateRequest.parse(input);
  const errors = new FieldErrorList();
  const follower = await ctx.repo.account(request.follower_account_id);
  checkFollower(errors, follower, userId, request.leader_account_id);
  const strategy = await ctx.square.strategy(request.leader_account_id);
  const leader = strategy?.isPublic ? await ctx.repo.account(request.leader_account_id) : undefined;
  if (!strategy?.isPublic || !leader)
    throw new NotFound(COPY_MESSAGES.leaderNotFound, COPY_ERROR_CODES.leaderNotFound);
  if (strategy.userId === userId) {
    errors.add('leader_account_id', COPY_MESSAGES.ownStrategy, COPY_ERROR_CODES.ownStrategy);
  } else if (!strategy.acceptCopy) {
    errors.add(
      'leader_account_id',
      COPY_MESSAGES.notAcceptingCopies,
      COPY_ERROR_CODES.notAcceptingCopies,
    );
  }
  if (!errors.isEmpty) throw errors.failure();
  if (await ctx.repo.liveRelationOf(request.follower_account_id, leader.id)) {
    throw new Conflict(COPY_MESSAGES.alreadyCopying, COPY_ERROR_CODES.alreadyCopying);
  }
  if (new Decimal(await ctx.ledger.balanceOf(userId)).lt(COPY_FEE_COINS)) {
    throw new CopyInsufficientBalance();
  }

  const equity = await ctx.leaderEquityNow(leader.id);
  const startBook = await ctx.engine.leaderStartBook(leader.id);
  const now = ctx.clock.now();
  const fee = String(COPY_FEE_COINS);
  const started: OutboxEvent[] = [];
  // The relation, the fee (follower → leader) and the ctx.square's counters: one transaction.
  // The unique index on live (follower account, leader) relations lets one of two racing
  // creates insert; the other finds no row and answers ‘already copying’ having paid nothing.
  const relation = await ctx.ledger.transaction(async (ops, tx) => {
    const row = await copyTradingQueries(tx).insertRelation({
      followerUserId: userId,
      followerAccountId: follower!.id,
      leaderUserId: leader.userId,
      leaderAccountId: leader.id,
      copyAmount: request.copy_amount,
      maxLoss: decimalOrNull(request.max_loss),
      copyMode: request.copy_mode,
      status: 'active',
      feePaid: fee,
      maxSlippagePercent: request.max_slippage_percent,
      leaderDrawdownLimitPercent: request.leader_drawdown_limit_percent,
      entryDistancePercent: request.entry_distance_percent,
      leaderEquityBase: equity,
      leaderEquityStart: equity,
      leaderEquityPeak: equity,
      leaderEquityTrough: equity,
      leaderEquityLast: equity,
      leaderStartBook: startBook,
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw new Conflict(COPY_MESSAGES.alreadyCopying, COPY_ERROR_CODES.alreadyCopying);
    await ops.debit(
      {
        userId,
        type: 'copy_fee',
        amount: fee,
        businessKey: `copy_fee:${row.id}`,
        counterpartyUserId: leader.userId,
        note: `copy relation ${row.id}`,
      },
      { insufficient: () => new CopyInsufficientBalance() },
    );
    await ops.credit({
      userId: leader.userId,
      type: 'copy_earning',
      amount: fee,
      businessKey: `copy_fee:${row.id}:credit`,
      counterpartyUserId: userId,
      note: `copy relation ${row.id}`,
    });
    await ctx.square.adjustCopyFigures(leader.id, { copiersDelta: 1, earnings: fee }, tx);
    if (ctx.copyStatus) {
      started.push(copyStatusEvent(row, 'started', null, now));
      await ctx.copyStatus.outbox.write(tx, started);
    }
    return row;
  });
  await publishCopyStatus(ctx.copyStatus, started);
  await ctx.log(relation, 'copy_created', 'Copy trading started', {
    copy_amount: money(relation.copyAmount),
    copy_mode: relation.copyMode,
  });
  ctx.engine.started(relation.id, {
    openCurrentPositions: request.open_current_positions,
  });
  return ctx.answer(relation.id);
}
