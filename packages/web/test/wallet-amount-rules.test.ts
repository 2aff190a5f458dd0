import { describe, expect, it } from 'vitest';
import {
  depositAmountProblem,
  isWithdrawAmountValid,
  maxWithdrawable,
  withdrawReceive,
} from '../src/features/wallet/amount-rules';

describe('deposit amount (document 2 §5)', () => {
  it.each([
    [undefined, 'required'],
    ['', 'required'],
    ['abc', 'invalid'],
    ['10.001', 'step'],
    ['1500.555', 'step'],
    ['0', 'belowMinimum'],
    ['-5', 'belowMinimum'],
    ['9.99', 'belowMinimum'],
    ['10', null],
    ['10.01', null],
    ['1000000000.01', 'tooLarge'],
  ] as const)('%s → %s with minimum 10', (value, problem) => {
    expect(depositAmountProblem(value, '10.00000000')).toBe(problem);
  });
});

describe('withdrawal amount (document 2 §5)', () => {
  it.each([
    ['2', '100', true],
    ['1.99', '100', false],
    ['100', '100', true],
    ['100.01', '100', false],
    ['5.555', '100', false],
    ['', '100', false],
    ['3', '2.5', false],
  ] as const)('%s against balance %s → %s', (value, balance, valid) => {
    expect(isWithdrawAmountValid(value, balance)).toBe(valid);
  });

  it('offers the balance cut to cents as the maximum', () => {
    expect(maxWithdrawable('12.50900000')).toBe('12.50');
    expect(maxWithdrawable('0.00000000')).toBeNull();
  });

  it('shows the amount minus the 1 USDT fee', () => {
    expect(withdrawReceive('10')).toBe('9.00');
    expect(withdrawReceive('2.35')).toBe('1.35');
  });
});
