import {
  STAFF_MESSAGES,
  type TransactionDirection,
  type TransactionStatus,
  type TransactionType,
  WALLET_ERROR_CODES,
} from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { Conflict, type DomainError, InsufficientBalance, NotFound } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { WalletTransactionRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import { walletQueries } from './wallet.repository.js';

// The ledger: the one place where a coin balance (wallet_balances) changes. Every operation
// - writes its row with a business key (unique index: a repeated key is answered with the
//   earlier row and moves nothing),
// - moves the balance with a guarded UPDATE (`… where balance + delta >= 0`, which holds the
//   balance row's lock to the end of the transaction), in the same database transaction as the row;
//   CHECK (balance >= 0) stands behind it,
// - locks every user first, in ascending id order, when it touches more than one (transfers, a
//   VIP purchase with its referral bonus), so two operations never wait on each other in a cycle,
// - and, once committed, publishes CoinBalanceChanged for every balance it moved.

const CREDIT_TYPES: readonly TransactionType[] = ['deposit', 'referral_bonus', 'copy_earning'];
const DEBIT_TYPES: readonly TransactionType[] = ['withdraw', 'vip_purchase', 'bot_fee', 'copy_fee'];

/** The database or a transaction: the ledger runs on whichever it is given. */
export type LedgerExecutor = Database;

export interface LedgerEntry {
  userId: number;
  type: TransactionType;
  /** Positive; more than 8 decimals is refused. */
  amount: Decimal.Value;
  /** Makes the operation happen at most once (e.g. `copy_fee:<relation id>`). */
  businessKey: string;
  /** `completed` moves the balance now. A `pending` credit (deposit request) moves nothing until
   * settled; a `pending` debit (withdrawal) is taken now and refunded if it fails. */
  status?: 'pending' | 'completed';
  fee?: Decimal.Value;
  network?: 'TRC20' | 'BEP20' | 'OFFCHAIN';
  txHash?: string;
  isOffchain?: boolean;
  offchainReference?: string;
  address?: string;
  note?: string;
  counterpartyUserId?: number;
}

export interface LedgerReceipt {
  /** False when the business key had been used: `transaction` is that earlier row. */
  applied: boolean;
  transaction: WalletTransactionRow;
  /** The user's balance after the operation (decimal string). */
  balance: string;
}

export interface TransferInput {
  fromUserId: number;
  toUserId: number;
  amount: Decimal.Value;
  /** e.g. `copy_fee` (a debit type, or `adjustment`). */
  debitType: TransactionType;
  /** e.g. `copy_earning` (a credit type, or `adjustment`). */
  creditType: TransactionType;
  /** One per transfer; the credit row's key is `${businessKey}:credit`. */
  businessKey: string;
  note?: string;
}

export interface TransferReceipt {
  applied: boolean;
  debit: WalletTransactionRow;
  credit: WalletTransactionRow;
  fromBalance: string;
  toBalance: string;
}

export interface Transition {
  /** The row must be of this type (else NotFound). */
  type: TransactionType;
  from: readonly TransactionStatus[];
  to: TransactionStatus;
  txHash?: string;
  note?: string;
}

export interface SettleReceipt {
  transaction: WalletTransactionRow;
  fromStatus: TransactionStatus;
  balance: string;
}

/** A committed balance move, announced as CoinBalanceChanged. */
export interface BalanceChange {
  userId: number;
  balance: string;
  transactionId: number;
}

/** The ledger's operations inside one database transaction. */
export interface LedgerOps {
  /**
   * Locks these users now (ascending id) and answers their balances. Work that touches several
   * users in one transaction locks them all first, so it never waits on another in a cycle.
   */
  lock(userIds: readonly number[]): Promise<Map<number, string>>;
  /** The user's balance, locking the row. */
  balanceOf(userId: number): Promise<string>;
  findByKey(businessKey: string): Promise<WalletTransactionRow | undefined>;
  credit(entry: LedgerEntry, direction?: TransactionDirection): Promise<LedgerReceipt>;
  /** Refuses with `insufficient(held)` (default InsufficientBalance) rather than go below zero. */
  debit(
    entry: LedgerEntry,
    options?: { insufficient?: (held: string) => DomainError },
  ): Promise<LedgerReceipt>;
  transfer(input: TransferInput): Promise<TransferReceipt>;
  /** Moves a row between statuses: a credit completing adds it, a debit failing refunds it.
   * NotFound for an unknown id or another type; Conflict `not_pending` when it is not in `from`. */
  settle(transactionId: number, transition: Transition): Promise<SettleReceipt>;
}

export interface BoundLedger extends LedgerOps {
  /** The balance moves so far; announce them once the caller's transaction has committed. */
  readonly changes: readonly BalanceChange[];
}

export interface LedgerLogger {
  error(details: object, message: string): void;
}

const toFixed8 = (value: Decimal.Value) => new Decimal(value).toFixed(8);

function positiveAmount(value: Decimal.Value): Decimal {
  const amount = new Decimal(value);
  if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > 8) {
    throw new Error(`Ledger amounts are positive with at most 8 decimals, not ${String(value)}`);
  }
  return amount;
}

