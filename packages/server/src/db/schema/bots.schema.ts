import type { LiveVsBacktest, OperationLogEvent } from '@quantsquare/contracts';
import {
  bigint,
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

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });

/** A trading bot: one per (exchange account, symbol). */
export const bots = pgTable(
  'bots',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchangeAccountId: integer('exchange_account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe', { enum: ['1m', '5m', '15m', '1h', '4h', '1d'] }).notNull(),
    strategyType: text('strategy_type').notNull(),
    strategyParameters: jsonb('strategy_parameters').$type<Record<string, number>>().notNull(),
    /** Margin per position in USDT; notional = trade amount × the account's leverage. */
    tradeAmount: money('trade_amount').notNull(),
    stopLossPercentage: numeric('stop_loss_percentage', { precision: 10, scale: 4 }),
    takeProfitPercentage: numeric('take_profit_percentage', { precision: 10, scale: 4 }),
    status: text('status', { enum: ['created', 'stopped', 'running', 'error'] })
      .notNull()
      .default('created'),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    lastTradeAt: timestamp('last_trade_at', { withTimezone: true }),
    /** Open time (ms) of the last closed candle the bot has decided on. */
    lastCandleTimeMs: bigint('last_candle_time_ms', { mode: 'number' }),
    /** When the bot was first started: its live period (live against backtest) begins here. */
    liveSince: timestamp('live_since', { withTimezone: true }),
    totalTrades: integer('total_trades').notNull().default(0),
    winningTrades: integer('winning_trades').notNull().default(0),
    losingTrades: integer('losing_trades').notNull().default(0),
    /** Realised, net of fees. */
    totalProfitLoss: money('total_profit_loss').notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('bots_account_symbol_unique').on(t.exchangeAccountId, t.symbol),
    index('bots_user_idx').on(t.userId),
    index('bots_status_idx').on(t.status),
  ],
);

/**
 * LEGACY (before the execution core): a bot's open position. The core's position book
 * (execution_positions) holds it now; at start-up the core adopts rows left here by an older
 * version and deletes them. To be dropped once every deployment has started once.
 */
export const botPositions = pgTable(
  'bot_positions',
  {
    id: serial('id').primaryKey(),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    /** Base-asset quantity. */
    amount: money('amount').notNull(),
    entryPrice: money('entry_price').notNull(),
    entryFee: money('entry_fee').notNull().default('0'),
    stopLoss: money('stop_loss'),
    takeProfit: money('take_profit'),
    /** Exchange ids of the reduce-only protective orders (live accounts). */
    stopLossOrderId: text('stop_loss_order_id'),
    takeProfitOrderId: text('take_profit_order_id'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('bot_positions_bot_unique').on(t.botId)],
);

/**
 * LEGACY (before the execution core): a bot's order intents. The core's execution_orders holds
 * them now; at start-up the core adopts unsettled rows left here by an older version (same client
 * order ids, so they are looked up, never resent) and deletes them. To be dropped later.
 */
export const botOrders = pgTable(
  'bot_orders',
  {
    id: serial('id').primaryKey(),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    candleTimeMs: bigint('candle_time_ms', { mode: 'number' }).notNull(),
    action: text('action', {
      enum: ['open_long', 'open_short', 'close_long', 'close_short', 'stop_loss', 'take_profit'],
    }).notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    amount: money('amount').notNull(),
    reduceOnly: integer('reduce_only').notNull().default(0),
    status: text('status', { enum: ['pending', 'filled', 'failed', 'unknown', 'open', 'canceled'] })
      .notNull()
      .default('pending'),
    exchangeOrderId: text('exchange_order_id'),
    filledAmount: money('filled_amount'),
    averagePrice: money('average_price'),
    fee: money('fee'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('bot_orders_client_order_id_unique').on(t.clientOrderId),
    index('bot_orders_bot_idx').on(t.botId, t.status),
  ],
);

/** A closed round trip of a bot: the source of its statistics. */
export const botTrades = pgTable(
  'bot_trades',
  {
    id: serial('id').primaryKey(),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    amount: money('amount').notNull(),
    entryPrice: money('entry_price').notNull(),
    exitPrice: money('exit_price').notNull(),
    /** Net of both fees. */
    pnl: money('pnl').notNull(),
    fee: money('fee').notNull(),
    reason: text('reason', { enum: ['signal', 'stop_loss', 'take_profit', 'manual'] }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('bot_trades_bot_idx').on(t.botId, t.closedAt)],
);

/**
 * The latest live-vs-backtest comparison of each bot that has been live, written by the bots
 * module's hourly job: the square ranks and shows published accounts from it without running
 * a backtest per request.
 */
export const botLiveComparisons = pgTable(
  'bot_live_comparisons',
  {
    botId: integer('bot_id')
      .primaryKey()
      .references(() => bots.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    /** Days since the bot was first started (to now, or to its stop). */
    liveDays: doublePrecision('live_days').notNull(),
    deltaPct: doublePrecision('delta_pct').notNull(),
    liveReturnPct: doublePrecision('live_return_pct').notNull(),
    backtestReturnPct: doublePrecision('backtest_return_pct').notNull(),
    /** The bot's margin per position when compared: the weight of its delta in its account's. */
    tradeAmount: money('trade_amount').notNull(),
    /**
     * The whole answer of GET /trading/bots/{id}/live-vs-backtest/. Rows written before its
     * prices became decimal strings hold them as numbers; only counts, percentages and curves
     * are read back (the strategy page), never a price.
     */
    answer: jsonb('answer').$type<LiveVsBacktest>().notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('bot_live_comparisons_account_idx').on(t.accountId)],
);

/** The operation log: every user action on bots and accounts, bot decision, trade and error. */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    botId: integer('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    type: text('type', {
      enum: ['user_action', 'bot_action', 'trade', 'error', 'system'],
    }).notNull(),
    botSymbol: text('bot_symbol'),
    event: text('event').$type<OperationLogEvent>(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('operation_logs_user_created_idx').on(t.userId, t.createdAt),
    index('operation_logs_bot_idx').on(t.botId),
  ],
);

export type BotRow = typeof bots.$inferSelect;
export type BotPositionRow = typeof botPositions.$inferSelect;
export type BotOrderRow = typeof botOrders.$inferSelect;
export type BotTradeRow = typeof botTrades.$inferSelect;
export type OperationLogRow = typeof operationLogs.$inferSelect;
export type BotLiveComparisonRow = typeof botLiveComparisons.$inferSelect;
