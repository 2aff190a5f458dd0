// The order state machine as a table: every state × every venue answer, and the move it makes.
import { describe, expect, it } from 'vitest';
import { ORDER_STATES } from '../../src/db/schema/index.js';
import {
  MISSES_BEFORE_MISSING,
  MISSING_AFTER_MS,
  type OrderState,
  transition,
  type VenueAnswer,
} from '../../src/execution/order-states.js';

const seen = (status: 'open' | 'closed' | 'canceled' | 'rejected', filled: number) =>
  ({ kind: 'seen', order: { status, filled, amount: 1 } }) as const;
const missing = (misses: number, missingForMs: number, venueExpired: boolean) =>
  ({ kind: 'not_found', misses, missingForMs, venueExpired }) as const;

const ANSWERS: Readonly<Record<string, VenueAnswer>> = {
  claimed: { kind: 'claimed' },
  refused: { kind: 'refused' },
  lost: { kind: 'lost' },
  not_sent: { kind: 'not_sent' },
  ack: seen('open', 0),
  part: seen('open', 0.4),
  closed: seen('closed', 1),
  canceled_part: seen('canceled', 0.4),
  canceled: seen('canceled', 0),
  venue_rejected: seen('rejected', 0),
  miss_early: missing(1, 0, false),
  miss_live_window: missing(MISSES_BEFORE_MISSING, MISSING_AFTER_MS, false),
  miss_few: missing(MISSES_BEFORE_MISSING - 1, MISSING_AFTER_MS, true),
  miss_quick: missing(MISSES_BEFORE_MISSING, MISSING_AFTER_MS - 1, true),
  miss_proof: missing(MISSES_BEFORE_MISSING, MISSING_AFTER_MS, true),
  miss_long_expired: {
    kind: 'not_found',
    misses: 1,
    missingForMs: 0,
    venueExpired: true,
    sinceExpiryMs: MISSING_AFTER_MS,
  },
  withdrawn: { kind: 'withdrawn' },
};

// Columns in the order of ANSWERS; '=' keeps the state.
const F = 'filled';
const TABLE: Readonly<Record<OrderState, readonly string[]>> = {
  //                claimed    refused     lost        not_sent   ack         part                closed canceled_p  canceled    venue_rej   m_early     m_window    m_few       m_quick     m_proof
  created: [
    'sending',
    'rejected',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    'canceled',
  ],
  sending: [
    '=',
    'rejected',
    'in_doubt',
    'expired',
    'accepted',
    'partially_filled',
    F,
    'canceled',
    'canceled',
    'rejected',
    'in_doubt',
    'in_doubt',
    'in_doubt',
    'in_doubt',
    'expired',
    'expired',
    '=',
  ],
  in_doubt: [
    '=',
    '=',
    '=',
    '=',
    'accepted',
    'partially_filled',
    F,
    'canceled',
    'canceled',
    'rejected',
    '=',
    '=',
    '=',
    '=',
    'expired',
    'expired',
    '=',
  ],
  accepted: [
    '=',
    '=',
    '=',
    '=',
    '=',
    'partially_filled',
    F,
    'canceled',
    'canceled',
    'rejected',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
  ],
  partially_filled: [
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    F,
    'canceled',
    'canceled',
    'rejected',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
    '=',
  ],
  filled: Array(17).fill('='),
  canceled: Array(17).fill('='),
  rejected: Array(17).fill('='),
  expired: Array(17).fill('='),
};

describe('the order state machine', () => {
  const names = Object.keys(ANSWERS);
  it('has a row for every state and a column for every answer', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...ORDER_STATES].sort());
    for (const row of Object.values(TABLE)) expect(row).toHaveLength(names.length);
  });

  for (const state of ORDER_STATES) {
    names.forEach((name, column) => {
      const want = TABLE[state][column];
      const expected = want === '=' ? state : want;
      it(`${state} + ${name} → ${expected}`, () => {
        expect(transition(state, ANSWERS[name] as VenueAnswer)).toBe(expected);
      });
    });
  }

  it('never decides from a send answer that an acknowledged order failed', () => {
    for (const state of ['accepted', 'partially_filled'] as const) {
      for (const answer of [ANSWERS.lost, ANSWERS.refused, ANSWERS.miss_proof] as VenueAnswer[]) {
        expect(transition(state, answer)).toBe(state);
      }
    }
  });
});
