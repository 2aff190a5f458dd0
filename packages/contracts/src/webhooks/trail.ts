import { z } from 'zod';
import { idSchema } from '../common.js';
import {
  WEBHOOK_ACTIONS,
  WEBHOOK_EXECUTION_ACTIONS,
  WEBHOOK_EXECUTION_STATUSES,
  WEBHOOK_FAILURE_KINDS,
  WEBHOOK_LOG_EVENTS,
  WEBHOOK_LOG_LEVELS,
  WEBHOOK_PAGE_SIZE_DEFAULT,
  WEBHOOK_PAGE_SIZE_MAX,
  WEBHOOK_SIGNAL_STATUSES,
  WEBHOOK_STEPS,
} from './constants.js';

const money = z.string();

// TradingView webhook trading: the trail (signals, executions, logs, stats) and its queries.

// ---------------------------------------------------------------------------------------------
// The trail: signals, executions, logs, stats
// ---------------------------------------------------------------------------------------------

export const webhookSignalStep = z.object({
  step: z.enum(WEBHOOK_STEPS),
  at: z.string(),
  /** Milliseconds since the previous step (0 for received). */
  latency_ms: z.number().int(),
  /** Milliseconds since received. */
  since_received_ms: z.number().int(),
  detail: z.string().nullable(),
});
export type WebhookSignalStep = z.infer<typeof webhookSignalStep>;

export const webhookExecution = z.object({
  id: z.number().int(),
  signal_id: z.number().int(),
  config_id: z.number().int(),
  config_name: z.string(),
  exchange_api: z.number().int(),
  symbol: z.string(),
  action: z.enum(WEBHOOK_EXECUTION_ACTIONS),
  side: z.enum(['buy', 'sell']),
  /** Requested base quantity (decimal string). */
  quantity: money,
  filled_quantity: money,
  /** Average fill price; null until filled. */
  price: money.nullable(),
  fee: money,
  leverage: z.number().int(),
  status: z.enum(WEBHOOK_EXECUTION_STATUSES),
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  error: z.string().nullable(),
  /** The execution core's idempotency key (derived from the signal id). */
  intent_key: z.string(),
  exchange_order_id: z.string().nullable(),
  created_at: z.string(),
  filled_at: z.string().nullable(),
  /** Milliseconds from the signal's receipt to the fill. */
  receive_to_fill_ms: z.number().int().nullable(),
});
export type WebhookExecution = z.infer<typeof webhookExecution>;

export const webhookSignal = z.object({
  id: z.number().int(),
  config_id: z.number().int(),
  config_name: z.string(),
  status: z.enum(WEBHOOK_SIGNAL_STATUSES),
  /** Refused or ignored: why (WEBHOOK_REFUSE_REASONS / WEBHOOK_IGNORE_REASONS); failed: null. */
  reason: z.string().nullable(),
  /** The reason's text, or the failure's message. */
  message: z.string().nullable(),
  /** Failed: the failure's kind. */
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  action: z.enum(WEBHOOK_ACTIONS).nullable(),
  symbol: z.string().nullable(),
  amount: money.nullable(),
  price: money.nullable(),
  external_id: z.string().nullable(),
  signal_time: z.string().nullable(),
  source_ip: z.string(),
  /** Truncated to WEBHOOK_RAW_BODY_KEPT_CHARS. */
  raw_body: z.string(),
  raw_body_truncated: z.boolean(),
  received_at: z.string(),
  /** received → filled (or → failed / ignored / refused) in milliseconds; null while pending. */
  total_latency_ms: z.number().int().nullable(),
  steps: z.array(webhookSignalStep),
  executions: z.array(webhookExecution),
});
export type WebhookSignal = z.infer<typeof webhookSignal>;

/**
 * What a log line's signal is, for the web to word the line in the reader's language (the
 * `message` is the server's own technical line).
 */
