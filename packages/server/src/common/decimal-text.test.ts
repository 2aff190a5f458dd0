import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { plainDecimal } from './decimal-text.js';

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
