import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  applyFill,
  FLAT_POSITION,
  grossPnl,
  grossPnlDecimal,
  slippedPrice,
  slippedPriceDecimal,
  tradeFee,
  tradeFeeDecimal,
  unrealizedPnl,
} from './pnl.js';
import { protectiveHit, protectiveLevels } from './protective.js';
import { roundToStep, sizeAmount, sizeOrder } from './sizing.js';

const LIMITS = { amountStep: 0.001, minAmount: 0.001, minNotional: 5 };
const d = (value: Decimal.Value) => new Decimal(value);

describe('sizing', () => {
  it.each([
    ['margin × leverage / price, rounded down', 100, 2, 2000, 0.1],
    ['30 / 100 does not lose a step', 30, 1, 100, 0.3],
    ['a step below the next whole step', 10, 3, 7, 4.285],
  ])('%s', (_name, margin, leverage, price, amount) => {
    expect(sizeOrder(margin, leverage, price, LIMITS)).toEqual({ ok: true, amount });
  });

  it('names the minimum an order misses', () => {
    expect(sizeOrder(0.0001, 1, 2000, LIMITS)).toMatchObject({ ok: false, limit: 'amount' });
    expect(sizeAmount(0.002, 2000, LIMITS)).toMatchObject({
      ok: false,
      limit: 'notional',
      value: 4,
      minimum: 5,
    });
  });

  it('rounds a signed amount toward zero', () => {
    expect(roundToStep(-0.12345, 0.001)).toBe(-0.123);
    expect(roundToStep(1.9999, 1)).toBe(1);
  });
});

describe('stop-loss and take-profit', () => {
  it('sets both levels from the entry fill', () => {
    expect(protectiveLevels('long', 2000, 2, 3)).toEqual({ stopLoss: 1960, takeProfit: 2060 });
    expect(protectiveLevels('short', 2000, 2, null)).toEqual({ stopLoss: 2040, takeProfit: null });
  });

  it('starts a trailing stop from the entry, the tighter of it and the fixed stop', () => {
    expect(protectiveLevels('long', 2000, 2, 3, 1)).toEqual({ stopLoss: 1980, takeProfit: 2060 });
    expect(protectiveLevels('long', 2000, 0.5, null, 1)).toEqual({
      stopLoss: 1990,
      takeProfit: null,
    });
    expect(protectiveLevels('short', 2000, null, null, 1)).toEqual({
      stopLoss: 2020,
      takeProfit: null,
    });
  });

  it.each([
    ['long: low reaches the stop', 'long', { open: 100, high: 101, low: 94 }, 'stop_loss', 95],
    [
      'long: high reaches the target',
      'long',
      { open: 100, high: 111, low: 99 },
      'take_profit',
      110,
    ],
    [
      'long: both touched → the stop first',
      'long',
      { open: 100, high: 111, low: 94 },
      'stop_loss',
      95,
    ],
    [
      'long: a gap below the stop exits at the open',
      'long',
      { open: 90, high: 92, low: 89 },
      'stop_loss',
      90,
    ],
    [
      'short: a gap above the stop exits at the open',
      'short',
      { open: 108, high: 109, low: 107 },
      'stop_loss',
      108,
    ],
    [
      'short: low reaches the target',
      'short',
      { open: 100, high: 101, low: 89 },
      'take_profit',
      90,
    ],
  ] as const)('%s', (_name, side, range, reason, price) => {
    const levels =
      side === 'long' ? { stopLoss: 95, takeProfit: 110 } : { stopLoss: 105, takeProfit: 90 };
    expect(protectiveHit({ side, ...levels }, range)).toEqual({ reason, price });
  });

  it('misses a range that touches neither level', () => {
    expect(
      protectiveHit(
        { side: 'long', stopLoss: 95, takeProfit: null },
        { open: 100, high: 200, low: 96 },
      ),
    ).toBeNull();
  });
});

describe('fees, slippage and profit', () => {
  it('computes the same numbers in floats and decimals', () => {
    expect(slippedPriceDecimal(2000, true, 2).toNumber()).toBeCloseTo(
      slippedPrice(2000, true, 2),
      9,
    );
    expect(slippedPriceDecimal(2000, false, 2).toNumber()).toBeCloseTo(
      slippedPrice(2000, false, 2),
      9,
    );
    expect(tradeFeeDecimal(1000, 0.0005).toNumber()).toBe(tradeFee(1000, 0.0005));
    expect(grossPnlDecimal(-1, 0.5, 2000, 1900).toNumber()).toBe(grossPnl(-1, 0.5, 2000, 1900));
  });
});

describe('a fill applied to a net position', () => {
  it('adds to a position at the weighted average entry', () => {
    const first = applyFill(FLAT_POSITION, { amount: d(1), price: d(100), fee: d(0.05) });
    const second = applyFill(first.position, { amount: d(1), price: d(110), fee: d(0.055) });
    expect(second.position.size.toNumber()).toBe(2);
    expect(second.position.entryPrice.toNumber()).toBe(105);
    expect(second.position.entryFee.toNumber()).toBe(0.105);
    expect(second.realizedPnl.toNumber()).toBe(0);
  });

  it('closes part of a position, realising profit net of both fees pro rata', () => {
    const long = { size: d(2), entryPrice: d(100), entryFee: d(0.1) };
    const out = applyFill(long, { amount: d(-1), price: d(120), fee: d(0.06) });
    expect(out.closedAmount.toNumber()).toBe(1);
    expect(out.position.size.toNumber()).toBe(1);
    expect(out.position.entryFee.toNumber()).toBe(0.05);
    // 1 × (120 − 100) − 0.05 entry fee share − 0.06 exit fee.
    expect(out.realizedPnl.toNumber()).toBeCloseTo(19.89, 10);
  });

  it('closes a short and opens a long with the rest of the fill', () => {
    const short = { size: d(-1), entryPrice: d(100), entryFee: d(0.05) };
    const out = applyFill(short, { amount: d(3), price: d(90), fee: d(0.3) });
    expect(out.closedDirection).toBe(-1);
    expect(out.realizedPnl.toNumber()).toBeCloseTo(10 - 0.05 - 0.1, 10);
    expect(out.position.size.toNumber()).toBe(2);
    expect(out.position.entryPrice.toNumber()).toBe(90);
    expect(out.position.entryFee.toNumber()).toBeCloseTo(0.2, 10);
  });

  it('goes flat on an exact close and marks nothing afterwards', () => {
    const long = { size: d(1), entryPrice: d(100), entryFee: d(0) };
    const out = applyFill(long, { amount: d(-1), price: d(100), fee: d(0) });
    expect(out.position.size.isZero()).toBe(true);
    expect(unrealizedPnl(out.position, 500).toNumber()).toBe(0);
    expect(unrealizedPnl(long, 105).toNumber()).toBe(5);
  });
});
