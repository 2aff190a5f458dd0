import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { decimalText, decimalTextOrNull, plainDecimal } from './decimal-text.js';

describe('plainDecimal', () => {
  it('drops a numeric column’s trailing zeros as Decimal would print it', () => {
    for (const text of [
      '0.020000000000',
      '-0.020000000000',
      '2000.000000000000',
      '2000.5000',
      '0.000000000000',
      '-0.000000000000',
      '12',
      '-12',
      '0',
      '123456789.123456789012',
      '0.000001000000',
    ]) {
      expect(plainDecimal(text)).toBe(new Decimal(text).toString());
    }
  });

  it('keeps the digits of values Decimal would print with an exponent', () => {
    expect(plainDecimal('0.000000010000')).toBe('0.00000001');
    expect(new Decimal(plainDecimal('0.000000010000')).eq('1e-8')).toBe(true);
    expect(plainDecimal('1e-8')).toBe('1e-8');
  });
});

describe('decimalText', () => {
  it('writes plain notation without trailing zeros, whatever the size', () => {
    expect(decimalText('0.000000010000')).toBe('0.00000001');
    expect(decimalText(1e-8)).toBe('0.00000001');
    expect(decimalText('123456789012345678901234.5')).toBe('123456789012345678901234.5');
    expect(decimalText('2000.000000000000')).toBe('2000');
    expect(decimalText(-0)).toBe('0');
    expect(decimalText('-0.000')).toBe('0');
    expect(decimalText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(decimalTextOrNull(null)).toBeNull();
    expect(decimalTextOrNull('-12.50')).toBe('-12.5');
  });
});