export const webhookLogSignal = z.object({
  action: z.enum(WEBHOOK_ACTIONS).nullable(),
  symbol: z.string().nullable(),
  amount: money.nullable(),
  status: z.enum(WEBHOOK_SIGNAL_STATUSES),
  reason: z.string().nullable(),
  error_kind: z.enum(WEBHOOK_FAILURE_KINDS).nullable(),
  /** The signal's last order: what it did, how much filled, at what price, its venue id. */
  order: z
    .object({
      action: z.enum(WEBHOOK_EXECUTION_ACTIONS),
      quantity: money,
      filled_quantity: money,
      price: money.nullable(),
      leverage: z.number().int(),
      exchange_order_id: z.string().nullable(),
    })
    .nullable(),
});
export type WebhookLogSignal = z.infer<typeof webhookLogSignal>;

export const webhookLog = z.object({
  id: z.number().int(),
  config_id: z.number().int().nullable(),
  config_name: z.string().nullable(),
  signal_id: z.number().int().nullable(),
  level: z.enum(WEBHOOK_LOG_LEVELS),
  event: z.enum(WEBHOOK_LOG_EVENTS),
  message: z.string(),
  source_ip: z.string().nullable(),
  created_at: z.string(),
  /** The line's signal, when it has one (still there). */
  signal: webhookLogSignal.nullable(),
});
export type WebhookLog = z.infer<typeof webhookLog>;

const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_PAGE_SIZE_MAX)
    .default(WEBHOOK_PAGE_SIZE_DEFAULT),
  /** A configuration id of the user's (another user's: empty results). */
  config: idSchema.optional(),
  /** ISO times (inclusive since, exclusive until). */
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
};

/** GET /webhook-trading/signals/?config&status&since&until&page&page_size (newest first). */
export const webhookSignalsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_SIGNAL_STATUSES).optional(),
});
export type WebhookSignalsQuery = z.input<typeof webhookSignalsQuery>;
/** GET /webhook-trading/executions/?config&status&since&until&page&page_size */
export const webhookExecutionsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_EXECUTION_STATUSES).optional(),
});
export type WebhookExecutionsQuery = z.input<typeof webhookExecutionsQuery>;
/** GET /webhook-trading/logs/?config&level&event&since&until&page&page_size (`status` = level). */
export const webhookLogsQuery = z.object({
  ...pageQuery,
  status: z.enum(WEBHOOK_LOG_LEVELS).optional(),
  level: z.enum(WEBHOOK_LOG_LEVELS).optional(),
  event: z.enum(WEBHOOK_LOG_EVENTS).optional(),
});
export type WebhookLogsQuery = z.input<typeof webhookLogsQuery>;
/** GET /webhook-trading/stats/?config */
export const webhookStatsQuery = z.object({
  config: idSchema.optional(),
});
export type WebhookStatsQuery = z.input<typeof webhookStatsQuery>;

const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    results: z.array(item),
    count: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
export const webhookSignalListResponse = paged(webhookSignal);
export type WebhookSignalListResponse = z.infer<typeof webhookSignalListResponse>;
export const webhookExecutionListResponse = paged(webhookExecution);
export type WebhookExecutionListResponse = z.infer<typeof webhookExecutionListResponse>;
export const webhookLogListResponse = paged(webhookLog);
export type WebhookLogListResponse = z.infer<typeof webhookLogListResponse>;

/** GET /webhook-trading/signals/{id}/: one signal with its whole trail. */
export const webhookSignalResponse = webhookSignal;

export const webhookStatsWindow = z.object({
  total: z.number().int(),
  /** Signals per status (every status present, 0 when none). */
  by_status: z.record(z.enum(WEBHOOK_SIGNAL_STATUSES), z.number().int()),
  /** filled ÷ (filled + failed) × 100; null when neither. */
  success_rate: z.number().nullable(),
  /** Receive-to-fill latency of filled signals (ms); null when none. */
  median_latency_ms: z.number().int().nullable(),
  p99_latency_ms: z.number().int().nullable(),
});
export type WebhookStatsWindow = z.infer<typeof webhookStatsWindow>;
export const webhookStatsResponse = z.object({
  last_24h: webhookStatsWindow,
  total: webhookStatsWindow,
  configs: z.object({ total: z.number().int(), enabled: z.number().int() }),
});
export type WebhookStatsResponse = z.infer<typeof webhookStatsResponse>;
