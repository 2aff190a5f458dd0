import type { WebhookExecution, WebhookSignal } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { decimalTextOrNull } from '../../common/decimal-text.js';
import type { WebhookExecutionRow, WebhookSignalRow } from '../../db/schema/index.js';
import type { ParsedAlert } from './webhook-alert.js';

// The webhook rows as the API shows them: signals with their step latencies, executions, and a
// parsed alert (pure).

export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
/** A decimal column as the answers show it (null stays null). */
export const money = decimalTextOrNull;

export function presentExecution(row: WebhookExecutionRow, configName: string): WebhookExecution {
  return {
    id: row.id,
    signal_id: row.signalId,
    config_id: row.configId,
    config_name: configName,
    exchange_api: row.accountId,
    symbol: row.symbol,
    action: row.action,
    side: row.side,
    quantity: new Decimal(row.quantity).toString(),
    filled_quantity: new Decimal(row.filledQuantity).toString(),
    price: money(row.price),
    fee: new Decimal(row.fee).toString(),
    leverage: row.leverage,
    status: row.status,
    error_kind: (row.errorKind as WebhookExecution['error_kind']) ?? null,
    error: row.error,
    intent_key: row.intentKey,
    exchange_order_id: row.exchangeOrderId,
    created_at: row.createdAt.toISOString(),
    filled_at: iso(row.filledAt),
    receive_to_fill_ms: row.receiveToFillMs,
  };
}

export function presentSignal(
  row: WebhookSignalRow,
  configName: string,
  executions: readonly WebhookExecutionRow[],
): WebhookSignal {
  const received = row.receivedAt.getTime();
  let previous = received;
  const steps = row.steps.map((step) => {
    const at = Date.parse(step.at);
    const entry = {
      step: step.step,
      at: step.at,
      latency_ms: Math.max(0, Math.round(at - previous)),
      since_received_ms: Math.max(0, Math.round(at - received)),
      detail: step.detail,
    };
    previous = at;
    return entry;
  });
  return {
    id: row.id,
    config_id: row.configId,
    config_name: configName,
    status: row.status,
    reason: row.reason,
    message: row.message,
    error_kind: (row.errorKind as WebhookSignal['error_kind']) ?? null,
    action: row.action,
    symbol: row.symbol,
    amount: money(row.amount),
    price: money(row.price),
    external_id: row.externalId,
    signal_time: iso(row.signalTime),
    source_ip: row.sourceIp,
    raw_body: row.rawBody,
    raw_body_truncated: row.rawBodyTruncated,
    received_at: row.receivedAt.toISOString(),
    total_latency_ms: row.totalLatencyMs,
    steps,
    executions: executions.map((e) => presentExecution(e, configName)),
  };
}

export const presentAlert = (alert: ParsedAlert) => ({
  action: alert.action,
  symbol: alert.symbol,
  amount: alert.amount,
  price: alert.price,
  external_id: alert.externalId,
  signal_time: iso(alert.signalTime),
});
