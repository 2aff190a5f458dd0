import {
  WEBHOOK_FAILURE_KINDS,
  type WebhookExecutionAction,
  type WebhookFailureKind,
  type WebhookIgnoreReason,
} from '@quantsquare/contracts';
import type { Decimal } from 'decimal.js';
import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import { ExecutionError, type OrderOwner } from '../../execution/execution.types.js';
import type { ConfigWithAccount, WebhooksRepository } from './webhooks.repository.js';

// The pure pieces of a webhook signal's run: its owner and idempotency key at the execution core,
// the plan a valid signal makes from the configuration's position, the failure kinds the trail
// names, and the trail's writer type.

export const ownerOf = (configId: number): OrderOwner => ({ kind: 'webhook', id: configId });
/** The signal's one idempotency key: every run of the signal finds its order by it. */
export const intentKeyOf = (signalId: number): string => `signal:${signalId}`;
/** The signal of an intent key (`signal:<id>`), or null for another key. */
export function signalIdOf(key: string): number | null {
  const match = /^signal:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** What a valid signal does given the configuration's position (pure). */
export type SignalPlan =
  | { readonly kind: 'ignore'; readonly reason: WebhookIgnoreReason }
  | {
      readonly kind: 'close';
      readonly action: WebhookExecutionAction;
      readonly side: 'buy' | 'sell';
      readonly quantity: Decimal;
    }
  | {
      readonly kind: 'open';
      readonly action: WebhookExecutionAction;
      readonly side: 'buy' | 'sell';
      /** true: add to the position (pyramiding); false: trade to the target (reversing first). */
      readonly adding: boolean;
      readonly direction: 1 | -1;
    };

export function planSignal(
  action: string,
  position: Decimal,
  allowPyramiding: boolean,
): SignalPlan {
  const long = position.gt(0);
  const short = position.lt(0);
  const closeOf = (dir: 'long' | 'short'): SignalPlan => ({
    kind: 'close',
    action: dir === 'long' ? 'close_long' : 'close_short',
    side: dir === 'long' ? 'sell' : 'buy',
    quantity: position.abs(),
  });
  switch (action) {
    case 'buy':
      if (long && !allowPyramiding) return { kind: 'ignore', reason: 'already_long' };
      return {
        kind: 'open',
        action: long ? 'add_long' : short ? 'reverse_to_long' : 'open_long',
        side: 'buy',
        adding: long,
        direction: 1,
      };
    case 'sell':
      if (short && !allowPyramiding) return { kind: 'ignore', reason: 'already_short' };
      return {
        kind: 'open',
        action: short ? 'add_short' : long ? 'reverse_to_short' : 'open_short',
        side: 'sell',
        adding: short,
        direction: -1,
      };
    case 'close_long':
      return long ? closeOf('long') : { kind: 'ignore', reason: 'no_position' };
    case 'close_short':
      return short ? closeOf('short') : { kind: 'ignore', reason: 'no_position' };
    default:
      return long
        ? closeOf('long')
        : short
          ? closeOf('short')
          : { kind: 'ignore', reason: 'no_position' };
  }
}

/** An exchange failure's kind, as the trail names it. */
export function failureKindOf(error: unknown): WebhookFailureKind {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause; depth++) {
    if (cause instanceof ExchangeAdapterError) {
      return (WEBHOOK_FAILURE_KINDS as readonly string[]).includes(cause.kind)
        ? (cause.kind as WebhookFailureKind)
        : 'invalid_order';
    }
    if (cause instanceof ExecutionError && cause.kind === 'unprotected') return 'unprotected';
    if (cause instanceof ExecutionError && cause.kind === 'unknown_outcome')
      return 'unknown_outcome';
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  if (error instanceof ExecutionError) return 'invalid_order';
  return 'internal';
}

export type TrailLog = (entry: {
  config: ConfigWithAccount['config'] | null;
  signalId: number | null;
  level: 'info' | 'warning' | 'error';
  event: Parameters<WebhooksRepository['insertLog']>[0]['event'];
  message: string;
  sourceIp?: string | null;
  /** The owner when `config` is gone (deleted) or unknown. */
  userId?: number | null;
}) => Promise<void>;
