import {
  type ExchangeErrorKindCode,
  EXCHANGE_ERROR_MESSAGES as MESSAGES,
} from '@quantsquare/contracts';
import { ExchangeAdapterError, type ExchangeErrorKind } from '../../exchange/exchange-client.js';

/** Each adapter error kind as the user reads it (one text per kind, checked here). */
export const EXCHANGE_ERROR_MESSAGES: Readonly<Record<ExchangeErrorKind, string>> = MESSAGES;
const UNEXPECTED_MESSAGE = 'Exchange request failed';
const DETAIL_MAX_LENGTH = 200;

/** The adapter error behind a failure, following `cause` (the bot engine wraps them). */
function adapterError(error: unknown): ExchangeAdapterError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof ExchangeAdapterError) return cause;
    cause = cause.cause;
  }
  return undefined;
}

/** An adapter error as one line for the user: the kind's message and the adapter's detail. */
export function exchangeErrorMessage(error: unknown): string {
  const adapter = adapterError(error);
  if (!adapter) return UNEXPECTED_MESSAGE;
  const base = EXCHANGE_ERROR_MESSAGES[adapter.kind];
  const detail = adapter.message.trim().slice(0, DETAIL_MAX_LENGTH);
  return detail && detail !== base ? `${base}: ${detail}` : base;
}

/**
 * The kind of a failure, for the web's own text. An error that is not the adapter's (a defect,
 * not the exchange's answer) reads as `unavailable`: try again later.
 */
export function exchangeErrorKind(error: unknown): ExchangeErrorKindCode {
  return adapterError(error)?.kind ?? 'unavailable';
}

/** Runs an exchange call, failing with `unavailable` after `timeoutMs`. */
export async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ExchangeAdapterError('unavailable', `No answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
