import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { exchangeAccounts } from './exchange-accounts.schema.js';
import { users } from './users.schema.js';

// Copy trading (module src/modules/copy-trading): relations and their copy receipts. Only that
// module writes these tables; the copied orders and positions live in the execution core's
// tables under owner {kind: 'copy', id: relation id}.

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });

/** A follower account copying a leader account (a public strategy). */
export const copyRelations = pgTable(
  'copy_relations',
  {
    id: serial('id').primaryKey(),
    followerUserId: integer('follower_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followerAccountId: integer('follower_account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    leaderUserId: integer('leader_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    leaderAccountId: integer('leader_account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    copyAmount: money('copy_amount').notNull(),
    /** null: no limit. */
    maxLoss: money('max_loss'),
    copyMode: text('copy_mode', { enum: ['normal', 'reverse'] }).notNull(),
    status: text('status', { enum: ['active', 'paused', 'stopped'] })
      .notNull()
      .default('active'),
    stopReason: text('stop_reason', {
      enum: ['user', 'max_loss', 'leader_drawdown', 'leader_gone'],
    }),
    /**
     * Why a paused relation was paused by the platform (null: by its follower): its follower
     * account was disabled; it resumes when the account is enabled again.
     */
    pauseReason: text('pause_reason', { enum: ['account_disabled', 'risk_halted', 'risk_limit'] }),
    feePaid: money('fee_paid').notNull(),
    maxSlippagePercent: doublePrecision('max_slippage_percent'),
    leaderDrawdownLimitPercent: doublePrecision('leader_drawdown_limit_percent'),
    entryDistancePercent: doublePrecision('entry_distance_percent').notNull(),
    /**
     * The leader's equity the ratio copy_amount / equity is taken against (at the start, and
     * again when copy_amount is edited).
     */
    leaderEquityBase: money('leader_equity_base').notNull(),
    /**
     * The leader's equity at the start, and its highest and lowest since: the drift breaker
     * measures a normal copy's leader from its peak and a reverse copy's from its trough.
     */
    leaderEquityStart: money('leader_equity_start').notNull(),
    leaderEquityPeak: money('leader_equity_peak').notNull(),
    leaderEquityTrough: money('leader_equity_trough').notNull(),
    /** The leader's latest known equity (copy efficiency: the leader's return since the start). */
    leaderEquityLast: money('leader_equity_last').notNull(),
    /**
     * The leader's book when the relation began, per symbol (net size and version): what the
     * follower did not join (unless late join opened it) and the base of the first change.
     */
    leaderStartBook: jsonb('leader_start_book')
      .$type<Record<string, { size: string; version: string }>>()
      .notNull()
      .default({}),
    /** Copied P&L (realised + unrealised, net of fees), as last computed. */
    totalProfitLoss: money('total_profit_loss').notNull().default('0'),
    totalCopiedTrades: integer('total_copied_trades').notNull().default(0),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** Deleted by the follower (stopped relations only); kept for the ledger's references. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One live (running or paused) relation per (follower account, leader): two racing creates
    // insert one row. A stopped one does not count: its follower may copy the strategy again.
    uniqueIndex('copy_relations_follower_leader_idx')
      .on(t.followerAccountId, t.leaderAccountId)
      .where(sql`${t.deletedAt} is null and ${t.status} <> 'stopped'`),
    index('copy_relations_leader_idx').on(t.leaderAccountId),
    index('copy_relations_follower_user_idx').on(t.followerUserId),
    index('copy_relations_leader_user_idx').on(t.leaderUserId),
    check('copy_relations_amount_check', sql`${t.copyAmount} > 0`),
  ],
);

/** What one leader change did for one relation: copied (the follower's fill) or missed (why). */
export const copyReceipts = pgTable(
  'copy_receipts',
  {
    id: serial('id').primaryKey(),
    relationId: integer('relation_id')
      .notNull()
      .references(() => copyRelations.id, { onDelete: 'cascade' }),
    /** The leader change (account, symbol, position version): one receipt per change. */
    changeKey: text('change_key').notNull(),
    symbol: text('symbol').notNull(),
    /** The leader's net size after the change, and the change itself (signed). */
    leaderSize: money('leader_size').notNull(),
    leaderSizeDelta: money('leader_size_delta').notNull(),
    leaderPrice: money('leader_price'),
    leaderFilledAt: timestamp('leader_filled_at', { withTimezone: true }).notNull(),
    targetSize: money('target_size').notNull(),
    followerSizeDelta: money('follower_size_delta'),
    followerPrice: money('follower_price'),
    slippageBps: doublePrecision('slippage_bps'),
    delayMs: integer('delay_ms'),
    status: text('status', { enum: ['copied', 'missed'] }).notNull(),
    missReason: text('miss_reason', {
      enum: [
        'below_minimum',
        'capped',
        'insufficient_margin',
        'invalid_key',
        'rate_limited',
        'paused',
        'too_far_from_entry',
        'exchange_error',
      ],
    }),
    errorKind: text('error_kind'),
    /** Tries so far (a retried miss keeps its receipt and counts up). */
    attempts: integer('attempts').notNull().default(1),
    /** The relation's copied P&L after this change (the detail's P&L chart). */
    relationPnl: money('relation_pnl'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('copy_receipts_relation_change_idx').on(t.relationId, t.changeKey),
    index('copy_receipts_relation_created_idx').on(t.relationId, t.createdAt),
  ],
);

export type CopyRelationRow = typeof copyRelations.$inferSelect;
export type NewCopyRelationRow = typeof copyRelations.$inferInsert;
export type CopyReceiptRow = typeof copyReceipts.$inferSelect;
export type NewCopyReceiptRow = typeof copyReceipts.$inferInsert;
