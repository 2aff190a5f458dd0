import { type SQL, sql } from 'drizzle-orm';
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
import { exchangeAccounts } from './exchange-accounts.schema.js';

// The execution core's tables (src/execution/): written by that module only.

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });

export const ORDER_OWNER_KINDS = ['bot', 'copy', 'webhook', 'manual'] as const;

/**
 * An order's life (src/execution/order-states.ts holds every transition): created → sending →
 * accepted → partially_filled → filled, or canceled / rejected / expired; in_doubt while a
 * send's outcome is unknown. The last four and filled are final.
 */
export const ORDER_STATES = [
  'created',
  'sending',
  'in_doubt',
  'accepted',
  'partially_filled',
  'filled',
  'canceled',
  'rejected',
  'expired',
] as const;

/** States in which an order may still trade: it is followed until it leaves them. */
export const LIVE_ORDER_STATES = [
  'created',
  'sending',
  'in_doubt',
  'accepted',
  'partially_filled',
] as const;

/** The live states as an SQL list of literals (the `is_live` column's expression). */
export const LIVE_STATES_SQL = `(${LIVE_ORDER_STATES.map((s) => `'${s}'`).join(', ')})`;

/** The order is in a live state, written so the planner can use the live indexes. */
export function isLiveOrder(): SQL {
  return sql`${executionOrders.isLive}`;
}

/**
 * Order intents of every owner (bot, copy relation, webhook configuration, manual), written
 * BEFORE the order is sent. The client order id derives from (owner, idempotency key), so after
 * a timeout or a restart the order is looked up at the exchange by it and never sent twice.
 */
export const executionOrders = pgTable(
  'execution_orders',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    ownerKind: text('owner_kind', { enum: ORDER_OWNER_KINDS }).notNull(),
    ownerId: integer('owner_id').notNull(),
    /** Chosen by the owner (a bot: candle + action; a copy relation: leader change + symbol). */
    idempotencyKey: text('idempotency_key').notNull(),
    clientOrderId: text('client_order_id').notNull(),
    /** The owner's name for what the order does (e.g. a bot's open_long, stop_loss). */
    action: text('action').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    type: text('type', {
      enum: ['market', 'limit', 'stop_market', 'take_profit_market'],
    }).notNull(),
    timeInForce: text('time_in_force', { enum: ['GTC', 'IOC'] }),
    /** Base-asset quantity. */
    amount: money('amount').notNull(),
    /** Limit price: the cap of a marketable-limit IOC order. */
    price: money('price'),
    triggerPrice: money('trigger_price'),
    reduceOnly: boolean('reduce_only').notNull().default(false),
    positionSide: text('position_side', { enum: ['long', 'short'] }),
    status: text('status', { enum: ORDER_STATES }).notNull().default('created'),
    /**
     * Whether `status` is a live state: the live indexes' predicate. A claim (created → sending)
     * or an acceptance moves an order between live states and leaves this as it was, so the
     * update touches no indexed value and PostgreSQL can make it in place (a HOT update, no new
     * entry in any of the five indexes); only the move to a final state changes it.
     */
    isLive: boolean('is_live')
      .notNull()
      .generatedAlwaysAs(sql.raw(`status in ${LIVE_STATES_SQL}`)),
    exchangeOrderId: text('exchange_order_id'),
    filledAmount: money('filled_amount'),
    averagePrice: money('average_price'),
    fee: money('fee'),
    /** The owner's realised profit from this fill, net of the fees (closing fills). */
    realizedPnl: money('realized_pnl'),
    error: text('error'),
    /**
     * The venue refuses the order's request after this moment (Binance timestamp + recvWindow,
     * OKX expTime): set when it is claimed for sending. Until then a lookup that misses proves
     * nothing: the request may still arrive.
     */
    sendExpiresAt: timestamp('send_expires_at', { withTimezone: true }),
    /** Lookups by client order id that found nothing since the order was last seen. */
    lookupMisses: integer('lookup_misses').notNull().default(0),
    firstMissAt: timestamp('first_miss_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // The exchange's idempotency scope is the account.
    uniqueIndex('execution_orders_client_id_unique').on(t.accountId, t.clientOrderId),
    // Live orders by owner and by account: partial, so a final order leaves both indexes and
    // they hold only what is still on its way (a few rows per account, however long its history).
    // The queries ask for `is_live` (isLiveOrder) so the planner matches the predicate.
    index('execution_orders_owner_live_idx').on(t.ownerKind, t.ownerId).where(sql.raw('is_live')),
    // An owner's intents by key (a repeated submit) or key prefix (a copy pass's orders of one
    // leader change): pattern ops, so a prefix is a range of the index, not a scan of the owner.
    index('execution_orders_owner_key_idx').on(
      t.ownerKind,
      t.ownerId,
      t.idempotencyKey.op('text_pattern_ops'),
    ),
    index('execution_orders_account_live_idx').on(t.accountId).where(sql.raw('is_live')),
  ],
);

