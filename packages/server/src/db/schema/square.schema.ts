import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { exchangeAccounts } from './exchange-accounts.schema.js';
import { users } from './users.schema.js';

// The strategy square (module src/modules/square): share settings, the metrics read by the
// square, the read model of each account's fills and positions (fed by the event bus), follows,
// comments and likes. Only that module writes these tables.

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });
const SQUARE_PERIODS = ['daily', 'weekly', 'monthly', 'total'] as const;

/** One row per exchange account that has ever been shared (document 1 §3 Share settings). */
export const strategyShareSettings = pgTable(
  'strategy_share_settings',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    acceptCopy: boolean('accept_copy').notNull().default(true),
    showTrades: boolean('show_trades').notNull().default(true),
    showPositions: boolean('show_positions').notNull().default(true),
    allowComments: boolean('allow_comments').notNull().default(true),
    /** Whether the strategy page shows the rules and parameters of the account's strategies. */
    showRules: boolean('show_rules').notNull().default(false),
    /** Sanitised HTML. */
    description: text('description').notNull().default(''),
    /** Kept by copy trading (issue 12) through the square's service. */
    copiersCount: integer('copiers_count').notNull().default(0),
    totalCopyEarnings: money('total_copy_earnings').notNull().default('0'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('strategy_share_settings_user_idx').on(t.userId),
    check('strategy_share_settings_copiers_check', sql`${t.copiersCount} >= 0`),
  ],
);

/**
 * The square's figures, one row per (account, period), refreshed by the metrics worker.
 * Name, owner, exchange, visibility and copiers are copied here so that a square page is one
 * query on one of the partial indexes below (one per sort, public rows only). The rank columns
 * are null for strategies too new to be ranked (and without a figure), so they sort last.
 * Rows stay narrow (the sparkline lives in its own table) so filters scan few pages.
 */
