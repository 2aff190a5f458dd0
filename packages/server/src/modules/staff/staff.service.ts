import {
  isTxHashFormatValid,
  STAFF_MESSAGES,
  type StaffAction,
  type StaffQueueQuery,
  type StaffQueueResponse,
  type StaffRequest,
  type TransactionStatus,
  WALLET_ERROR_CODES,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { Forbidden, NotFound, ValidationFailed } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { Ledger, Transition } from '../wallet/ledger.js';
import { toWalletTransaction } from '../wallet/wallet.mappers.js';
import {
  type DecisionRow,
  type QueueRow,
  type QueueType,
  staffQueries,
} from './staff.repository.js';

function toStaffRequest(row: QueueRow, decisions: readonly DecisionRow[]): StaffRequest {
  return {
    ...toWalletTransaction(row.transaction),
    user_id: row.transaction.userId,
    user_email: row.userEmail,
    user_phone: row.userPhone,
    decisions: decisions.map((d) => ({
      id: d.id,
      action: d.action,
      staff_user_id: d.staffUserId,
      staff_email: d.staffEmail,
      from_status: d.fromStatus,
      to_status: d.toStatus,
      reason: d.reason,
      tx_hash: d.txHash,
      created_at: d.createdAt.toISOString(),
    })),
  };
}

/**
 * Staff review of deposits and withdrawals. Each decision moves the request through the wallet's
 * ledger and records who took it, in one transaction: two staff deciding at once produce one
 * outcome (the other answers 409 not_pending).
 */
export function createStaffService(deps: { db: Database; clock: Clock; ledger: Ledger }) {
  const { db, clock, ledger } = deps;
  const q = staffQueries(db);

  async function decide(
    staffUserId: number,
    type: QueueType,
    id: number,
    action: StaffAction,
    transition: Omit<Transition, 'type'>,
    reason: string | null,
  ): Promise<StaffRequest> {
    // Four eyes: whoever asked for the money never decides on it.
    const found = await q.request(type, id);
    if (!found) throw new NotFound(STAFF_MESSAGES.notFound, WALLET_ERROR_CODES.requestNotFound);
    if (found.transaction.userId === staffUserId)
      throw new Forbidden(STAFF_MESSAGES.ownRequest, WALLET_ERROR_CODES.ownRequest);
    return ledger.transaction(async (ops, tx) => {
      const settled = await ops.settle(id, { ...transition, type });
      const inTx = staffQueries(tx);
      await inTx.recordDecision({
        transactionId: id,
        staffUserId,
        action,
        fromStatus: settled.fromStatus,
        toStatus: transition.to,
        reason,
        txHash: transition.txHash ?? null,
        createdAt: clock.now(),
      });
      const row = await inTx.request(type, id);
      if (!row) throw new NotFound(STAFF_MESSAGES.notFound, WALLET_ERROR_CODES.requestNotFound);
      return toStaffRequest(row, (await inTx.decisionsFor([id])).get(id) ?? []);
    });
  }

  const open: readonly TransactionStatus[] = ['pending', 'processing'];

  return {
    async queue(type: QueueType, query: StaffQueueQuery): Promise<StaffQueueResponse> {
      const { rows, count } = await q.queue(type, query.status, {
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      const decisions = await q.decisionsFor(rows.map((r) => r.transaction.id));
      return {
        results: rows.map((r) => toStaffRequest(r, decisions.get(r.transaction.id) ?? [])),
        count,
        page: query.page,
        page_size: query.page_size,
      };
    },

    /** Credits the deposit to its user. */
    approveDeposit: (staffUserId: number, id: number) =>
      decide(staffUserId, 'deposit', id, 'approve', { from: ['pending'], to: 'completed' }, null),

    rejectDeposit: (staffUserId: number, id: number, reason: string) =>
      decide(
        staffUserId,
        'deposit',
        id,
        'reject',
        { from: ['pending'], to: 'failed', note: reason },
        reason,
      ),

    /** Staff have started paying the withdrawal out. */
    markWithdrawalProcessing: (staffUserId: number, id: number) =>
      decide(
        staffUserId,
        'withdraw',
        id,
        'processing',
        { from: ['pending'], to: 'processing' },
        null,
      ),

    /** The payout is on chain: its hash is recorded (the network's format). */
    async completeWithdrawal(staffUserId: number, id: number, txHash: string) {
      const found = await q.request('withdraw', id);
      if (!found) throw new NotFound(STAFF_MESSAGES.notFound, WALLET_ERROR_CODES.requestNotFound);
      const network = found.transaction.network;
      if (network === 'OFFCHAIN' || !network || !isTxHashFormatValid(network, txHash)) {
        throw ValidationFailed.field(
          'tx_hash',
          STAFF_MESSAGES.txHashInvalid,
          WALLET_ERROR_CODES.txHashInvalid,
        );
      }
      const hash = txHash.toLowerCase();
      return decide(
        staffUserId,
        'withdraw',
        id,
        'complete',
        { from: open, to: 'completed', txHash: hash },
        null,
      );
    },

    /** The withdrawal will not be paid: the whole amount goes back to the user. */
    failWithdrawal: (staffUserId: number, id: number, reason: string) =>
      decide(
        staffUserId,
        'withdraw',
        id,
        'fail',
        { from: open, to: 'failed', note: reason },
        reason,
      ),
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
