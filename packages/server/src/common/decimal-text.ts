import { Decimal } from 'decimal.js';

// A decimal column's text (PostgreSQL numeric: "0.020000000000", "-2000.000000000000") as the
// code passes it on, without trailing zeros ("0.02", "-2000", "0"), with no Decimal built: the
// position book reads thousands of such fields per fan-out, and only copies them.

/** `text` without its fraction's trailing zeros; "-0" is "0". Text that is not plain is kept. */
export function plainDecimal(text: string): string {
  if (!text.includes('.') || text.includes('e') || text.includes('E')) {
    return text === '-0' ? '0' : text;
  }
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--; // '0'
  if (text.charCodeAt(end - 1) === 46) end--; // '.'
  const out = text.slice(0, end);
  return out === '-0' || out === '' || out === '-' ? '0' : out;
}

/**
 * Money or a price as an answer carries it: a decimal string in plain notation, without trailing
 * zeros ("0.02", "-2000", "0.00000001"; never "1e-8", which the web does not read as a number).
 * A number (an exchange's figure) keeps its shortest exact digits.
 */
export function decimalText(value: Decimal.Value): string {
  const text = new Decimal(value).toFixed();
  return text === '-0' ? '0' : text;
}

/** decimalText, with null for a missing value. */
export function decimalTextOrNull(value: Decimal.Value | null | undefined): string | null {
  return value === null || value === undefined ? null : decimalText(value);
}

/** Decimals of a float's money, price or size in an answer: to 0.00000001, all a screen shows. */
export const FLOAT_DECIMALS = 8;

/**
 * A float the engine computed (a backtest's balance or fill price, a simulated copy's fee) as an
 * answer carries money: rounded to `decimals` places, in plain notation without trailing zeros
 * ("12.5", "0.00001235", "0"; never "1.2e-7" nor "0.30000000000000004"). It rounds the float's
 * own binary value, as toFixed does, and costs no Decimal below 1e21 (an optimisation answer
 * writes tens of thousands). Float noise around zero ("-1.1e-16") reads "0". A value that is not
 * finite is a bug in the maths, not money: it throws rather than answer a figure that is not one.
 */
export function floatDecimal(value: number, decimals: number = FLOAT_DECIMALS): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
  // toFixed writes an exponent from 1e21 on; Decimal writes those plainly.
  const fixed =
    Math.abs(value) < 1e21 ? value.toFixed(decimals) : new Decimal(value).toFixed(decimals);
  return plainDecimal(fixed);
}

/** floatDecimal, with null for a missing value. */
export function floatDecimalOrNull(value: number | null | undefined): string | null {
  return value === null || value === undefined ? null : floatDecimal(value);
}
