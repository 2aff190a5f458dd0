import type { Notification } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { formatAmount, formatPrice } from '../../shared/format/money';

// A notification's words in the reader's language, from its kind and parameters (the server
// stores no sentence).

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A fill's price and amount with the dashboard's decimals (§9), not every digit of the feed. */
const price = (value: unknown, locale: string) =>
  value === null || value === undefined || value === '' ? '' : formatPrice(Number(value), locale);
const amount = (value: unknown, locale: string) =>
  value === null || value === undefined || value === '' ? '' : formatAmount(Number(value), locale);

/** A known word (side, state, status…) in the reader's language, else the value itself. */
function word(t: TFunction, value: unknown): string {
  const key = text(value);
  if (!key) return '';
  return t(`notifications.words.${key}` as never, { defaultValue: key }) as string;
}

export function notificationText(t: TFunction, notification: Notification, locale: string): string {
  const p = notification.params;
  switch (notification.kind) {
    case 'order_filled':
      return t('notifications.texts.order_filled', {
        symbol: text(p.symbol),
        side: word(t, p.side),
        amount: amount(p.amount, locale),
        price: price(p.price, locale),
      });
    case 'protective_triggered':
      return t('notifications.texts.protective_triggered', {
        symbol: text(p.symbol),
        trigger: word(t, p.trigger),
        amount: amount(p.amount, locale),
        price: price(p.price, locale),
      });
    case 'bot_status':
      return p.status === 'error'
        ? t('notifications.texts.bot_status_error', {
            bot_id: text(p.bot_id),
            error: text(p.error),
          })
        : t('notifications.texts.bot_status_stopped', { bot_id: text(p.bot_id) });
    case 'copy_status':
      return t('notifications.texts.copy_status', {
        status: word(t, p.status),
        reason: p.reason ? word(t, `copy_reason_${text(p.reason)}`) : '',
      });
    case 'webhook_signal':
      return t(
        p.status === 'refused'
          ? 'notifications.texts.webhook_signal_refused'
          : 'notifications.texts.webhook_signal_failed',
        {
          config_name: text(p.config_name),
          signal_id: text(p.signal_id),
          reason: text(p.reason),
        },
      );
    case 'risk_state':
      return t('notifications.texts.risk_state', {
        account_id: text(p.account_id),
        state: word(t, p.state),
        reason: p.reason ? word(t, `reason_${text(p.reason)}`) : '',
      });
    case 'wallet_status':
      return t('notifications.texts.wallet_status', {
        kind: word(t, p.kind),
        amount: text(p.amount),
        status: word(t, p.status),
      });
    case 'announcement':
      return t('notifications.texts.announcement', { title: text(p.title) });
  }
}

/** YYYY-MM-DD HH:mm in UTC+8 (the product's display time). */
export function formatNotificationTime(iso: string): string {
  const date = new Date(Date.parse(iso) + 8 * 3_600_000);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace('T', ' ');
}
