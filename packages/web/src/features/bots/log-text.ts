import { OPERATION_LOG_EVENTS, type OperationLogEntry } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';

// An operation-log entry in the reader's language. The server writes an English `message` and,
// for every entry it knows how to describe, an `event` with the facts in `details`; an entry
// whose event or facts the web does not know is shown with the server's message.

type Details = OperationLogEntry['details'];

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const number = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** A fact that names one of a known set of values (a side, a reason…), translated. */
function named(
  t: TFunction,
  group: 'signals' | 'sides' | 'reasons' | 'orderStatuses' | 'errorKinds',
  value: unknown,
): string | undefined {
  const key = text(value);
  if (!key) return undefined;
  const path = `bots.logs.${group}.${key}`;
  return t(path as never, { defaultValue: key }) as string;
}

/** The translated text of each event's placeholders, or undefined when a fact is missing. */
function params(t: TFunction, entry: OperationLogEntry): Record<string, string> | undefined {
  const d: Details = entry.details;
  const symbol = entry.bot_symbol ?? undefined;
  // The position an entry is about: its side, size and asset.
  const held = () => ({
    side: named(t, 'sides', d.side),
    amount: number(d.amount),
    asset: text(d.asset),
  });
  let values: Record<string, string | undefined>;
  switch (entry.event) {
    case 'bot_created':
      values = { symbol, timeframe: text(d.timeframe), trade_amount: number(d.trade_amount) };
      break;
    case 'bot_started':
    case 'bot_stopped':
    case 'bot_deleted':
      values = { symbol };
      break;
    case 'bot_failed': {
      const kind = named(t, 'errorKinds', d.error_kind);
      const reason =
        kind && kind !== d.error_kind
          ? (t('bots.logs.failureDetail', { kind, detail: entry.message }) as string)
          : entry.message;
      values = { reason };
      break;
    }
    case 'api_created':
    case 'api_updated':
    case 'api_deleted':
      values = { name: text(d.name) };
      break;
    case 'signal_open':
      values = { ...held(), signal: named(t, 'signals', d.signal) };
      break;
    case 'position_closing':
      values = { ...held(), reason: named(t, 'reasons', d.reason) };
      break;
    case 'trade_opened':
      values = { ...held(), price: number(d.price) };
      break;
    case 'trade_closed':
      values = { ...held(), price: number(d.price), reason: named(t, 'reasons', d.reason) };
      break;
    case 'signal_skipped': {
      const limit = d.limit === 'amount' || d.limit === 'notional' ? d.limit : undefined;
      const value = number(d.value);
      const minimum = number(d.minimum);
      values = {
        signal: named(t, 'signals', d.signal),
        limit:
          limit && value && minimum
            ? (t(`bots.logs.limits.${limit}`, { value, minimum }) as string)
            : undefined,
      };
      break;
    }
    case 'order_never_sent':
      values = { client_order_id: text(d.client_order_id) };
      break;
    case 'order_reconciled':
      values = {
        client_order_id: text(d.client_order_id),
        status: named(t, 'orderStatuses', d.status),
      };
      break;
    case 'position_mismatch':
      values = { bot_amount: number(d.bot_amount), exchange_amount: number(d.exchange_amount) };
      break;
    case 'resume_retry':
      values = { attempt: number(d.attempt), delay_seconds: number(d.delay_seconds) };
      break;
    default:
      return undefined;
  }
  const complete: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) return undefined;
    complete[key] = value;
  }
  return complete;
}

/** What the log table shows for an entry. */
export function describeLogEntry(t: TFunction, entry: OperationLogEntry): string {
  if (!entry.event || !OPERATION_LOG_EVENTS.includes(entry.event)) return entry.message;
  const values = params(t, entry);
  if (!values) return entry.message;
  // The key is built from the event: the type of each event's placeholders is checked by the
  // web's locale tests (same placeholders in both languages) and by the tests of this module.
  return t(`bots.logs.events.${entry.event}` as never, values) as string;
}