/**
 * The fills ledger: one row per venue trade, unique per account and the venue's trade id. The
 * book, average prices, realised P&L and fees are settled from these rows, each at its own
 * price. A venue that gives no trades (paper) has one row per fill increment of the order.
 */
export const executionFills = pgTable(
  'execution_fills',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    /**
     * The order the trade belongs to. No foreign key: a fill is written only by the settlement
     * that holds its order locked, orders go only with their account (whose cascade takes the
     * fills too), and the check cost a lookup per trade on the order path.
     */
    orderId: integer('order_id').notNull(),
    venueTradeId: text('venue_trade_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    /** Base-asset quantity, positive. */
    amount: money('amount').notNull(),
    price: money('price').notNull(),
    /** The fee as the venue charged it, in its own currency (USDT, BNB, OKB, the base asset). */
    feeCost: money('fee_cost').notNull(),
    feeCurrency: text('fee_currency').notNull(),
    /** The fee's value in USDT when it was charged. */
    feeQuote: money('fee_quote').notNull(),
    filledAt: timestamp('filled_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('execution_fills_trade_unique').on(t.accountId, t.venueTradeId),
    // The copy simulator reads an account's fills of a period (a year of fills: one range scan).
    index('execution_fills_account_time_idx').on(t.accountId, t.filledAt),
  ],
);

/**
 * The position book: which part of an account's net position on a symbol belongs to which
 * owner, as the owner's own fills made it. Reconcile compares the owners' sum with the exchange.
 * A flat owner keeps its row (size 0): its realised P&L goes on.
 */
export const executionPositions = pgTable(
  'execution_positions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    ownerKind: text('owner_kind', { enum: ORDER_OWNER_KINDS }).notNull(),
    ownerId: integer('owner_id').notNull(),
    /** Signed base-asset quantity: positive long, negative short. */
    size: money('size').notNull().default('0'),
    /** Average entry price of what is held (0 when flat). */
    entryPrice: money('entry_price').notNull().default('0'),
    /** Entry fees paid for what is held. */
    entryFee: money('entry_fee').notNull().default('0'),
    /** Realised profit of all the owner's closing fills, net of fees. */
    realizedPnl: money('realized_pnl').notNull().default('0'),
    /** When the position last left flat; null while flat. */
    openedAt: timestamp('opened_at', { withTimezone: true }),
    stopLoss: money('stop_loss'),
    takeProfit: money('take_profit'),
    /** Exchange ids of the resting reduce-only protective orders. */
    stopLossOrderId: text('stop_loss_order_id'),
    takeProfitOrderId: text('take_profit_order_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('execution_positions_owner_unique').on(
      t.accountId,
      t.symbol,
      t.ownerKind,
      t.ownerId,
    ),
    index('execution_positions_owner_idx').on(t.ownerKind, t.ownerId),
  ],
);

/** The leverage last set on the exchange per (account, symbol): set again when it differs. */
export const executionLeverages = pgTable(
  'execution_leverages',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    leverage: integer('leverage').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] })],
);

/**
 * Leases: which worker process drives a resource (a bot, later a copy relation) until when.
 * A worker renews its leases well before they expire; a dead worker's leases expire and another
 * worker takes them over.
 */
export const workerLeases = pgTable(
  'worker_leases',
  {
    resource: text('resource').primaryKey(),
    holder: text('holder').notNull(),
    /**
     * The fencing token: raised each time another holder takes the lease. A claim to send an
     * order carries the epoch its driver holds, so a worker that froze and lost the lease can
     * no longer claim, even if it woke before noticing.
     */
    epoch: integer('epoch').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('worker_leases_holder_idx').on(t.holder)],
);

export type ExecutionOrderRow = typeof executionOrders.$inferSelect;
export type NewExecutionOrderRow = typeof executionOrders.$inferInsert;
export type ExecutionPositionRow = typeof executionPositions.$inferSelect;
export type ExecutionFillRow = typeof executionFills.$inferSelect;
export type NewExecutionFillRow = typeof executionFills.$inferInsert;
export type OrderState = (typeof ORDER_STATES)[number];
export type WorkerLeaseRow = typeof workerLeases.$inferSelect;