export const strategyMetrics = pgTable(
  'strategy_metrics',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    period: text('period', { enum: SQUARE_PERIODS }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchange: text('exchange', { enum: ['binance', 'okx'] }).notNull(),
    name: text('name').notNull(),
    /** lower(name): the search is a plain LIKE on it (several times cheaper than ILIKE). */
    searchName: text('search_name').notNull().generatedAlwaysAs(sql`lower(name)`),
    isPublic: boolean('is_public').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    balance: money('balance').notNull(),
    /** Time-weighted return over all history (the card's total_pnl_percent), percent. */
    totalReturnPercent: doublePrecision('total_return_percent').notNull(),
    returnPercent: doublePrecision('return_percent').notNull(),
    pnl: money('pnl').notNull(),
    maxDrawdown: doublePrecision('max_drawdown').notNull(),
    winRate: doublePrecision('win_rate'),
    sharpeRatio: doublePrecision('sharpe_ratio'),
    sortinoRatio: doublePrecision('sortino_ratio'),
    tradesCount: integer('trades_count').notNull(),
    copiersCount: integer('copiers_count').notNull(),
    copierPnl: doublePrecision('copier_pnl').notNull().default(0),
    copyEfficiency: doublePrecision('copy_efficiency'),
    daysOfHistory: doublePrecision('days_of_history').notNull(),
    isNew: boolean('is_new').notNull(),
    rankWinRate: doublePrecision('rank_win_rate'),
    rankSharpe: doublePrecision('rank_sharpe'),
    /**
     * Live against backtest of the account's bots (the bots module's hourly comparisons, the
     * same for every period); null for an account no bot has traded live.
     */
    liveDays: doublePrecision('live_days'),
    liveDeltaPct: doublePrecision('live_delta_pct'),
    /** |live_delta_pct|: the live_delta sort walks its index, smallest first. */
    liveDeltaAbs: doublePrecision('live_delta_abs'),
    liveReturnPct: doublePrecision('live_return_pct'),
    backtestReturnPct: doublePrecision('backtest_return_pct'),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.period] }),
    index('strategy_metrics_copiers_idx')
      .on(t.period, t.copiersCount.desc(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_return_idx')
      .on(t.period, t.returnPercent.desc(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_latest_idx')
      .on(t.period, t.publishedAt.desc().nullsLast(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_win_rate_idx')
      .on(t.period, t.rankWinRate.desc().nullsLast(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_sharpe_idx')
      .on(t.period, t.rankSharpe.desc().nullsLast(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_live_delta_idx')
      .on(t.period, t.liveDeltaAbs.asc().nullsLast(), t.accountId.desc())
      .where(sql`${t.isPublic}`),
    index('strategy_metrics_user_idx').on(t.userId),
  ],
);

/** The card's sparkline: one point a day over the last 30 days [{timestamp, balance}]. */
export const strategySparklines = pgTable('strategy_sparklines', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
  points: jsonb('points').$type<{ timestamp: string; balance: number }[]>().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
});

/**
 * Fills of every account, as the event bus told them (OrderFilled of bots, copy relations and
 * webhooks), plus, for live accounts, the exchange's own trade history of fills the platform did
 * not make (event id `exchange:<account>:<trade id>`). `eventId` makes a repeated event a no-op. `realizedPnl` is the gross P&L the fill
 * realised on its owner's average-cost position (null for an opening fill).
 */
export const strategyTrades = pgTable(
  'strategy_trades',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    ownerKind: text('owner_kind', { enum: ['bot', 'copy', 'webhook', 'manual'] }).notNull(),
    ownerId: integer('owner_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    amount: money('amount').notNull(),
    price: money('price').notNull(),
    fee: money('fee').notNull(),
    realizedPnl: money('realized_pnl'),
    exchangeOrderId: text('exchange_order_id').notNull(),
    filledAt: timestamp('filled_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('strategy_trades_event_idx').on(t.eventId),
    index('strategy_trades_account_time_idx').on(t.accountId, t.filledAt.desc(), t.id.desc()),
    index('strategy_trades_account_order_idx').on(t.accountId, t.exchangeOrderId),
  ],
);

/** Current position of each owner on an account and symbol (PositionChanged, and fills). */
export const strategyPositions = pgTable(
  'strategy_positions',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    ownerKind: text('owner_kind', { enum: ['bot', 'copy', 'webhook', 'manual'] }).notNull(),
    ownerId: integer('owner_id').notNull(),
    /** Signed base-asset quantity. */
    size: money('size').notNull(),
    entryPrice: money('entry_price'),
    /** The entry of the last open position: what a late fill of a position now flat closed. */
    lastEntryPrice: money('last_entry_price'),
    /** The newest fill or change applied (ms); older PositionChanged events are ignored. */
    updatedAtMs: bigint('updated_at_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol, t.ownerKind, t.ownerId] })],
);

/**
 * Hourly wallet marks of every active account: equity, unrealised P&L and cumulative realised
 * P&L of the read model's fills. Deposits and withdrawals are inferred from consecutive marks.
 */
export const strategyWalletMarks = pgTable(
  'strategy_wallet_marks',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    equity: money('equity').notNull(),
    unrealizedPnl: money('unrealized_pnl').notNull(),
    realizedPnlCum: money('realized_pnl_cum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.takenAt] })],
);

export const userFollows = pgTable(
  'user_follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: integer('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('user_follows_followee_idx').on(t.followeeId),
    check('user_follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

/** Plain text (trimmed, 1–500 characters); replies point at a top-level comment. */
export const strategyComments = pgTable(
  'strategy_comments',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => strategyComments.id, {
      onDelete: 'cascade',
    }),
    content: text('content').notNull(),
    /** Kept in the like's transaction, only when a like row was really added or removed. */
    likesCount: integer('likes_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('strategy_comments_account_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('strategy_comments_parent_idx').on(t.parentId),
    index('strategy_comments_user_time_idx').on(t.userId, t.createdAt),
    check('strategy_comments_content_check', sql`char_length(${t.content}) between 1 and 500`),
    check('strategy_comments_likes_check', sql`${t.likesCount} >= 0`),
  ],
);

export const commentLikes = pgTable(
  'comment_likes',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => strategyComments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

export type StrategyShareSettingsRow = typeof strategyShareSettings.$inferSelect;
export type StrategyMetricsRow = typeof strategyMetrics.$inferSelect;
export type NewStrategyMetricsRow = typeof strategyMetrics.$inferInsert;
export type StrategyTradeRow = typeof strategyTrades.$inferSelect;
export type StrategyPositionRow = typeof strategyPositions.$inferSelect;
export type StrategyWalletMarkRow = typeof strategyWalletMarks.$inferSelect;
export type StrategyCommentRow = typeof strategyComments.$inferSelect;
