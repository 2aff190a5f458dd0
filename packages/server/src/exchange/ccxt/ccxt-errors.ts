import ccxt from 'ccxt';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import { ExchangeAdapterError, type ExchangeErrorKind } from '../exchange-client.js';

// ccxt's error classes translated at the boundary (STYLE 5) into our small set. What the
// caller does with each kind:
//   AuthenticationError, PermissionDenied, AccountSuspended, AccountNotEnabled → invalid_key:
//     tell the user to fix the key; never retried.
//   InsufficientFunds → insufficient_funds: tell the user / mark the bot error; never retried.
//   InvalidOrder (incl. OrderNotFound, DuplicateOrderId), BadSymbol, BadRequest,
//   OperationRejected, ArgumentsRequired, NotSupported → invalid_order: the request is wrong as given; never retried.
//   RateLimitExceeded, DDoSProtection → rate_limited: reads wait (Retry-After when sent) and retry.
//   NetworkError, RequestTimeout, ExchangeNotAvailable, OnMaintenance, BadResponse, InvalidNonce
//     and any other ExchangeError → unavailable: reads retry with backoff, then the caller retries
//     later. For createOrder a network failure is NOT unavailable: see `isAmbiguousSend`.

/** What a failed request might have done. */
export type Operation = 'read' | 'create';

const PREFIX_LIMIT = 300;

export function ccxtClassOf(error: unknown): string {
  return error instanceof ccxt.BaseError ? error.constructor.name : 'Error';
}

/** The exchange's own error codes found in a ccxt message ("okx {\"code\":\"1\",\"data\":…}"). */
export function exchangeErrorCodes(error: unknown): string[] {
  if (!(error instanceof Error)) return [];
  const start = error.message.indexOf('{');
  if (start < 0) return [];
  let body: unknown;
  try {
    body = JSON.parse(error.message.slice(start));
  } catch {
    return [];
  }
  if (typeof body !== 'object' || body === null) return [];
  const codes: string[] = [];
  const record = body as { code?: unknown; data?: unknown };
  if (record.code !== undefined && record.code !== null) codes.push(String(record.code));
  if (Array.isArray(record.data)) {
    for (const item of record.data as unknown[]) {
      if (typeof item === 'object' && item !== null && 'sCode' in item) {
        const sCode = (item as { sCode: unknown }).sCode;
        if (sCode !== undefined && sCode !== '0') codes.push(String(sCode));
      }
    }
  }
  return codes;
}

/** The exchange refused a second order with the same client order id: the first one landed. */
export function isDuplicateClientOrderId(error: unknown, caps: ExchangeCapabilities): boolean {
  if (error instanceof ccxt.DuplicateOrderId) return true;
  if (!(error instanceof ccxt.BaseError)) return false;
  return exchangeErrorCodes(error).some((code) => caps.duplicateClientOrderIdCodes.includes(code));
}

/** The request was refused because our clock is off (nothing happened): re-sync, resend once. */
export function isClockSkew(error: unknown, caps: ExchangeCapabilities): boolean {
  if (error instanceof ccxt.InvalidNonce) return true;
  if (!(error instanceof ccxt.BaseError)) return false;
  return exchangeErrorCodes(error).some((code) => caps.clockSkewCodes.includes(code));
}

export function isOrderNotFound(error: unknown, caps: ExchangeCapabilities): boolean {
  if (error instanceof ccxt.OrderNotFound) return true;
  if (!(error instanceof ccxt.BaseError)) return false;
  return exchangeErrorCodes(error).some((code) => caps.orderNotFoundCodes.includes(code));
}

/**
 * A send whose outcome we cannot know: timeout, connection lost, 5xx, an unreadable answer. The
 * order may exist; createOrder looks it up by client order id instead of resending.
 */
export function isAmbiguousSend(error: unknown): boolean {
  if (!(error instanceof ccxt.BaseError)) return true;
  if (error instanceof ccxt.DDoSProtection || error instanceof ccxt.RateLimitExceeded) return false;
  return (
    error instanceof ccxt.NetworkError ||
    error instanceof ccxt.BadResponse ||
    error instanceof ccxt.OperationFailed
  );
}

/** The kind the capability table pins for the exchange's own error code, if any. */
export function pinnedKindOf(
  error: unknown,
  caps: ExchangeCapabilities,
): ExchangeErrorKind | undefined {
  if (!(error instanceof ccxt.BaseError)) return undefined;
  for (const code of exchangeErrorCodes(error)) {
    const kind = caps.errorCodeKinds[code];
    if (kind) return kind;
  }
  return undefined;
}

export function errorKindOf(error: unknown): ExchangeErrorKind {
  if (error instanceof ccxt.AuthenticationError) return 'invalid_key';
  if (error instanceof ccxt.AccountSuspended) return 'invalid_key';
  if (error instanceof ccxt.InsufficientFunds) return 'insufficient_funds';
  if (
    error instanceof ccxt.InvalidOrder ||
    error instanceof ccxt.BadRequest ||
    error instanceof ccxt.OperationRejected ||
    error instanceof ccxt.ArgumentsRequired ||
    error instanceof ccxt.NotSupported
  ) {
    return 'invalid_order';
  }
  if (error instanceof ccxt.DDoSProtection || error instanceof ccxt.RateLimitExceeded) {
    return 'rate_limited';
  }
  return 'unavailable';
}

/** Removes secrets and request signatures from a message before it leaves the adapter. */
export function redact(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  out = out.replace(/(signature|sign)=[^&\s"]+/gi, '$1=***');
  return out.length > PREFIX_LIMIT ? `${out.slice(0, PREFIX_LIMIT)}…` : out;
}

export interface TranslateContext {
  readonly exchange: string;
  readonly action: string;
  readonly secrets: readonly string[];
  readonly caps: ExchangeCapabilities;
  /** Milliseconds the exchange asked us to wait (Retry-After), when it said. */
  readonly retryAfterMs?: number | null;
}

export function translateCcxtError(
  error: unknown,
  context: TranslateContext,
): ExchangeAdapterError {
  if (error instanceof ExchangeAdapterError) return error;
  const kind = pinnedKindOf(error, context.caps) ?? errorKindOf(error);
  const raw = error instanceof Error ? error.message : String(error);
  const message = redact(
    `${context.exchange} ${context.action}: ${ccxtClassOf(error)}: ${raw}`,
    context.secrets,
  );
  return new ExchangeAdapterError(
    kind,
    message,
    kind === 'rate_limited' ? (context.retryAfterMs ?? null) : null,
  );
}
