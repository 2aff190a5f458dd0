import { STAFF_ACTIONS, TRANSACTION_STATUSES } from '@quantsquare/contracts';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';
import { walletTransactions } from './wallet.schema.js';

/** Every staff decision on a deposit or withdrawal, naming the staff user who took it. */
export const staffDecisions = pgTable(
  'staff_decisions',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => walletTransactions.id),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => users.id),
    action: text('action', { enum: STAFF_ACTIONS }).notNull(),
    fromStatus: text('from_status', { enum: TRANSACTION_STATUSES }).notNull(),
    toStatus: text('to_status', { enum: TRANSACTION_STATUSES }).notNull(),
    reason: text('reason'),
    txHash: text('tx_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // A request reaches each status once: a second decision to the same end cannot be recorded.
    uniqueIndex('staff_decisions_transaction_status_idx').on(t.transactionId, t.toStatus),
    index('staff_decisions_staff_idx').on(t.staffUserId),
  ],
);

export type StaffDecisionRow = typeof staffDecisions.$inferSelect;
