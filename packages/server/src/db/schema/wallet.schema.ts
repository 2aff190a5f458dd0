import {
  TRANSACTION_DIRECTIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '@quantsquare/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

/**
 * A user's platform-coin balance, written only by the wallet's ledger. A user without a row holds
 * 0: the row is made by the first credit or lock. No balance goes below zero, whatever the
 * concurrency (the ledger also guards every debit).
 */
export const walletBalances = pgTable(
  'wallet_balances',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    balance: numeric('balance', { precision: 20, scale: 8 }).notNull().default('0'),
  },
  (t) => [check('wallet_balances_non_negative', sql`${t.balance} >= 0`)],
);

/**
 * The platform-coin ledger: every movement of a wallet_balances row is one row here, written by
 * the wallet module in the same database transaction as the balance update. A row's business key
 * makes its operation happen at most once (one credit per deposit, one referral bonus per invitee,
 * one VIP purchase per request id, one copy fee per copy relation).
 *
 * Invariant (admin check-ledger): balance = completed credits − debits that are pending,
 * processing or completed. A withdrawal is debited when requested and refunded by failing it.
 */
export const walletTransactions = pgTable(
  'wallet_transactions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: TRANSACTION_TYPES }).notNull(),
    direction: text('direction', { enum: TRANSACTION_DIRECTIONS }).notNull(),
    /** Always positive; `direction` says which way it moves the balance. */
    amount: numeric('amount', { precision: 20, scale: 8 }).notNull(),
    /** The withdrawal fee, part of `amount` (what arrives is amount − fee). */
    fee: numeric('fee', { precision: 20, scale: 8 }).notNull().default('0'),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    businessKey: text('business_key').notNull(),
    network: text('network', { enum: ['TRC20', 'BEP20', 'OFFCHAIN'] }),
    /** Deposits: the user's hash (lower case); withdrawals: the payout's hash staff entered. */
    txHash: text('tx_hash'),
    isOffchain: boolean('is_offchain').notNull().default(false),
    offchainReference: text('offchain_reference'),
    /** Withdrawals: where the coins go. */
    address: text('address'),
    /** The adjustment's reason, staff's rejection or failure reason, and similar. */
    note: text('note'),
    /** The other user of a two-sided movement (the invitee of a referral bonus, a copy's peer). */
    counterpartyUserId: integer('counterparty_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('wallet_transactions_business_key_idx').on(t.businessKey),
    index('wallet_transactions_user_idx').on(t.userId, t.id),
    index('wallet_transactions_queue_idx').on(t.type, t.status, t.id),
    check('wallet_transactions_amount_positive', sql`${t.amount} > 0`),
    check('wallet_transactions_fee_range', sql`${t.fee} >= 0 and ${t.fee} <= ${t.amount}`),
    // Each type moves one way; only support adjustments go either way.
    check(
      'wallet_transactions_direction_of_type',
      sql`(${t.type} in ('deposit', 'referral_bonus', 'copy_earning') and ${t.direction} = 'credit') or (${t.type} in ('withdraw', 'vip_purchase', 'bot_fee', 'copy_fee') and ${t.direction} = 'debit') or ${t.type} = 'adjustment'`,
    ),
  ],
);

export type WalletTransactionRow = typeof walletTransactions.$inferSelect;
export type NewWalletTransactionRow = typeof walletTransactions.$inferInsert;
