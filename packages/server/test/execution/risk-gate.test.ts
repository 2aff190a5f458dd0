// The risk gate's decision, as a table: each row an account's settings, an order and the market,
// and what the gate answers. Closes always pass; openings are judged.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { type AccountRiskView, decideGate, type GateInput } from '../../src/execution/risk-gate.js';

const active: AccountRiskView = { state: 'active', maxOrderNotional: null, maxOpenNotional: null };

const order = (overrides: Partial<GateInput> = {}): GateInput => ({
  risk: active,
  openingAmount: new Decimal('0.01'),
  price: 100_000,
  openNotional: new Decimal(0),
  isMarket: true,
  venue: { price: 100_000, isFresh: true },
  referencePrice: 100_000,
  ...overrides,
});

const cases: [string, GateInput, ReturnType<typeof decideGate>['ok'], string | null][] = [
  ['no settings: anything passes', order({ risk: null, venue: null }), true, null],
  ['active, no limits: passes', order(), true, null],
  [
    'halted: an opening is refused',
    order({ risk: { ...active, state: 'halted' } }),
    false,
    'risk_halted/halted',
  ],
  [
    'reducing: an opening is refused',
    order({ risk: { ...active, state: 'reducing' } }),
    false,
    'risk_halted/halted',
  ],
  [
    'halted: a close (nothing opened) passes',
    order({ risk: { ...active, state: 'halted' }, openingAmount: new Decimal(0) }),
    true,
    null,
  ],
  [
    'order notional above its limit (0.01 × 100,000 = 1,000 > 999)',
    order({ risk: { ...active, maxOrderNotional: '999' } }),
    false,
    'risk_limit/max_order_notional',
  ],
  [
    'order notional at its limit passes',
    order({ risk: { ...active, maxOrderNotional: '1000' } }),
    true,
    null,
  ],
  [
    'open notional would pass its limit (4,500 held + 1,000)',
    order({ risk: { ...active, maxOpenNotional: '5000' }, openNotional: new Decimal(4500) }),
    false,
    'risk_limit/max_open_notional',
  ],
  [
    'open notional reaching its limit exactly passes',
    order({ risk: { ...active, maxOpenNotional: '5500' }, openNotional: new Decimal(4500) }),
    true,
    null,
  ],
  [
    'a stale venue price refuses a market opening',
    order({ venue: { price: 100_000, isFresh: false } }),
    false,
    'risk_limit/stale_price',
  ],
  [
    'a stale venue price does not judge a limit (IOC) order',
    order({ isMarket: false, venue: { price: 100_000, isFresh: false } }),
    true,
    null,
  ],
  [
    'the order price 5.1 % away from the venue refuses a market opening',
    order({ referencePrice: 105_100 }),
    false,
    'risk_limit/price_deviation',
  ],
  ['exactly 5 % away passes', order({ referencePrice: 95_000 }), true, null],
  [
    'a deviant price does not block a close',
    order({ referencePrice: 200_000, openingAmount: new Decimal(0) }),
    true,
    null,
  ],
  [
    'no price at all with a notional limit: refused rather than guessed',
    order({
      risk: { ...active, maxOrderNotional: '10' },
      price: null,
      venue: null,
      referencePrice: null,
    }),
    false,
    'risk_limit/stale_price',
  ],
];

describe('the risk gate decides', () => {
  it.each(cases)('%s', (_name, input, ok, refusal) => {
    const decision = decideGate(input);
    expect(decision.ok).toBe(ok);
    expect(decision.ok ? null : `${decision.kind}/${decision.reason}`).toBe(refusal);
  });
});
