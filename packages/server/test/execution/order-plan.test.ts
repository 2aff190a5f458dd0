import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { MarketFacts } from '../../src/exchange/exchange-client.js';
import { clientOrderIdOf } from '../../src/execution/client-order-id.js';
import { type PlanInput, planOrder } from '../../src/execution/order-plan.js';

const FACTS: MarketFacts = {
  symbol: 'ETH/USDT:USDT',
  contractSize: 1,
  amountStep: 0.001,
  priceStep: 0.01,
  minAmount: 0.001,
  minNotional: 20,
  maxLeverage: 125,
};

const input = (overrides: Partial<PlanInput>): PlanInput => ({
  size: { kind: 'close' },
  own: new Decimal(0),
  accountNet: new Decimal(0),
  facts: FACTS,
  positionMode: 'net',
  referencePrice: 2000,
  ...overrides,
});

describe('client order ids', () => {
  it('keeps the ids bots have always used', () => {
    expect(clientOrderIdOf({ kind: 'bot', id: 12 }, 'c1768464000ol')).toBe('qs12c1768464000ol');
  });

  it('hashes keys that are not plain or too long, within 32 letters and digits', () => {
    const ids = [
      clientOrderIdOf({ kind: 'webhook', id: 7 }, 'tv-alert/2026-01-15T08:00:00Z#42'),
      clientOrderIdOf({ kind: 'copy', id: 123456 }, `leader${'x'.repeat(40)}`),
      clientOrderIdOf({ kind: 'manual', id: 3 }, 'k1', 'R'),
    ];
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{1,32}$/);
    expect(ids[0]).toMatch(/^qw7H/);
    expect(ids[2]).toBe('qm3k1R');
  });

  it('never gives two owners, keys or legs the same id', () => {
    const ids = new Set([
      clientOrderIdOf({ kind: 'bot', id: 1 }, 'k1'),
      clientOrderIdOf({ kind: 'bot', id: 11 }, 'k'),
      clientOrderIdOf({ kind: 'copy', id: 1 }, 'k1'),
      clientOrderIdOf({ kind: 'bot', id: 1 }, 'k1', 'R'),
      clientOrderIdOf({ kind: 'bot', id: 1 }, 'k1', 'O'),
      clientOrderIdOf({ kind: 'bot', id: 1 }, 'K1'),
    ]);
    expect(ids.size).toBe(6);
  });
});

describe('what an intent sends', () => {
  it('opens a target from flat, rounded down to the step', () => {
    expect(planOrder(input({ size: { kind: 'target', amount: 0.12345 } }))).toEqual({
      kind: 'send',
      legs: [
        {
          leg: '',
          side: 'buy',
          amount: 0.123,
          reduceOnly: false,
          opens: true,
          positionSide: undefined,
        },
      ],
    });
  });

  it('skips an opening below the venue minimum notional', () => {
    expect(planOrder(input({ size: { kind: 'delta', amount: -0.005 } }))).toMatchObject({
      kind: 'skipped',
      sizing: { limit: 'notional', minimum: 20 },
    });
  });

  it('does nothing when the target is held', () => {
    const own = new Decimal('0.5');
    expect(
      planOrder(input({ size: { kind: 'target', amount: 0.5 }, own, accountNet: own })),
    ).toEqual({ kind: 'noop' });
    expect(planOrder(input({ size: { kind: 'close' } }))).toEqual({ kind: 'noop' });
  });

  it('closes exactly what the owner holds, reduce-only when the account covers it', () => {
    const own = new Decimal('-0.3');
    expect(planOrder(input({ own, accountNet: own }))).toEqual({
      kind: 'send',
      legs: [
        {
          leg: '',
          side: 'buy',
          amount: 0.3,
          reduceOnly: true,
          opens: false,
          positionSide: undefined,
        },
      ],
    });
  });

  it('closes without reduce-only when other owners net the account the other way', () => {
    // The owner is short 0.3, a manual owner long 0.5: the exchange holds long 0.2.
    const plan = planOrder(input({ own: new Decimal('-0.3'), accountNet: new Decimal('0.2') }));
    expect(plan).toMatchObject({ kind: 'send', legs: [{ side: 'buy', reduceOnly: false }] });
  });

  it('reverses with two legs: the close, then the new side', () => {
    const own = new Decimal('0.2');
    expect(
      planOrder(input({ size: { kind: 'target', amount: -0.1 }, own, accountNet: own })),
    ).toEqual({
      kind: 'send',
      legs: [
        {
          leg: 'R',
          side: 'sell',
          amount: 0.2,
          reduceOnly: true,
          opens: false,
          positionSide: undefined,
        },
        {
          leg: 'O',
          side: 'sell',
          amount: 0.1,
          reduceOnly: false,
          opens: true,
          positionSide: undefined,
        },
      ],
    });
  });

  it('reduces part of a position on hedge accounts on the position side', () => {
    const own = new Decimal('0.5');
    expect(
      planOrder(
        input({
          size: { kind: 'delta', amount: -0.2 },
          own,
          accountNet: own,
          positionMode: 'hedge',
        }),
      ),
    ).toEqual({
      kind: 'send',
      legs: [
        {
          leg: '',
          side: 'sell',
          amount: 0.2,
          reduceOnly: true,
          opens: false,
          positionSide: 'long',
        },
      ],
    });
  });
});
