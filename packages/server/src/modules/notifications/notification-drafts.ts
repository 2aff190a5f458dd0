import type { NotificationKind, NotificationParams } from '@quantsquare/contracts';
import type { BusEvent, EventType } from '../../events/index.js';

// What each outbox event tells whom: the kind and parameters of its notification (the
// parameters are plain values; the reader's words are built from them).

export interface EventNotice {
  readonly userId: number;
  readonly kind: NotificationKind;
  readonly params: NotificationParams;
}

/** The outbox events the notifications module reads. */
export const NOTIFIED_EVENT_TYPES = [
  'OrderFilled',
  'RiskStateChanged',
  'BotStatusChanged',
  'WebhookSignalFailed',
  'CopyStatusChanged',
  'WalletRequestChanged',
  'AnnouncementPublished',
] as const satisfies readonly EventType[];

/** An announcement's notification (every user gets it). */
export function announcementParams(event: BusEvent<'AnnouncementPublished'>): NotificationParams {
  return {
    announcement_id: event.payload.announcementId,
    title: event.payload.title,
    type: event.payload.type,
  };
}

/** Fewer digits than a float prints, more than any market's step. */
const round = (value: number, digits = 8) => Number(value.toFixed(digits));

/** The notice of one event for one user, or null (an event no one is told about). */
export function noticeOf(event: BusEvent): EventNotice | null {
  switch (event.type) {
    case 'OrderFilled': {
      const p = (event as BusEvent<'OrderFilled'>).payload;
      const common = {
        symbol: p.symbol,
        side: p.side,
        amount: round(p.amount),
        price: round(p.price),
        owner_kind: p.owner.kind,
        account_id: p.accountId,
      };
      return p.trigger
        ? {
            userId: p.userId,
            kind: 'protective_triggered',
            params: { ...common, trigger: p.trigger },
          }
        : { userId: p.userId, kind: 'order_filled', params: common };
    }
    case 'RiskStateChanged': {
      const p = (event as BusEvent<'RiskStateChanged'>).payload;
      return {
        userId: p.userId,
        kind: 'risk_state',
        params: {
          account_id: p.accountId,
          state: p.state,
          previous_state: p.previousState,
          reason: p.reason,
        },
      };
    }
    case 'BotStatusChanged': {
      const p = (event as BusEvent<'BotStatusChanged'>).payload;
      if (p.status !== 'stopped' && p.status !== 'error') return null;
      return {
        userId: p.userId,
        kind: 'bot_status',
        params: { bot_id: p.botId, symbol: p.symbol ?? null, status: p.status, error: p.error },
      };
    }
    case 'WebhookSignalFailed': {
      const p = (event as BusEvent<'WebhookSignalFailed'>).payload;
      return {
        userId: p.userId,
        kind: 'webhook_signal',
        params: {
          config_id: p.configId,
          config_name: p.configName,
          signal_id: p.signalId,
          status: p.status,
          reason: p.reason,
        },
      };
    }
    case 'CopyStatusChanged': {
      const p = (event as BusEvent<'CopyStatusChanged'>).payload;
      // Resuming is the user's own act or the account coming back: nothing to be told.
      if (p.status === 'resumed') return null;
      return {
        userId: p.userId,
        kind: 'copy_status',
        params: {
          relation_id: p.relationId,
          leader_account_id: p.leaderAccountId,
          status: p.status,
          reason: p.reason,
        },
      };
    }
    case 'WalletRequestChanged': {
      const p = (event as BusEvent<'WalletRequestChanged'>).payload;
      return {
        userId: p.userId,
        kind: 'wallet_status',
        params: {
          transaction_id: p.transactionId,
          kind: p.kind,
          status: p.status,
          amount: p.amount,
        },
      };
    }
    default:
      return null;
  }
}
