import {
  WEBHOOK_ACTIONS,
  WEBHOOK_AMOUNT_MAX,
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_BODY_MAX_BYTES,
  WEBHOOK_SIGNAL_ID_MAX_LENGTH,
  type WebhookAction,
  type WebhookRefuseReason,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';

// The alert as TradingView posts it: parsed leniently (JSON, or text containing one JSON object),
// checked field by field, normalised (symbol BTC/USDT:USDT, amount a decimal, time a Date).
// Pure: the receiver, the dry run and the tests share it.

export interface ParsedAlert {
  readonly action: WebhookAction | null;
  readonly symbol: string | null;
  readonly amount: string | null;
  readonly price: string | null;
  readonly externalId: string | null;
  readonly signalTime: Date | null;
}

export const EMPTY_ALERT: ParsedAlert = {
  action: null,
  symbol: null,
  amount: null,
  price: null,
  externalId: null,
  signalTime: null,
};

export type AlertCheck =
  | {
      readonly ok: true;
      readonly alert: ParsedAlert & { action: WebhookAction; symbol: string; amount: string };
    }
  | { readonly ok: false; readonly reason: WebhookRefuseReason; readonly alert: ParsedAlert };

/** What the configuration decides about an alert. */
export interface AlertRules {
  readonly symbol: string | null;
  readonly defaultAmount: string;
  readonly maxAmount: string | null;
  readonly allowedActions: readonly WebhookAction[];
  readonly maxSignalAge: number;
}

/** Text PostgreSQL can store (text and jsonb): no NUL, no lone surrogate. */
export function storable(text: string): string {
  return text
    .replaceAll('\u0000', '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** The body as an object, or why not. */
export function parseAlertBody(
  raw: Buffer | string | undefined,
):
  | { ok: true; body: Record<string, unknown>; text: string }
  | { ok: false; reason: WebhookRefuseReason; text: string } {
  const bytes =
    raw === undefined ? 0 : typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  const text = raw === undefined ? '' : typeof raw === 'string' ? raw : raw.toString('utf8');
  if (bytes > WEBHOOK_BODY_MAX_BYTES) return { ok: false, reason: 'payload_too_large', text };
  const attempt = (candidate: string): unknown => {
    try {
      return JSON.parse(candidate);
    } catch {
      return undefined;
    }
  };
  let parsed = attempt(text);
  if (parsed === undefined) {
    // Text containing JSON (a message line around it): the outermost braces.
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start >= 0 && end > start) parsed = attempt(text.slice(start, end + 1));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, reason: 'invalid_json', text };
  }
  return { ok: true, body: parsed as Record<string, unknown>, text };
}

const field = (body: Record<string, unknown>, name: string): unknown =>
  Object.hasOwn(body, name) ? body[name] : undefined;

/**
 * BTC/USDT:USDT, BTC/USDT, BTCUSDT, BTCUSDT.P, BTCUSDTPERP, BINANCE:BTCUSDT.P → BTC/USDT:USDT;
 * null when the text is no symbol.
 */
export function normaliseSymbol(input: string): string | null {
  let text = input.trim().toUpperCase();
  if (text.length === 0 || text.length > 40) return null;
  // An exchange prefix (BINANCE:, OKX:): a colon before any slash.
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) text = text.slice(colon + 1);
  if (text.includes('/')) {
    const match = /^([A-Z0-9]{1,20})\/([A-Z]{2,10})(?::([A-Z]{2,10}))?$/.exec(text);
    if (!match) return null;
    const [, base, quote, settle] = match;
    return `${base}/${quote}:${settle ?? quote}`;
  }
  text = text.replace(/(\.P|PERP|-SWAP|_PERP)$/, '').replace(/[-_]/g, '');
  const match = /^([A-Z0-9]{1,20}?)(USDT|USDC|BUSD|USD)$/.exec(text);
  if (!match) return null;
  const [, base, quote] = match;
  return `${base}/${quote}:${quote}`;
}

