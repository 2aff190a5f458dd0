import { DEFAULT_STRATEGY_TYPE, DEFAULT_SYMBOLS } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { sourceState } from '../src/features/dashboard/source-state';
import { strategyOptions, symbolOptions } from '../src/features/dashboard/use-market-selection';
import {
  amountDecimals,
  formatAmount,
  formatMoney,
  formatPercent,
} from '../src/shared/format/money';

describe('amount formatting (document 1 §9)', () => {
  it.each([
    [65_432.123, 2],
    [1000, 2],
    [-1500, 2],
    [999.99, 4],
    [1, 4],
    [0.99, 8],
    [0, 8],
  ])('gives %s %i decimals', (value, decimals) => {
    expect(amountDecimals(value)).toBe(decimals);
  });

  it('formats with those decimals', () => {
    expect(formatAmount(1234.5, 'en')).toBe('1,234.50');
    expect(formatAmount(2.5, 'en')).toBe('2.5000');
    expect(formatAmount(0.00012, 'en')).toBe('0.00012000');
    expect(formatAmount(null, 'en')).toBe('—');
  });

  it('shows money with 2 decimals and percentages with a sign when asked', () => {
    expect(formatMoney(10_000, 'en')).toBe('10,000.00');
    expect(formatPercent(12.345, 'en', true)).toBe('+12.35%');
    expect(formatPercent(-3.2, 'en', true)).toBe('-3.20%');
    // A change that rounds to zero has no sign either way.
    expect(formatPercent(-0.001, 'en', true)).toBe('0.00%');
    expect(formatPercent(0.001, 'en', true)).toBe('0.00%');
    expect(formatPercent(-0.004, 'zh-CN')).toBe('0.00%');
    expect(formatPercent(Number.NaN, 'en')).toBe('—');
  });
});

describe('selector options', () => {
  it('offers the default symbols when the server gives none', () => {
    expect(symbolOptions([])).toEqual([...DEFAULT_SYMBOLS]);
    expect(symbolOptions(undefined)).toEqual([...DEFAULT_SYMBOLS]);
    expect(symbolOptions(['BTC/USDT:USDT'])).toEqual(['BTC/USDT:USDT']);
  });

  it('offers the default strategy when the server gives none', () => {
    expect(strategyOptions([])).toEqual([{ type: DEFAULT_STRATEGY_TYPE, name: null }]);
  });
});

describe('data source indicator', () => {
  it('is live for fresh live data, delayed for stale live data, simulated otherwise', () => {
    expect(sourceState('live', { is_fresh: true })).toBe('live');
    expect(sourceState('live', undefined)).toBe('live');
    expect(sourceState('live', { is_fresh: false })).toBe('delayed');
    expect(sourceState('simulated', { is_fresh: true })).toBe('simulated');
    expect(sourceState(null, null)).toBeNull();
  });
});
