import { clientOrderIdOf } from '../../execution/client-order-id.js';

// A bot's idempotency keys: (candle, action). The core derives the client order id from
// (bot, key) — `qs{botId}c{candleOpenSeconds}{code}{suffix}`, the ids bots have always used —
// so a restart that decides the same action on the same candle finds the order it may already
// have sent instead of sending a second one.

export type BotOrderAction =
  | 'open_long'
  | 'open_short'
  | 'close_long'
  | 'close_short'
  | 'stop_loss'
  | 'take_profit';

/**
 * Two letters per action; `m` marks the close a user's stop makes, `t` a trailing stop's (its
 * close at market, and the base of its moved stop orders), `p` a protective order's try.
 */
const ACTION_CODES: Readonly<Record<BotOrderAction, string>> = {
  open_long: 'ol',
  open_short: 'os',
  close_long: 'cl',
  close_short: 'cs',
  stop_loss: 'sl',
  take_profit: 'tp',
};

/** `c{candleOpenSeconds}{code}{suffix}`; without an action, the base of protective keys. */
export function botOrderKey(candleOpenMs: number, action?: BotOrderAction, suffix = ''): string {
  return `c${Math.floor(candleOpenMs / 1000)}${action ? ACTION_CODES[action] : ''}${suffix}`;
}

/** The client order id of (bot, candle, action): alphanumeric, ≤ 32 characters. */
export function botClientOrderId(
  botId: number,
  candleOpenMs: number,
  action: BotOrderAction,
  suffix = '',
): string {
  return clientOrderIdOf({ kind: 'bot', id: botId }, botOrderKey(candleOpenMs, action, suffix));
}

/**
 * Why a bot's closing order closed: its protective kind, a user's stop (`m`), a trailing stop
 * the price had passed (`t`), or a signal.
 */
export function closeReasonOf(
  action: string,
  key: string,
): 'signal' | 'stop_loss' | 'take_profit' | 'manual' {
  if (action === 'stop_loss' || action === 'take_profit') return action;
  if (key.endsWith('t')) return 'stop_loss';
  return key.endsWith('m') ? 'manual' : 'signal';
}
