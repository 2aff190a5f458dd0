import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });

/**
 * Exchange API accounts: live (keys encrypted with the secret box, whose stored form
 * `<keyId>:iv:tag:ct` carries the key id beside each value) or paper (no keys, virtual USDT).
 */
export const exchangeAccounts = pgTable(
  'exchange_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    exchange: text('exchange', { enum: ['binance', 'okx'] }).notNull(),
    accountType: text('account_type', { enum: ['classic', 'unified'] }).notNull(),
    isTestnet: boolean('is_testnet').notNull().default(false),
    isPaper: boolean('is_paper').notNull().default(false),
    positionMode: text('position_mode', { enum: ['hedge', 'net'] }).notNull(),
    defaultLeverage: integer('default_leverage').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    apiKeyEncrypted: text('api_key_encrypted'),
    apiSecretEncrypted: text('api_secret_encrypted'),
    apiPasswordEncrypted: text('api_password_encrypted'),
    /** The masked key shown in answers (first 4 … last 4, or ****), so lists never decrypt. */
    apiKeyMasked: text('api_key_masked'),
    /** Paper accounts: the wallet balance in USDT (realised P&L and fees included). */
    paperBalance: money('paper_balance'),
    lastError: text('last_error'),
    /** The kind of the last error (contracts EXCHANGE_ERROR_KINDS); null after a success. */
    lastErrorKind: text('last_error_kind', {
      enum: [
        'invalid_key',
        'insufficient_funds',
        'invalid_order',
        'rate_limited',
        'unavailable',
        'unknown_outcome',
      ],
    }),
    /** The last check (test, validate, balance, overview load): when and whether it succeeded. */
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastCheckOk: boolean('last_check_ok'),
    /** Every new user's paper "experience account", created with the user. */
    isExperience: boolean('is_experience').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('exchange_accounts_user_idx').on(t.userId)],
);

/** Equity of an account at an instant (hourly, 00:00 UTC+8, and at creation). */
export const balanceSnapshots = pgTable(
  'balance_snapshots',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    equity: money('equity').notNull(),
    dailyPnl: money('daily_pnl').notNull(),
  },
  // Unique: two processes taking the same hourly slot write it once.
  (t) => [uniqueIndex('balance_snapshots_account_taken_idx').on(t.accountId, t.takenAt)],
);

/** Paper trading: open positions, one per (symbol, side); one-way accounts hold one side. */
export const paperPositions = pgTable(
  'paper_positions',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    amount: money('amount').notNull(),
    entryPrice: money('entry_price').notNull(),
    leverage: integer('leverage').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol, t.side] })],
);

/** Paper trading: leverage per symbol (setLeverage), kept when positions close. */
export const paperLeverages = pgTable(
  'paper_leverages',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    leverage: integer('leverage').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] })],
);

export const paperOrders = pgTable(
  'paper_orders',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    type: text('type', {
      enum: ['market', 'limit', 'stop_market', 'take_profit_market'],
    }).notNull(),
    status: text('status', { enum: ['open', 'closed', 'canceled', 'rejected'] }).notNull(),
    amount: money('amount').notNull(),
    filled: money('filled').notNull(),
    averagePrice: money('average_price'),
    price: money('price'),
    triggerPrice: money('trigger_price'),
    reduceOnly: boolean('reduce_only').notNull(),
    positionSide: text('position_side', { enum: ['long', 'short'] }),
    fee: money('fee').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Resting orders: prices are checked against the market feed up to this instant. */
    checkedUntil: timestamp('checked_until', { withTimezone: true }),
    /** When the order filled (a resting order: when the feed reached its price). */
    filledAt: timestamp('filled_at', { withTimezone: true }),
  },
  // Idempotency: a client order id is used once per account.
  (t) => [
    uniqueIndex('paper_orders_client_id_idx').on(t.accountId, t.clientOrderId),
    index('paper_orders_resting_idx').on(t.accountId, t.status),
  ],
);

export const paperFills = pgTable(
  'paper_fills',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    /**
     * The order the fill belongs to. No foreign key: the desk writes a fill in the transaction
     * that inserted its order, paper orders go only with their account (whose cascade takes the
     * fills too), and the check cost a lookup per fill on the order path.
     */
    orderId: integer('order_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    amount: money('amount').notNull(),
    price: money('price').notNull(),
    fee: money('fee').notNull(),
    realizedPnl: money('realized_pnl').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('paper_fills_account_symbol_idx').on(t.accountId, t.symbol, t.createdAt)],
);

export type ExchangeAccountRow = typeof exchangeAccounts.$inferSelect;
export type NewExchangeAccountRow = typeof exchangeAccounts.$inferInsert;
export type BalanceSnapshotRow = typeof balanceSnapshots.$inferSelect;
export type PaperPositionRow = typeof paperPositions.$inferSelect;
export type PaperOrderRow = typeof paperOrders.$inferSelect;
export type PaperFillRow = typeof paperFills.$inferSelect;
