import {
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_BODY_MAX_BYTES,
  WEBHOOK_FAILURE_KINDS,
  WEBHOOK_IGNORE_REASONS,
  WEBHOOK_REFUSE_REASONS,
  WEBHOOK_SIGNAL_ID_MAX_LENGTH,
  type WebhookExecutionStatus,
  type WebhookFailureKind,
  type WebhookIgnoreReason,
  type WebhookLogLevel,
  type WebhookRefuseReason,
  type WebhookSignalStatus,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';

// Pure helpers of the webhook trading screens: colours, figures and reasons said in the
// reader's language from the server's codes.

export const SIGNAL_STATUS_COLORS: Record<WebhookSignalStatus, string> = {
  received: 'processing',
  validated: 'processing',
  intent: 'processing',
  placed: 'blue',
  filled: 'success',
  refused: 'error',
  failed: 'error',
  ignored: 'default',
};

export const EXECUTION_STATUS_COLORS: Record<WebhookExecutionStatus, string> = {
  pending: 'processing',
  placed: 'blue',
  filled: 'success',
  failed: 'error',
};

export const LOG_LEVEL_COLORS: Record<WebhookLogLevel, string> = {
  info: 'default',
  warning: 'warning',
  error: 'error',
};

/** A latency in ms: under a second as ms, else seconds with one decimal; '—' when unknown. */
export function formatLatency(t: TFunction, ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return t('webhooks.ms', { value: Math.round(ms) });
  return t('webhooks.seconds', { value: (ms / 1000).toFixed(1) });
}

const REASONS = new Set<string>([...WEBHOOK_REFUSE_REASONS, ...WEBHOOK_IGNORE_REASONS]);
const FAILURE_KINDS = new Set<string>(WEBHOOK_FAILURE_KINDS);

/** Why a signal was refused or ignored, in the reader's language; else the server's text. */
export function reasonText(
  t: TFunction,
  reason: string | null | undefined,
  message: string | null | undefined,
): string {
  if (reason && REASONS.has(reason)) {
    return t(`webhooks.reasons.${reason as WebhookRefuseReason | WebhookIgnoreReason}`, {
      max: reason === 'invalid_id' ? WEBHOOK_SIGNAL_ID_MAX_LENGTH : WEBHOOK_BODY_MAX_BYTES,
      min: WEBHOOK_AMOUNT_MIN,
    });
  }
  return message ?? '';
}

/** An execution failure by its kind, in the reader's language; else the server's text. */
export function failureText(
  t: TFunction,
  kind: string | null | undefined,
  message: string | null | undefined,
): string {
  if (kind && FAILURE_KINDS.has(kind))
    return t(`webhooks.failureKinds.${kind as WebhookFailureKind}`);
  return message ?? '';
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]+$/i;

/** An IPv4 address, or something shaped like IPv6 (the server checks it fully). */
export function looksLikeIp(text: string): boolean {
  const value = text.trim();
  if (IPV4.test(value)) return true;
  return value.includes(':') && value.length <= 45 && IPV6.test(value);
}

/** An alert to try in the test box: the configuration's symbol (or BTC's), a fresh id and time. */
export function sampleAlert(symbol: string | null, now: Date): string {
  return JSON.stringify(
    {
      action: 'buy',
      symbol: symbol ?? 'BINANCE:BTCUSDT.P',
      id: `test-${now.getTime()}`,
      timestamp: now.toISOString(),
    },
    null,
    2,
  );
}