function directionOf(type: TransactionType, requested: TransactionDirection): TransactionDirection {
  if (type === 'adjustment') return requested;
  if (requested === 'credit' && !CREDIT_TYPES.includes(type)) {
    throw new Error(`${type} is not a credit`);
  }
  if (requested === 'debit' && !DEBIT_TYPES.includes(type)) {
    throw new Error(`${type} is not a debit`);
  }
  return requested;
}

/** Where a settled request's WalletRequestChanged goes, in the settling transaction. */
interface RequestEvents {
  readonly outbox: Outbox;
  /** Written so far: published once the transaction has committed. */
  readonly written: OutboxEvent[];
}

/** The ledger row of an entry, as written. */
function rowValues(
  clock: Clock,
  entry: LedgerEntry,
  direction: TransactionDirection,
  amount: Decimal,
) {
  const now = clock.now();
  return {
    userId: entry.userId,
    type: entry.type,
    direction,
    amount: amount.toFixed(8),
    fee: toFixed8(entry.fee ?? 0),
    status: entry.status ?? 'completed',
    businessKey: entry.businessKey,
    network: entry.network ?? null,
    txHash: entry.txHash ?? null,
    isOffchain: entry.isOffchain ?? false,
    offchainReference: entry.offchainReference ?? null,
    address: entry.address ?? null,
    note: entry.note ?? null,
    counterpartyUserId: entry.counterpartyUserId ?? null,
    createdAt: now,
    updatedAt: now,
  } as const;
}

/** What settling a request needs of the ledger's operations in its transaction. */
interface SettleContext {
  readonly db: LedgerExecutor;
  readonly q: ReturnType<typeof walletQueries>;
  readonly clock: Clock;
  readonly requests: RequestEvents | undefined;
  lock(userIds: readonly number[]): Promise<Map<number, string>>;
  move(userId: number, delta: Decimal, transactionId: number): Promise<string | undefined>;
}

/** LedgerOps.settle: a request row moved between statuses, and the balance with it. */
async function settleRow(
  { db, q, clock, requests, lock, move }: SettleContext,
  transactionId: number,
  transition: Transition,
): Promise<SettleReceipt> {
  const found = await q.findById(transactionId);
  if (!found || found.type !== transition.type)
    throw new NotFound(STAFF_MESSAGES.notFound, WALLET_ERROR_CODES.requestNotFound);
  const balances = await lock([found.userId]);
  // Every settle of this row holds this user's lock, so the status read now stays true.
  const current = (await q.findById(transactionId)) ?? found;
  if (!transition.from.includes(current.status)) {
    throw new Conflict(STAFF_MESSAGES.notPending, WALLET_ERROR_CODES.notPending);
  }
  const updated = await q.transition(
    transactionId,
    transition.from,
    transition.to,
    { txHash: transition.txHash, note: transition.note },
    clock.now(),
  );
  if (!updated) throw new Conflict(STAFF_MESSAGES.notPending, WALLET_ERROR_CODES.notPending);
  const amount = new Decimal(updated.amount);
  const adds =
    (updated.direction === 'credit' && transition.to === 'completed') ||
    (updated.direction === 'debit' && transition.to === 'failed');
  let balance = balances.get(found.userId) ?? '0';
  if (adds) {
    const moved = await move(updated.userId, amount, updated.id);
    if (moved === undefined) throw new Error(`Settling ${transactionId} was refused`);
    balance = moved;
  }
  if (requests && (updated.type === 'deposit' || updated.type === 'withdraw')) {
    // The user is told (notifications) from the outbox, written with the new status.
    const event: OutboxEvent<'WalletRequestChanged'> = {
      type: 'WalletRequestChanged',
      id: `wallet-request:${updated.id}:${transition.to}`,
      payload: {
        userId: updated.userId,
        transactionId: updated.id,
        kind: updated.type === 'withdraw' ? 'withdrawal' : 'deposit',
        status: transition.to,
        amount: new Decimal(updated.amount).toString(),
      },
    };
    await requests.outbox.write(db, [event]);
    requests.written.push(event);
  }
  return { transaction: updated, fromStatus: current.status, balance };
}

