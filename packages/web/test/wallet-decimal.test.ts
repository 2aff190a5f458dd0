import { describe, expect, it } from 'vitest';
import {
  compareDecimal,
  fromUnits,
  hasAtMostDecimals,
  subtractDecimal,
  toRequestAmount,
  toUnits,
} from '../src/shared/format/decimal';

describe('coin decimals', () => {
  it('reads decimal strings and numbers into 10⁻⁸ units', () => {
    expect(toUnits('12.5')).toBe(1_250_000_000n);
    expect(toUnits(' 0.00000001 ')).toBe(1n);
    expect(toUnits('-3')).toBe(-300_000_000n);
    expect(toUnits(0.1)).toBe(10_000_000n);
    expect(toUnits('1e3')).toBeNull();
    expect(toUnits('1.123456789')).toBeNull();
    expect(toUnits('')).toBeNull();
    expect(toUnits(Number.NaN)).toBeNull();
  });

  it('writes units back with at least two decimals', () => {
    expect(fromUnits(950_000_000n)).toBe('9.50');
    expect(fromUnits(1n)).toBe('0.00000001');
    expect(fromUnits(-150_000_000n)).toBe('-1.50');
    expect(fromUnits(0n)).toBe('0.00');
  });

  it('subtracts the withdrawal fee without float error', () => {
    expect(subtractDecimal('10.3', '1')).toBe('9.30');
    expect(subtractDecimal('0.3', '0.1')).toBe('0.20');
    expect(subtractDecimal('2', '1')).toBe('1.00');
    expect(subtractDecimal('x', '1')).toBeNull();
  });

  it('compares amounts with the balance exactly', () => {
    expect(compareDecimal('100.00', '100')).toBe(0);
    expect(compareDecimal('99.99', '100')).toBe(-1);
    expect(compareDecimal('100.00000001', '100')).toBe(1);
    expect(compareDecimal('abc', '1')).toBeNull();
  });

  it('checks the step of 0.01', () => {
    expect(hasAtMostDecimals('10.01', 2)).toBe(true);
    expect(hasAtMostDecimals('10.001', 2)).toBe(false);
    expect(hasAtMostDecimals('10', 2)).toBe(true);
  });

  it('writes amounts of answers back as requests carry them (2 decimals)', () => {
    expect(toRequestAmount('100.00000000')).toBe('100.00');
    expect(toRequestAmount('1.50000000')).toBe('1.50');
    expect(toRequestAmount('0.12500000')).toBeNull();
  });
});
