import type {
  WebhookExecution,
  WebhookLog,
  WebhookSignal,
  WebhookSignalStep,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { formatDecimal, formatUsdt } from '../../shared/format/money';
import { failureText, reasonText } from './webhook-format';

// The webhook log's lines and the signal trail's steps said in the reader's language, from the
// codes and figures the server answers (never from its technical `message`/`detail` lines).

function orderWords(
  t: TFunction,
  order: Pick<WebhookExecution, 'action' | 'filled_quantity' | 'quantity' | 'price'> & {
    leverage: number;
    exchange_order_id: string | null;
  },
  symbol: string,
  locale: string,
) {
  return {
    orderAction: t(`webhooks.executionActions.${order.action}`),
    quantity: formatDecimal(
      Number(order.filled_quantity) > 0 ? order.filled_quantity : order.quantity,
      locale,
    ),
    symbol,
    price: formatUsdt(order.price, locale),
    leverage: order.leverage,
    orderId: order.exchange_order_id ?? '—',
  };
}

/** One log line in the reader's language; the server's line only for what it cannot say. */
export function logText(t: TFunction, log: WebhookLog, locale: string): string {
  const signal = log.signal;
  const id = log.signal_id ?? '—';
  const name = log.config_name ?? '—';
  switch (log.event) {
    case 'config_created':
    case 'config_updated':
    case 'config_deleted':
    case 'config_enabled':
    case 'config_disabled':
    case 'key_regenerated':
      return t(`webhooks.logs.text.${log.event}`, { name });
    case 'unknown_key':
      return t('webhooks.logs.text.unknown_key');
    case 'signal_duplicate':
      return t('webhooks.logs.text.signal_duplicate', { id });
    default:
      break;
  }
  if (!signal) return log.message;
  const symbol = signal.symbol ?? '—';
  switch (log.event) {
    case 'signal_received':
      return t('webhooks.logs.text.signal_received', {
        id,
        action: signal.action ? t(`webhooks.actions.${signal.action}`) : '—',
        symbol,
        amount: formatUsdt(signal.amount, locale),
      });
    case 'signal_refused':
    case 'signal_ignored':
      return t(`webhooks.logs.text.${log.event}`, {
        id,
        reason: reasonText(t, signal.reason, log.message),
      });
    case 'order_failed':
      return t('webhooks.logs.text.order_failed', {
        id,
        failure: failureText(t, signal.error_kind, log.message),
      });
    case 'order_placed':
    case 'order_filled':
      if (!signal.order) return log.message;
      return t(`webhooks.logs.text.${log.event}`, {
        id,
        ...orderWords(t, signal.order, symbol, locale),
      });
    default:
      return log.message;
  }
}

/** A trail step's line, from the signal and its last order; null when the step has none. */
export function stepText(
  t: TFunction,
  step: WebhookSignalStep,
  signal: WebhookSignal,
  locale: string,
): string | null {
  const symbol = signal.symbol ?? '—';
  const order = signal.executions[signal.executions.length - 1];
  switch (step.step) {
    case 'validated':
      return t('webhooks.trail.stepText.validated', {
        action: signal.action ? t(`webhooks.actions.${signal.action}`) : '—',
        symbol,
        amount: formatUsdt(signal.amount, locale),
      });
    case 'intent':
    case 'placed':
    case 'filled':
      return order
        ? t(`webhooks.trail.stepText.${step.step}`, orderWords(t, order, order.symbol, locale))
        : null;
    default:
      // Received, refused, failed and ignored are said elsewhere (source address, reason).
      return null;
  }
}