/** LedgerOps.transfer: a debit of one user and a credit of another, both users locked first. */
async function transferBetween(
  { lock, debit, credit }: Pick<LedgerOps, 'lock' | 'debit' | 'credit'>,
  input: TransferInput,
): Promise<TransferReceipt> {
  if (input.fromUserId === input.toUserId) throw new Error('A transfer needs two users');
  await lock([input.fromUserId, input.toUserId]);
  const out = await debit({
    userId: input.fromUserId,
    type: input.debitType,
    amount: input.amount,
    businessKey: input.businessKey,
    counterpartyUserId: input.toUserId,
    note: input.note,
  });
  const creditKey = `${input.businessKey}:credit`;
  const into = await credit({
    userId: input.toUserId,
    type: input.creditType,
    amount: input.amount,
    businessKey: creditKey,
    counterpartyUserId: input.fromUserId,
    note: input.note,
  });
  if (out.applied !== into.applied) {
    throw new Error(`Transfer ${input.businessKey} is half recorded`);
  }
  return {
    applied: out.applied,
    debit: out.transaction,
    credit: into.transaction,
    fromBalance: out.balance,
    toBalance: into.balance,
  };
}

function ledgerOps(
  db: LedgerExecutor,
  clock: Clock,
  changes: BalanceChange[],
  requests?: RequestEvents,
): LedgerOps {
  const q = walletQueries(db);

  async function lock(userIds: readonly number[]): Promise<Map<number, string>> {
    const locked = await q.lockUsers(userIds);
    const balances = new Map<number, string>();
    for (const id of userIds) {
      const user = locked.get(id);
      if (!user) throw new NotFound('User not found');
      balances.set(id, user.balance);
    }
    return balances;
  }

  async function currentBalance(userId: number): Promise<string> {
    const balance = await q.balanceOf(userId);
    if (balance === undefined) throw new NotFound('User not found');
    return balance;
  }

  /** The earlier row of a used key, answered as "not applied". */
  async function repeated(businessKey: string, userId: number): Promise<LedgerReceipt> {
    const earlier = await q.findByKey(businessKey);
    if (!earlier) throw new Error(`Business key ${businessKey} neither inserted nor found`);
    return { applied: false, transaction: earlier, balance: await currentBalance(userId) };
  }

  async function move(userId: number, delta: Decimal, transactionId: number) {
    const balance = await q.addToBalance(userId, delta.toFixed(8));
    if (balance === undefined) return undefined;
    changes.push({ userId, balance, transactionId });
    return balance;
  }

  async function credit(
    entry: LedgerEntry,
    requested: TransactionDirection = 'credit',
  ): Promise<LedgerReceipt> {
    const direction = directionOf(entry.type, requested);
    if (direction !== 'credit') throw new Error('credit() records credits');
    const amount = positiveAmount(entry.amount);
    const row = await q.insert(rowValues(clock, entry, direction, amount));
    if (!row) return repeated(entry.businessKey, entry.userId);
    if (entry.status === 'pending') {
      // A request (deposit): nothing moves until staff settle it.
      return { applied: true, transaction: row, balance: await currentBalance(entry.userId) };
    }
    const balance = await move(entry.userId, amount, row.id);
    if (balance === undefined) throw new Error(`Credit of user ${entry.userId} was refused`);
    return { applied: true, transaction: row, balance };
  }

  /**
   * The row first (its business key decides a repeat, which is answered before any balance
   * check: it was paid already), then the guarded UPDATE, which takes the user's row lock. When
   * the balance is short the row is deleted again in this transaction, so a caller that catches
   * the error and commits keeps nothing of it.
   */
  async function debit(
    entry: LedgerEntry,
    options: { insufficient?: (held: string) => DomainError } = {},
  ): Promise<LedgerReceipt> {
    const direction = directionOf(entry.type, 'debit');
    const amount = positiveAmount(entry.amount);
    const insufficient = options.insufficient ?? (() => new InsufficientBalance());
    const row = await q.insert(rowValues(clock, entry, direction, amount));
    if (!row) return repeated(entry.businessKey, entry.userId);
    const balance = await move(entry.userId, amount.neg(), row.id);
    if (balance === undefined) {
      await q.deleteRow(row.id);
      throw insufficient(await currentBalance(entry.userId));
    }
    return { applied: true, transaction: row, balance };
  }

  return {
    lock,
    async balanceOf(userId) {
      return (await lock([userId])).get(userId) ?? '0';
    },
    findByKey: (key) => q.findByKey(key),
    credit,
    debit,
    transfer: (input) => transferBetween({ lock, debit, credit }, input),
    settle: (transactionId, transition) =>
      settleRow({ db, q, clock, requests, lock, move }, transactionId, transition),
  };
}

