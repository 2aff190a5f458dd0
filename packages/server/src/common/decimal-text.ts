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
