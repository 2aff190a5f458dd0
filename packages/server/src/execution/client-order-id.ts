import { createHash } from 'node:crypto';
import type { OrderOwner, OrderOwnerKind } from '../events/event-bus.types.js';

// The client order id of (owner, idempotency key): deterministic, so whoever repeats an intent
// (a restart, a second worker, a retried webhook) finds the order sent the first time instead
// of sending another. Valid on every venue: at most 32 ASCII letters and digits (OKX clOrdId
// ^[A-Za-z0-9]{1,32}$; Binance newClientOrderId allows 36 of [.A-Z:/a-z0-9_-]).

const OWNER_LETTERS: Readonly<Record<OrderOwnerKind, string>> = {
  // `qs` is what bots' ids began with before the core: their orders keep the same ids.
  bot: 's',
  copy: 'c',
  webhook: 'w',
  manual: 'm',
};

export const CLIENT_ORDER_ID_MAX_LENGTH = 32;
const VALID_ID = /^[A-Za-z0-9]{1,32}$/;
/** Keys used as they are: lower-case letters and digits, starting with a letter. */
const PLAIN_KEY = /^[a-z][a-z0-9]*$/;

export type OrderLeg = '' | 'R' | 'O';

/**
 * `q{owner letter}{owner id}{key}{leg}` when the key is plain and fits, else
 * `q{owner letter}{owner id}H{hash of the key}{leg}`. Plain keys are lower-case, so the `H` of a
 * hashed id and the leg letters (R: the closing leg, O: the opening leg of an intent that crosses
 * zero) never occur in them: two different (owner, key, leg) never share an id.
 */
export function clientOrderIdOf(owner: OrderOwner, key: string, leg: OrderLeg = ''): string {
  const prefix = `q${OWNER_LETTERS[owner.kind]}${owner.id}`;
  const room = CLIENT_ORDER_ID_MAX_LENGTH - prefix.length - leg.length;
  let id: string;
  if (PLAIN_KEY.test(key) && key.length <= room) {
    id = `${prefix}${key}${leg}`;
  } else {
    if (room < 9) throw new RangeError(`owner id ${owner.id} leaves no room for a client order id`);
    const digest = BigInt(`0x${createHash('sha256').update(key).digest('hex')}`).toString(36);
    id = `${prefix}H${digest.slice(0, room - 1)}${leg}`;
  }
  if (!VALID_ID.test(id)) throw new RangeError(`client order id ${id} is invalid`);
  return id;
}