/** ISO text, or epoch seconds / milliseconds (number or digits); null when none of these. */
export function parseSignalTime(value: unknown): Date | null {
  const fromNumber = (n: number) => {
    if (!Number.isFinite(n) || n <= 0) return null;
    const ms = n > 1e11 ? n : n * 1000;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? null : date;
  };
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return fromNumber(Number(text));
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const decimalOf = (value: unknown): Decimal | null => {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) return null;
  try {
    const d = new Decimal(text);
    // Beyond any amount or price (and what the columns hold): not a number we take.
    return d.isFinite() && d.gt(0) && d.lt(1e15) ? d.toDecimalPlaces(10, Decimal.ROUND_DOWN) : null;
  } catch {
    return null;
  }
};

/** A TradingView clock may run a little ahead: this much is not "from the future". */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** Checks a parsed body against the configuration's rules at `now`. */
export function checkAlert(
  body: Record<string, unknown>,
  rules: AlertRules,
  now: Date,
): AlertCheck {
  let alert: ParsedAlert = EMPTY_ALERT;
  const refuse = (reason: WebhookRefuseReason): AlertCheck => ({ ok: false, reason, alert });

  const rawAction = field(body, 'action');
  if (rawAction === undefined || rawAction === null || rawAction === '')
    return refuse('missing_action');
  const actionText = typeof rawAction === 'string' ? rawAction.trim().toLowerCase() : '';
  const action = (WEBHOOK_ACTIONS as readonly string[]).includes(actionText)
    ? (actionText as WebhookAction)
    : null;
  if (!action) return refuse('unknown_action');
  alert = { ...alert, action };

  const rawId = field(body, 'id');
  if (rawId !== undefined && rawId !== null && rawId !== '') {
    const id = typeof rawId === 'number' && Number.isFinite(rawId) ? String(rawId) : rawId;
    if (typeof id !== 'string' || id.length > WEBHOOK_SIGNAL_ID_MAX_LENGTH)
      return refuse('invalid_id');
    alert = { ...alert, externalId: storable(id) };
  }

  const rawSymbol = field(body, 'symbol') ?? field(body, 'ticker');
  let symbol: string | null = null;
  if (rawSymbol !== undefined && rawSymbol !== null && rawSymbol !== '') {
    symbol = typeof rawSymbol === 'string' ? normaliseSymbol(rawSymbol) : null;
    if (!symbol) return refuse('invalid_symbol');
    alert = { ...alert, symbol };
    if (rules.symbol && symbol !== rules.symbol) return refuse('symbol_mismatch');
  } else if (rules.symbol) {
    symbol = rules.symbol;
    alert = { ...alert, symbol };
  } else {
    return refuse('symbol_required');
  }

  const rawPrice = field(body, 'price');
  if (rawPrice !== undefined && rawPrice !== null && rawPrice !== '') {
    const price = decimalOf(rawPrice);
    if (!price) return refuse('invalid_price');
    alert = { ...alert, price: price.toString() };
  }

  const rawAmount = field(body, 'amount');
  let amount = new Decimal(rules.defaultAmount);
  if (rawAmount !== undefined && rawAmount !== null && rawAmount !== '') {
    const given = decimalOf(rawAmount);
    if (!given) return refuse('invalid_amount');
    amount = given.toDecimalPlaces(8, Decimal.ROUND_DOWN);
    alert = { ...alert, amount: amount.toString() };
    if (amount.lt(WEBHOOK_AMOUNT_MIN)) return refuse('amount_too_small');
  }
  alert = { ...alert, amount: amount.toString() };
  if (amount.gt(rules.maxAmount ?? WEBHOOK_AMOUNT_MAX)) return refuse('amount_too_large');

  const rawTime = field(body, 'timestamp') ?? field(body, 'time');
  if (rawTime !== undefined && rawTime !== null && rawTime !== '') {
    const time = parseSignalTime(rawTime);
    if (!time) return refuse('invalid_timestamp');
    alert = { ...alert, signalTime: time };
    const age = now.getTime() - time.getTime();
    if (age < -FUTURE_SKEW_MS) return refuse('invalid_timestamp');
    if (age > rules.maxSignalAge * 1000) return refuse('stale');
  }

  if (!rules.allowedActions.includes(action)) return refuse('action_not_allowed');
  return { ok: true, alert: { ...alert, action, symbol, amount: amount.toString() } };
}
