import { ExchangeAdapterError } from '../../exchange/exchange-client.js';

/** The exchange error behind a failure, following `cause` (a BotFailure wraps one). */
export function exchangeCause(error: unknown): ExchangeAdapterError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof ExchangeAdapterError) return cause;
    cause = cause.cause;
  }
  return undefined;
}

/** An exchange error's kind goes into the log entry, so the web can say it in any language. */
export function errorFacts(error: unknown): { error_kind?: string } {
  const cause = exchangeCause(error);
  return cause ? { error_kind: cause.kind } : {};
}
