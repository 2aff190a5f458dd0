import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  decimalText,
  decimalTextOrNull,
  floatDecimal,
  floatDecimalOrNull,
  plainDecimal,
} from './decimal-text.js';

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

describe('floatDecimal', () => {
  it('writes a float as plain notation at 8 decimals, without trailing zeros or float noise', () => {
    expect(floatDecimal(0.1 + 0.2)).toBe('0.3');
    expect(floatDecimal(1e-8)).toBe('0.00000001');
    expect(floatDecimal(1.2e-7)).toBe('0.00000012');
    expect(floatDecimal(1e21)).toBe('1000000000000000000000');
    expect(floatDecimal(-12.5)).toBe('-12.5');
    expect(floatDecimal(10_000)).toBe('10000');
    expect(floatDecimal(0.000012345678)).toBe('0.00001235');
    expect(floatDecimal(-0.000000006)).toBe('-0.00000001');
    expect(floatDecimal(123456789.12345679)).toBe('123456789.12345679');
    expect(floatDecimal(2.5e21)).toBe('2500000000000000000000');
  });

  it('reads noise around zero as 0, never -0', () => {
    expect(floatDecimal(-1.1e-16)).toBe('0');
    expect(floatDecimal(-4e-9)).toBe('0');
    expect(floatDecimal(-0)).toBe('0');
    expect(floatDecimal(4e-9)).toBe('0');
  });

  it('takes other decimals when asked, and refuses what is not a finite number', () => {
    expect(floatDecimal(1.23456, 2)).toBe('1.23');
    expect(() => floatDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => floatDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(floatDecimalOrNull(null)).toBeNull();
    expect(floatDecimalOrNull(2.5)).toBe('2.5');
  });
});
