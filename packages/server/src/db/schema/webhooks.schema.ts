import type {
  WebhookAction,
  WebhookExecutionAction,
  WebhookExecutionStatus,
  WebhookLogEvent,
  WebhookLogLevel,
  WebhookSignalStatus,
  WebhookStep,
} from '@quantsquare/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
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

// TradingView webhook trading (src/modules/webhooks/): written by that module only.

const money = (name: string) => numeric(name, { precision: 30, scale: 10 });

/** A webhook configuration: alerts posted to its key's URL trade on one exchange account. */
export const webhookConfigs = pgTable(
  'webhook_configs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchangeAccountId: integer('exchange_account_id')
      .notNull()
      .references(() => exchangeAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Normalised (BTC/USDT:USDT); null = taken from each alert. */
    symbol: text('symbol'),
    /** USDT margin per signal. */
    defaultAmount: money('default_amount').notNull(),
    maxAmount: money('max_amount'),
    leverage: integer('leverage').notNull(),
    allowedActions: jsonb('allowed_actions').$type<WebhookAction[]>().notNull(),
    allowPyramiding: boolean('allow_pyramiding').notNull().default(false),
    maxSignalAge: integer('max_signal_age').notNull(),
    ipAllowlist: jsonb('ip_allowlist').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** sha256 (hex) of the receiver key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    keyHint: text('key_hint').notNull(),
    keyCreatedAt: timestamp('key_created_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('webhook_configs_key_hash_unique').on(t.keyHash),
    index('webhook_configs_user_idx').on(t.userId),
    index('webhook_configs_account_idx').on(t.exchangeAccountId),
  ],
);

export interface WebhookStepRecord {
  readonly step: WebhookStep;
  /** ISO time. */
  readonly at: string;
  readonly detail: string | null;
}

/**
 * Every alert a configuration received, refused ones included: the signal's trail. Valid ones
 * in a pending status are the executor's durable queue.
 */
export const webhookSignals = pgTable(
  'webhook_signals',
  {
    id: serial('id').primaryKey(),
    configId: integer('config_id')
      .notNull()
      .references(() => webhookConfigs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<WebhookSignalStatus>().notNull(),
    reason: text('reason'),
    message: text('message'),
    errorKind: text('error_kind'),
    action: text('action').$type<WebhookAction>(),
    symbol: text('symbol'),
    amount: money('amount'),
    price: money('price'),
    externalId: text('external_id'),
    signalTime: timestamp('signal_time', { withTimezone: true }),
    /**
     * The dedupe key of an accepted signal (`id:<external id>`, or `body:<sha256>:<time>` for an
     * alert without id); unique per configuration, so concurrent repeats insert one row.
     */
    dedupeKey: text('dedupe_key'),
    /** sha256 of the whole body (the no-id dedupe looks recent ones up by it). */
    bodyHash: text('body_hash').notNull(),
    sourceIp: text('source_ip').notNull(),
    rawBody: text('raw_body').notNull(),
    rawBodyTruncated: boolean('raw_body_truncated').notNull().default(false),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    steps: jsonb('steps').$type<WebhookStepRecord[]>().notNull(),
    /** received → final (filled, failed, ignored, refused) in ms. */
    totalLatencyMs: integer('total_latency_ms'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_signals_dedupe_unique').on(t.configId, t.dedupeKey),
    index('webhook_signals_user_idx').on(t.userId, t.receivedAt),
    index('webhook_signals_config_idx').on(t.configId, t.receivedAt),
    index('webhook_signals_body_idx').on(t.configId, t.bodyHash, t.receivedAt),
    index('webhook_signals_pending_idx')
      .on(t.id)
      .where(sql`status in ('received', 'validated', 'intent', 'placed')`),
  ],
);

/** The orders a signal sent through the execution core (one per intent). */
export const webhookExecutions = pgTable(
  'webhook_executions',
  {
    id: serial('id').primaryKey(),
    signalId: integer('signal_id')
      .notNull()
      .references(() => webhookSignals.id, { onDelete: 'cascade' }),
    configId: integer('config_id')
      .notNull()
      .references(() => webhookConfigs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull(),
    symbol: text('symbol').notNull(),
    action: text('action').$type<WebhookExecutionAction>().notNull(),
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    quantity: money('quantity').notNull(),
    filledQuantity: money('filled_quantity').notNull().default('0'),
    price: money('price'),
    fee: money('fee').notNull().default('0'),
    leverage: integer('leverage').notNull(),
    status: text('status').$type<WebhookExecutionStatus>().notNull(),
    errorKind: text('error_kind'),
    error: text('error'),
    intentKey: text('intent_key').notNull(),
    exchangeOrderId: text('exchange_order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    receiveToFillMs: integer('receive_to_fill_ms'),
  },
  (t) => [
    uniqueIndex('webhook_executions_intent_unique').on(t.configId, t.intentKey),
    index('webhook_executions_user_idx').on(t.userId, t.createdAt),
    index('webhook_executions_signal_idx').on(t.signalId),
  ],
);

/** What happened, line by line (receiver hits, refusals, orders, configuration changes). */
export const webhookLogs = pgTable(
  'webhook_logs',
  {
    id: serial('id').primaryKey(),
    /** null: an unknown key (nobody's). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    configId: integer('config_id').references(() => webhookConfigs.id, { onDelete: 'set null' }),
    configName: text('config_name'),
    signalId: integer('signal_id').references(() => webhookSignals.id, { onDelete: 'set null' }),
    level: text('level').$type<WebhookLogLevel>().notNull(),
    event: text('event').$type<WebhookLogEvent>().notNull(),
    message: text('message').notNull(),
    sourceIp: text('source_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webhook_logs_user_idx').on(t.userId, t.createdAt),
    index('webhook_logs_config_idx').on(t.configId, t.createdAt),
  ],
);

export type WebhookConfigRow = typeof webhookConfigs.$inferSelect;
export type NewWebhookConfigRow = typeof webhookConfigs.$inferInsert;
export type WebhookSignalRow = typeof webhookSignals.$inferSelect;
export type NewWebhookSignalRow = typeof webhookSignals.$inferInsert;
export type WebhookExecutionRow = typeof webhookExecutions.$inferSelect;
export type WebhookLogRow = typeof webhookLogs.$inferSelect;