export function createLedger(deps: {
  db: Database;
  clock: Clock;
  events: EventBus;
  log?: LedgerLogger;
  /** Deposits' and withdrawals' status changes are written here with them (notifications). */
  outbox?: Outbox;
}) {
  const { db, clock, events } = deps;

  /** Publishes CoinBalanceChanged for committed moves (the last balance of each user). */
  async function announce(changes: readonly BalanceChange[]): Promise<void> {
    const last = new Map<number, BalanceChange>();
    for (const change of changes) last.set(change.userId, change);
    for (const change of last.values()) {
      try {
        await events.publish('CoinBalanceChanged', change);
      } catch (error) {
        // The move is committed; a lost notification only delays a page's refresh.
        deps.log?.error({ err: error, change }, 'CoinBalanceChanged could not be published');
      }
    }
  }

  function bind(tx: LedgerExecutor): BoundLedger {
    const changes: BalanceChange[] = [];
    return Object.assign(ledgerOps(tx, clock, changes), { changes });
  }

  /** Runs `work` in one database transaction; announces the balance moves once it committed. */
  async function transaction<T>(
    work: (ledger: LedgerOps, tx: LedgerExecutor) => Promise<T>,
  ): Promise<T> {
    const changes: BalanceChange[] = [];
    const requests = deps.outbox
      ? { outbox: deps.outbox, written: [] as OutboxEvent[] }
      : undefined;
    const result = await db.transaction(async (tx) =>
      work(ledgerOps(tx, clock, changes, requests), tx),
    );
    await announce(changes);
    if (requests && requests.written.length > 0) {
      await requests.outbox
        .publish(events, requests.written)
        .catch((error: unknown) =>
          deps.log?.error({ err: error }, 'WalletRequestChanged could not be published'),
        );
    }
    return result;
  }

  return {
    transaction,
    bind,
    announce,
    /**
     * Moves `amount` from one user to another (e.g. the copy fee: `copy_fee` → `copy_earning`,
     * one business key per copy relation). Without `tx`: its own transaction, announced on
     * commit. With `tx`: inside the caller's transaction; the caller announces `changes` after
     * its commit (`ledger.announce(receipt.changes)`).
     */
    async transfer(
      input: TransferInput,
      tx?: LedgerExecutor,
    ): Promise<TransferReceipt & { changes: readonly BalanceChange[] }> {
      if (tx) {
        const bound = bind(tx);
        return { ...(await bound.transfer(input)), changes: bound.changes };
      }
      return transaction(async (ops) => ({ ...(await ops.transfer(input)), changes: [] }));
    },
    async credit(entry: LedgerEntry, direction?: TransactionDirection): Promise<LedgerReceipt> {
      return transaction((ops) => ops.credit(entry, direction));
    },
    async debit(
      entry: LedgerEntry,
      options?: { insufficient?: () => DomainError },
    ): Promise<LedgerReceipt> {
      return transaction((ops) => ops.debit(entry, options));
    },
    async balanceOf(userId: number): Promise<string> {
      return toFixed8((await walletQueries(db).balanceOf(userId)) ?? '0');
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
