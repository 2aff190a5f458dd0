import { OPERATION_LOG_EVENTS, type OperationLogEntry } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
// Copy relations write to the same log: their miss reasons are copy trading's texts.
import '../../i18n/copy-texts';
import { formatAmount, formatMoney, formatPercent, formatPrice } from '../../shared/format/money';

// An operation-log entry in the reader's language. The server writes an English `message` and,
// for every entry it knows how to describe, an `event` with the facts in `details`; an entry
// whose event or facts the web does not know is shown with the server's message.

type Details = OperationLogEntry['details'];

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A figure as a number: the server writes some as numbers, decimal amounts as text. */
const figure = (value: unknown): number | undefined => {
  if (finite(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** The figures of an entry, shown by the spec's rules (document 1 §9). */
interface Figures {
  /** Quantities (base asset): by size, 2, 4 or 8 decimals. */
  amount: (value: unknown) => string | undefined;
  /** Prices: 2 decimals. */
  price: (value: unknown) => string | undefined;
  /** USDT money: 2 decimals. */
  money: (value: unknown) => string | undefined;
  /** Counts and seconds: whole numbers. */
  count: (value: unknown) => string | undefined;
  /** A value already in percent: 2 decimals and a % sign. */
  percent: (value: unknown) => string | undefined;
}

const map = (n: number | undefined, show: (n: number) => string) =>
  n === undefined ? undefined : show(n);

function figures(locale: string): Figures {
  return {
    amount: (v) => map(figure(v), (n) => formatAmount(n, locale)),
    price: (v) => map(figure(v), (n) => formatPrice(n, locale)),
    money: (v) => map(figure(v), (n) => formatMoney(n, locale)),
    count: (v) => map(figure(v), (n) => String(Math.round(n))),
    percent: (v) => map(figure(v), (n) => formatPercent(n, locale)),
  };
}

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

/** Why a copy stopped: the limit it stopped at, or who ended it. */
function copyStopWhy(
  t: TFunction,
  d: Details,
  { money, count }: Pick<Figures, 'money' | 'count'>,
): string | undefined {
  // Why: the limit it stopped at (USDT for the max loss, a percent for the leader's drift —
  // a reverse copy's leader drifts up from its low), or who ended it.
  if (d.reason === 'max_loss' || d.reason === 'leader_drawdown') {
    const value = d.reason === 'max_loss' ? money(d.limit) : count(d.limit);
    const reason =
      d.reason === 'max_loss'
        ? 'max_loss'
        : d.copy_mode === 'reverse'
          ? 'leader_rise'
          : 'leader_drawdown';
    return value === undefined
      ? undefined
      : (t(`bots.logs.copyStops.${reason}`, { value }) as string);
  } else if (
    d.reason === 'leader_gone' &&
    (d.leader_change === 'private' || d.leader_change === 'copy_off')
  ) {
    // The leader withdrew the strategy (made it private, or turned copying off).
    return t(`copy.logLeaderChanges.${d.leader_change}`) as string;
  } else if (d.reason === 'user' || d.reason === 'leader_gone' || d.reason === 'account_deleted') {
    return t(`bots.logs.copyStops.${d.reason}`) as string;
  } else {
    return undefined;
  }
}

/** A risk state change's state and reason, translated. */
function riskStateValues(t: TFunction, d: Details): Record<string, string | undefined> {
  const state = d.state;
  const reason = d.reason ?? 'none';
  return {
    state:
      state === 'active' || state === 'reducing' || state === 'halted'
        ? (t(`bots.logs.riskStates.${state}`) as string)
        : undefined,
    reason:
      reason === 'user' ||
      reason === 'daily_loss' ||
      reason === 'trailing_drawdown' ||
      reason === 'none'
        ? (t(`bots.logs.riskReasons.${reason}`) as string)
        : undefined,
  };
}

/** A skipped signal and the limit it did not reach. */
function skippedValues(
  t: TFunction,
  d: Details,
  { amount, money }: Pick<Figures, 'amount' | 'money'>,
): Record<string, string | undefined> {
  const limit = d.limit === 'amount' || d.limit === 'notional' ? d.limit : undefined;
  // A quantity limit is an amount; a notional one is USDT.
  const figure = limit === 'notional' ? money : amount;
  const value = figure(d.value);
  const minimum = figure(d.minimum);
  return {
    signal: named(t, 'signals', d.signal),
    limit:
      limit && value && minimum
        ? (t(`bots.logs.limits.${limit}`, { value, minimum }) as string)
        : undefined,
  };
}

/** A copy's amount and mode (created) or amount and loss limit (updated). */
function copySettingsValues(
  t: TFunction,
  event: 'copy_created' | 'copy_updated',
  d: Details,
  money: Figures['money'],
): Record<string, string | undefined> {
  if (event === 'copy_created') {
    return {
      amount: money(d.copy_amount),
      mode:
        d.copy_mode === 'normal' || d.copy_mode === 'reverse'
          ? (t(`bots.logs.copyModes.${d.copy_mode}`) as string)
          : undefined,
    };
  }
  const limit = money(d.max_loss);
  return {
    amount: money(d.copy_amount),
    max_loss:
      d.max_loss === null
        ? (t('bots.logs.noLimit') as string)
        : limit === undefined
          ? undefined
          : `${limit} USDT`,
  };
}

/** The translated text of each event's placeholders, or undefined when a fact is missing. */
function params(
  t: TFunction,
  entry: OperationLogEntry,
  { amount, price, money, count, percent }: Figures,
): Record<string, string> | undefined {
  const d: Details = entry.details;
  const symbol = entry.bot_symbol ?? undefined;
  // The position an entry is about: its side, size and asset.
  const held = () => ({
    side: named(t, 'sides', d.side),
    amount: amount(d.amount),
    asset: text(d.asset),
  });
  let values: Record<string, string | undefined>;
  switch (entry.event) {
    case 'bot_created':
      values = { symbol, timeframe: text(d.timeframe), trade_amount: money(d.trade_amount) };
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
      values = { ...held(), price: price(d.price) };
      break;
    case 'trade_closed':
      values = { ...held(), price: price(d.price), reason: named(t, 'reasons', d.reason) };
      break;
    case 'signal_skipped':
      values = skippedValues(t, d, { amount, money });
      break;
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
      values = { bot_amount: amount(d.bot_amount), exchange_amount: amount(d.exchange_amount) };
      break;
    case 'webhook_failed': {
      // Kinds the bot log does not name (the execution core's own) show the server's message.
      const kind = named(t, 'errorKinds', d.error_kind);
      values = {
        signal_id: count(d.signal_id),
        reason: kind && kind !== d.error_kind ? kind : undefined,
      };
      break;
    }
    case 'copy_failed': {
      const reason = text(d.reason);
      values = {
        symbol,
        reason: reason
          ? (t(`copy.missReasons.${reason}` as never, { defaultValue: '' }) as string) || undefined
          : undefined,
      };
      break;
    }
    case 'copy_stopped':
      values = { why: copyStopWhy(t, d, { money, count }) };
      break;
    case 'copy_created':
    case 'copy_updated':
      values = copySettingsValues(t, entry.event, d, money);
      break;
    case 'copy_paused':
    case 'copy_resumed':
    case 'copy_deleted':
    case 'risk_updated':
      values = {};
      break;
    case 'risk_state_changed':
      values = riskStateValues(t, d);
      break;
    case 'resume_retry':
      values = { attempt: count(d.attempt), delay_seconds: count(d.delay_seconds) };
      break;
    case 'stop_moved':
      values = {
        side: named(t, 'sides', d.side),
        from: price(d.from),
        to: price(d.to),
        percent: percent(d.trailing_percent),
      };
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

/** What the log shows for an entry, its figures formatted for `locale`. */
export function describeLogEntry(t: TFunction, entry: OperationLogEntry, locale: string): string {
  if (!entry.event || !OPERATION_LOG_EVENTS.includes(entry.event)) return entry.message;
  const values = params(t, entry, figures(locale));
  if (!values) return entry.message;
  // A copy the platform paused for its disabled account, or resumed once it was enabled.
  const d: Details = entry.details;
  if (
    (entry.event === 'copy_paused' && d.reason === 'account_disabled') ||
    (entry.event === 'copy_resumed' && d.reason === 'account_enabled')
  ) {
    return t(`copy.logAccount.${entry.event}`) as string;
  }
  // The key is built from the event: the type of each event's placeholders is checked by the
  // web's locale tests (same placeholders in both languages) and by the tests of this module.
  return t(`bots.logs.events.${entry.event}` as never, values) as string;
}
