import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import { ExecutionError } from '../../execution/execution.types.js';

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

/** The risk gate's refusal behind a failure (the bot stops with it), following `cause`. */
export function riskRefusalOf(error: unknown): ExecutionError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (
      cause instanceof ExecutionError &&
      (cause.kind === 'risk_halted' || cause.kind === 'risk_limit')
    )
      return cause;
    cause = cause.cause;
  }
  return undefined;
}
