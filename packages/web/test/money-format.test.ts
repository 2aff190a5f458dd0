import { describe, expect, it } from 'vitest';
import {
  formatGrouped,
  formatMoneyLimit,
  formatPlain,
  formatPrice,
  formatRate,
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
});
