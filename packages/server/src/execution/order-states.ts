// The order state machine: every state an order can be in and every move between them, in one
// place (NautilusTrader's OrderStatus and Hummingbot's in-flight tracker are the models).
//
//   created ─claim→ sending ─ack→ accepted ─fill→ partially_filled ─fill→ filled
//                      │  └─lost→ in_doubt ─found→ (as the venue says)
//                      └─refused→ rejected          └─missing past the venue's expiry→ expired
//   accepted / partially_filled ─venue canceled→ canceled (an IOC's rest, a user's cancel)
//
// An answer only moves an order forward. Nothing is decided from a first answer: an ack without
// a fill is `accepted`, and an order the venue does not show is missing only once the venue
// could no longer accept its request and several lookups over some seconds all missed.
import type { OrderState } from '../db/schema/index.js';
import type { ExchangeOrder } from '../exchange/exchange-client.js';

export type { OrderState };

/** States an order never leaves. */
export const FINAL_STATES: ReadonlySet<OrderState> = new Set([
  'filled',
  'canceled',
  'rejected',
  'expired',
]);

/** How far along an order is: answers never move it back. */
const RANK: Readonly<Record<OrderState, number>> = {
  created: 0,
  sending: 1,
  in_doubt: 2,
  accepted: 3,
  partially_filled: 4,
  filled: 5,
  canceled: 5,
  rejected: 5,
  expired: 5,
};

/** A lookup that misses counts as proof only after this many misses … */
export const MISSES_BEFORE_MISSING = 3;
/** … spread over at least this long (a venue may not show an order for a moment after its ack). */
export const MISSING_AFTER_MS = 3_000;

/** What the venue (or the core's own last check before the write) said about an order. */
export type VenueAnswer =
  /** The core claimed it for sending (the last step before the request leaves). */
  | { readonly kind: 'claimed' }
  /** The venue showed the order: the send's answer or a lookup. */
  | { readonly kind: 'seen'; readonly order: Pick<ExchangeOrder, 'status' | 'filled' | 'amount'> }
  /** The venue refused the request: no order exists. */
  | { readonly kind: 'refused' }
  /** The send's answer was lost (timeout, 5xx, connection reset): the order may exist. */
  | { readonly kind: 'lost' }
  /** The request was never written: its send window had passed before it could leave. */
  | { readonly kind: 'not_sent' }
  /**
   * Its owner gave up an intent that was never claimed, so never sent (a bot's decision on a
   * candle that passed while its process was down): nothing exists at the venue.
   */
  | { readonly kind: 'withdrawn' }
  /**
   * A lookup by client order id found nothing. `misses` counts this one; `missingForMs` is the
   * time since the first miss; `venueExpired` says the venue can no longer accept the request,
   * and `sinceExpiryMs` for how long (Infinity for a request of a process long gone).
   */
  | {
      readonly kind: 'not_found';
      readonly misses: number;
      readonly missingForMs: number;
      readonly venueExpired: boolean;
      readonly sinceExpiryMs?: number;
    };

/** The state the venue's view of an order puts it in. */
export function stateOfVenueOrder(
  order: Pick<ExchangeOrder, 'status' | 'filled' | 'amount'>,
): OrderState {
  switch (order.status) {
    case 'closed':
      return 'filled';
    case 'canceled':
      return 'canceled';
    case 'rejected':
      return 'rejected';
    default:
      return order.filled > 0 ? 'partially_filled' : 'accepted';
  }
}

/** Where `answer` moves an order in `state` (the same state where it moves nothing). */
export function transition(state: OrderState, answer: VenueAnswer): OrderState {
  if (FINAL_STATES.has(state)) return state;
  switch (answer.kind) {
    case 'claimed':
      return state === 'created' ? 'sending' : state;
    case 'refused':
      // A refusal answers the send itself; an order the venue showed was not refused.
      return state === 'created' || state === 'sending' ? 'rejected' : state;
    case 'lost':
      return state === 'sending' ? 'in_doubt' : state;
    case 'withdrawn':
      return state === 'created' ? 'canceled' : state;
    case 'not_sent':
      // Certain: the request never left. Only a claimed order can be in this case.
      return state === 'sending' ? 'expired' : state;
    case 'seen': {
      if (state === 'created') return state; // not claimed: no request left, so not this order
      const next = stateOfVenueOrder(answer.order);
      return RANK[next] > RANK[state] ? next : state;
    }
    case 'not_found': {
      // An order the venue acknowledged is not lost because a lookup missed it.
      if (state !== 'sending' && state !== 'in_doubt') return state;
      // Proof: the venue can no longer take the request, and it has had time to show an order
      // it took — several misses over seconds, or a request that expired that long ago.
      const hasHadTime =
        (answer.misses >= MISSES_BEFORE_MISSING && answer.missingForMs >= MISSING_AFTER_MS) ||
        (answer.sinceExpiryMs ?? 0) >= MISSING_AFTER_MS;
      const isProof = answer.venueExpired && hasHadTime;
      return isProof ? 'expired' : 'in_doubt';
    }
  }
}

export const isFinal = (state: OrderState): boolean => FINAL_STATES.has(state);

/**
 * Orders the follower drives: everything sent and not final, except resting orders the venue
 * accepted (protective stops wait for the market; `watchProtective` looks after them).
 */
export function isFollowed(order: {
  readonly status: OrderState;
  readonly type: string;
  readonly timeInForce: string | null;
}): boolean {
  if (order.status === 'sending' || order.status === 'in_doubt') return true;
  if (order.status !== 'accepted' && order.status !== 'partially_filled') return false;
  return order.type === 'market' || order.timeInForce === 'IOC';
}
