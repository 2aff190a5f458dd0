import { describe, expect, it } from 'vitest';
import {
  abbreviateNumber,
  formatAmount,
  formatBalance,
  formatGrouped,
  formatMoney,
  formatMoneyLimit,
  formatPercent,
  formatPlain,
  formatPrice,
  formatRate,
  formatSignedMoney,
  formatUsdt,
} from '../src/shared/format/money';

// The formatters that replaced screens' own number code: each must show what that code showed.

const values = [0, 1, -1, 0.5, 12.345, -0.001, 1234.5, 99_999.995, 1_000_000, -2500.126];

describe('the shared money formatters', () => {
  it.each(['en', 'zh-CN'])(
    'groups counts and round amounts as Intl does by default (%s)',
    (locale) => {
      for (const value of values) {
        expect(formatGrouped(value, locale)).toBe(new Intl.NumberFormat(locale).format(value));
      }
      expect(formatGrouped(10_000, locale)).toBe('10,000');
      expect(formatGrouped(null, locale)).toBe('—');
    },
  );

  it.each(['en', 'zh-CN'])('shows limits with at most 2 decimals (%s)', (locale) => {
    for (const value of values) {
      expect(formatMoneyLimit(value, locale)).toBe(
        value.toLocaleString(locale, { maximumFractionDigits: 2 }),
      );
    }
    expect(formatMoneyLimit(1000.5, locale)).toBe('1,000.5');
  });

  it('shows plain figures with fixed decimals and no grouping, like toFixed (99999.995 → 99999.99)', () => {
    for (const value of values) {
      for (const digits of [1, 2, 3]) {
        expect(formatPlain(value, digits)).toBe(value.toFixed(digits));
      }
    }
    expect(formatPlain(1234.5, 2)).toBe('1234.50');
    expect(formatPlain(undefined, 2)).toBe('—');
  });

  it('adds a plus to a positive plain figure only when asked', () => {
    expect(formatPlain(3.456, 2, 'withSign')).toBe('+3.46');
    expect(formatPlain(-3.456, 2, 'withSign')).toBe('-3.46');
    expect(formatPlain(0, 2, 'withSign')).toBe('0.00');
    expect(formatPlain(3.456, 2)).toBe('3.46');
  });

  it('keeps the chart axis price: 2 decimals, grouped, never -0.00', () => {
    expect(formatPrice(93_535.694, 'en-US')).toBe('93,535.69');
    expect(formatPrice(-0.001, 'en-US')).toBe('0.00');
  });

  it('shows a rate with at most one decimal and a USDT string with two', () => {
    expect(formatRate(12.345, 'en')).toBe('12.3%');
    expect(formatRate(100, 'en')).toBe('100%');
    expect(formatUsdt('1234.5', 'en')).toBe('1,234.50');
    expect(formatUsdt('not a number', 'en')).toBe('not a number');
    expect(formatUsdt('', 'en')).toBe('—');
  });

  it('formats money sent as a decimal string exactly, as the same number would show', () => {
    // Beyond a float's 17 digits: the string's own digits are kept and rounded half up.
    expect(formatBalance('123456789012345.12345', 'en')).toBe('123,456,789,012,345.1235');
    expect(formatMoney('0.125', 'en')).toBe('0.13');
    expect(formatSignedMoney('12.5', 'en')).toBe('+12.50');
    expect(formatSignedMoney('-0.004', 'en')).toBe('0.00');
    expect(formatSignedMoney('-3.2', 'zh-CN')).toBe(formatSignedMoney(-3.2, 'zh-CN'));
    expect(formatAmount('0.00012', 'en')).toBe(formatAmount(0.00012, 'en'));
    expect(formatPrice(' 2500.5 ', 'en')).toBe('2,500.50');
    expect(formatPercent('-1.5', 'en', true)).toBe('-1.50%');
    expect(abbreviateNumber('2500000', 'en')).toBe('2.5M');
    // Not a number: a dash, never NaN.
    expect(formatMoney('1e-8', 'en')).toBe('—');
    expect(formatMoney('abc', 'en')).toBe('—');
  });
});
