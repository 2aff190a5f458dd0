import { COIN_AMOUNT_MAX, WITHDRAW_FEE_USDT, WITHDRAW_MIN_AMOUNT } from '@quantsquare/contracts';
import {
  compareDecimal,
  fromUnits,
  hasAtMostDecimals,
  subtractDecimal,
  toUnits,
} from '../../shared/format/decimal';

// The amount rules of the deposit and withdraw forms (document 2 §5), checked before a request
// is sent; the server checks the same again.

const AMOUNT_DECIMALS = 2;

export type DepositAmountProblem = 'required' | 'invalid' | 'step' | 'belowMinimum' | 'tooLarge';

/**
 * Why a deposit amount cannot be sent, by the rule it breaks, or null: at least the network's
 * minimum (zero and negative amounts too), step 0.01. The form keeps the value as typed.
 */
export function depositAmountProblem(
  value: string | null | undefined,
  minAmount: string,
): DepositAmountProblem | null {
  if (value === null || value === undefined || value.trim() === '') return 'required';
  const text = value.trim();
  if (toUnits(text) === null) return /^-?\d+\.\d+$/.test(text) ? 'step' : 'invalid';
  if (!hasAtMostDecimals(text, AMOUNT_DECIMALS)) return 'step';
  if (compareDecimal(text, minAmount) === -1) return 'belowMinimum';
  if (compareDecimal(text, COIN_AMOUNT_MAX) === 1) return 'tooLarge';
  return null;
}

/**
 * Whether a withdrawal amount is valid: at least 2, at most the balance, step 0.01 (one message
 * for every failure, 'Invalid withdrawal amount').
 */
export function isWithdrawAmountValid(value: string | null | undefined, balance: string): boolean {
  if (value === null || value === undefined || value.trim() === '') return false;
  if (toUnits(value) === null || !hasAtMostDecimals(value, AMOUNT_DECIMALS)) return false;
  if (compareDecimal(value, WITHDRAW_MIN_AMOUNT) === -1) return false;
  const toBalance = compareDecimal(value, balance);
  return toBalance !== null && toBalance !== 1;
}

/** The most one can withdraw: the balance cut (never rounded up) to 2 decimals. */
export function maxWithdrawable(balance: string): string | null {
  const units = toUnits(balance);
  if (units === null || units <= 0n) return null;
  const step = 10n ** BigInt(8 - AMOUNT_DECIMALS);
  return fromUnits(units - (units % step));
}

/** What arrives for a withdrawal of `amount`: amount − the 1 USDT fee. */
export function withdrawReceive(amount: string): string | null {
  return subtractDecimal(amount, WITHDRAW_FEE_USDT);
}
