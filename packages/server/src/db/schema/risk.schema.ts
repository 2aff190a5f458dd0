import { integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { exchangeAccounts } from './exchange-accounts.schema.js';
import { users } from './users.schema.js';

// The risk gate of an exchange account (module src/modules/risk): its limits and its state.
// Written by the risk module only; the execution core reads it before every intent it writes.

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });
const percent = (name: string) => numeric(name, { precision: 6, scale: 2 });

/** One row per account whose owner set limits or used the kill switch (none: active, no limits). */
export const accountRisks = pgTable('account_risks', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** USDT notional one opening order may carry (null: no limit). */
  maxOrderNotional: money('max_order_notional'),
  /** USDT notional the account's open positions may reach with an opening order (null: none). */
  maxOpenNotional: money('max_open_notional'),
  /** Loss of the trading day's opening equity, in percent, that trips the gate (null: none). */
  dailyLossLimitPct: percent('daily_loss_limit_pct'),
  /** Fall from the peak equity (since set or last reset), in percent, that trips it (null: none). */
  trailingDrawdownPct: percent('trailing_drawdown_pct'),
  onBreach: text('on_breach', { enum: ['halt', 'close_all'] })
    .notNull()
    .default('halt'),
  state: text('state', { enum: ['active', 'reducing', 'halted'] })
    .notNull()
    .default('active'),
  /** Why the state is not active: user | daily_loss | trailing_drawdown (null when active). */
  stateReason: text('state_reason', { enum: ['user', 'daily_loss', 'trailing_drawdown'] }),
  /** The highest equity seen since the trailing drawdown was set or last reset. */
  peakEquity: money('peak_equity'),
  /** The equity the trading day opened with (daily loss), and that day's start. */
  dayOpenEquity: money('day_open_equity'),
  dayStartedAt: timestamp('day_started_at', { withTimezone: true }),
  /** When the state last changed. */
  since: timestamp('since', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type AccountRiskRow = typeof accountRisks.$inferSelect;
