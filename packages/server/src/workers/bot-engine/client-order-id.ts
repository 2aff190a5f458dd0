import type { BotOrderRow } from '../../db/schema/bots.schema.js';

export type BotOrderAction = BotOrderRow['action'];

/** Two letters per action; `m` marks the close a stop makes, `p` a live protective order. */
const ACTION_CODES: Readonly<Record<BotOrderAction, string>> = {
  open_long: 'ol',
  open_short: 'os',
  close_long: 'cl',
  close_short: 'cs',
  stop_loss: 'sl',
  take_profit: 'tp',
};

/**
 * The client order id of (bot, candle, action): `qs{botId}c{candleOpenSeconds}{code}{suffix}`.
 * Deterministic, so a restart that decides the same action on the same candle finds the order it
 * may already have sent instead of sending a second one. Alphanumeric and ≤ 32 characters: fits
 * OKX (`^[A-Za-z0-9]{1,32}$`) and Binance (≤ 36, `[.A-Z:/a-z0-9_-]`).
 */
export function botClientOrderId(
  botId: number,
  candleOpenMs: number,
  action: BotOrderAction,
  suffix = '',
): string {
  const id = `qs${botId}c${Math.floor(candleOpenMs / 1000)}${ACTION_CODES[action]}${suffix}`;
  if (!/^[A-Za-z0-9]{1,32}$/.test(id)) throw new RangeError(`client order id ${id} is invalid`);
  return id;
}
