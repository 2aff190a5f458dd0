// Coin amounts arrive and leave as decimal strings. Comparisons and the withdrawal's "amount − fee"
// are done on integers of 10⁻⁸ coin, never on floats.

const SCALE_DIGITS = 8;
const SCALE = 10n ** BigInt(SCALE_DIGITS);
const DECIMAL_PATTERN = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The value in 10⁻⁸ units; null when it is not a plain decimal or has more than 8 decimals. */
export function toUnits(value: string | number | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  if (text === null) return null;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > SCALE_DIGITS) return null;
  const units = BigInt(whole) * SCALE + BigInt(fraction.padEnd(SCALE_DIGITS, '0'));
  return sign ? -units : units;
}

function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  // toFixed avoids exponent notation; 8 decimals is the unit, trailing zeros are harmless.
  return value.toFixed(SCALE_DIGITS);
}

/** 10⁻⁸ units back to a decimal string with at least `minDecimals` decimals (no grouping). */
export function fromUnits(units: bigint, minDecimals = 2): string {
  const negative = units < 0n;
  const size = negative ? -units : units;
  const whole = size / SCALE;
  let fraction = (size % SCALE).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  const text = fraction ? `${whole}.${fraction}` : `${whole}`;
  return negative && size !== 0n ? `-${text}` : text;
}

/** -1, 0 or 1; null when either side is not a decimal. */
export function compareDecimal(a: string | number, b: string | number): -1 | 0 | 1 | null {
  const left = toUnits(a);
  const right = toUnits(b);
  if (left === null || right === null) return null;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** a − b as a decimal string; null when either side is not a decimal. */
export function subtractDecimal(a: string | number, b: string | number): string | null {
  const left = toUnits(a);
  const right = toUnits(b);
  if (left === null || right === null) return null;
  return fromUnits(left - right);
}

/** Whether the value has at most `decimals` decimals (the forms' step 0.01). */
export function hasAtMostDecimals(value: string | number, decimals: number): boolean {
  const units = toUnits(value);
  if (units === null) return false;
  const step = 10n ** BigInt(SCALE_DIGITS - decimals);
  return units % step === 0n;
}

/**
 * A decimal as a request carries amounts (at most 2 decimals): "100.00000000" → "100.00".
 * Null when the value has more than 2 significant decimals or is not a decimal.
 */
export function toRequestAmount(value: string): string | null {
  const units = toUnits(value);
  if (units === null || !hasAtMostDecimals(value, 2)) return null;
  return fromUnits(units);
}
