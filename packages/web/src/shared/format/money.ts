// The web's one set of money, amount and percent formatters (document 1 §9, document 2 §9).
// Every screen formats numbers through these, so a rule changes in one place. Each function
// answers '—' for a missing value; they differ only where a screen's format is fixed by the spec.

/** A number, or a decimal string as the server sends money (formatted exactly, never via a float). */
type NumberValue = number | string | null | undefined;
type DecimalText = string | null | undefined;

interface NumberStyle {
  /** Fewest and most decimals shown. */
  minDecimals: number;
  maxDecimals: number;
  /** 'negative': a loss that rounds to zero shows 0.00, never -0.00. */
  signDisplay?: 'auto' | 'negative';
}

const DASH = '—';

const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * A value to format: its number (for decisions such as decimals or sign) and what Intl formats
 * (a decimal string as it is, so its digits never pass through a float). Null when it is missing
 * or not a number.
 */
function numeric(value: NumberValue): { n: number; exact: number | string } | null {
  if (typeof value === 'number') return Number.isFinite(value) ? { n: value, exact: value } : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return DECIMAL_PATTERN.test(text) ? { n: Number(text), exact: text } : null;
}

type StringNumberFormat = Intl.NumberFormat & { format(value: number | string): string };

// Building an Intl.NumberFormat costs far more than using one; chart axes format on every frame.
const formats = new Map<string, StringNumberFormat>();

/** The one place numbers become text. */
function numberText(value: number | string, locale: string, style: NumberStyle): string {
  const options: Intl.NumberFormatOptions = {
    minimumFractionDigits: style.minDecimals,
    maximumFractionDigits: style.maxDecimals,
    signDisplay: style.signDisplay ?? 'auto',
  };
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options) as StringNumberFormat;
    formats.set(key, format);
  }
  return format.format(value);
}

const fixed = (value: number | string, digits: number, locale: string) =>
  numberText(value, locale, { minDecimals: digits, maxDecimals: digits, signDisplay: 'negative' });

/** Whether a value shows as zero at `digits` decimals. */
const roundsToZero = (value: number, digits: number) => Math.abs(value) < 0.5 * 10 ** -digits;

/** Decimals for an amount: at least 1000 → 2, at least 1 → 4, otherwise 8. */
export function amountDecimals(value: number | string): number {
  const size = Math.abs(Number(value));
  if (size >= 1000) return 2;
  if (size >= 1) return 4;
  return 8;
}

/** An amount (price, quantity) with the §9 decimals. */
export function formatAmount(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? fixed(v.exact, amountDecimals(v.n), locale) : DASH;
}

/** A price shows 2 decimals (document 1 §9 "price precision 2 decimals"). */
export function formatPrice(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? fixed(v.exact, 2, locale) : DASH;
}

/** Money shows 2 decimals. */
export function formatMoney(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? fixed(v.exact, 2, locale) : DASH;
}

/** Money with 2 decimals and a leading + for gains, as P&L is shown. */
export function formatSignedMoney(value: NumberValue, locale: string): string {
  const v = numeric(value);
  if (!v) return DASH;
  const text = fixed(v.exact, 2, locale);
  return v.n >= 0.005 ? `+${text}` : text;
}

/** Balances show 4 decimals (document 1 §9). */
export function formatBalance(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? numberText(v.exact, locale, { minDecimals: 4, maxDecimals: 4 }) : DASH;
}

/** Money with at most 2 decimals and no trailing zeros (limits and ranges: "1,000", "0.5"). */
export function formatMoneyLimit(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? numberText(v.exact, locale, { minDecimals: 0, maxDecimals: 2 }) : DASH;
}

/** A count or round amount with the locale's grouping ("10,000"), up to 3 decimals. */
export function formatGrouped(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? numberText(v.exact, locale, { minDecimals: 0, maxDecimals: 3 }) : DASH;
}

/** A value already in percent, with 2 decimals and a % sign (sign shown when asked). */
export function formatPercent(value: NumberValue, locale: string, withSign = false): string {
  const v = numeric(value);
  if (!v) return DASH;
  const text = `${fixed(v.exact, 2, locale)}%`;
  return withSign && v.n > 0 && !roundsToZero(v.n, 2) ? `+${text}` : text;
}

/** A rate already in percent with at most one decimal ("12.5%"). */
export function formatRate(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? `${numberText(v.exact, locale, { minDecimals: 0, maxDecimals: 1 })}%` : DASH;
}

/** A plain ratio (Sharpe, profit factor) with 2 decimals. */
export function formatRatio(value: NumberValue, locale: string): string {
  const v = numeric(value);
  return v ? fixed(v.exact, 2, locale) : DASH;
}

/**
 * A figure with fixed decimals and no grouping, as the copy simulator and the optimisation
 * table show theirs ("1234.50"); `sign` adds a + to a positive value. It rounds as toFixed
 * does (from the binary value), which these screens have always shown.
 */
export function formatPlain(
  value: NumberValue,
  digits: number,
  sign: 'withSign' | 'plain' = 'plain',
): string {
  const v = numeric(value);
  if (!v) return DASH;
  const text = v.n.toFixed(digits);
  return sign === 'withSign' && v.n > 0 ? `+${text}` : text;
}

/**
 * A coin amount (decimal string) with 2 to 8 decimals (0.5 → "0.50", 100 → "100.00"). Intl
 * formats the numeric string exactly, so no value passes through a float.
 */
export function formatCoinAmount(value: DecimalText, locale: string): string {
  if (value === null || value === undefined || !DECIMAL_PATTERN.test(value.trim())) return DASH;
  return numberText(value.trim(), locale, { minDecimals: 2, maxDecimals: 8 });
}

/** A decimal string of USDT with 2 decimals; a text that is not a number is shown as it is. */
export function formatUsdt(value: DecimalText, locale: string): string {
  if (value === null || value === undefined || value === '') return DASH;
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  return numberText(number, locale, { minDecimals: 2, maxDecimals: 2 });
}

/** A quantity or price (decimal string) with the §9 decimals for its size, no trailing zeros. */
export function formatDecimal(value: DecimalText, locale: string): string {
  if (value === null || value === undefined || value === '') return DASH;
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  return numberText(number, locale, { minDecimals: 0, maxDecimals: amountDecimals(number) });
}

/**
 * A number abbreviated with k and M (document 2 §9): 950 → "950", 1234 → "1.2k",
 * 2_500_000 → "2.5M". Below 1000 it keeps up to `smallDigits` decimals.
 */
export function abbreviateNumber(raw: NumberValue, locale: string, smallDigits = 2): string {
  const value = numeric(raw)?.n;
  if (value === undefined) return DASH;
  const size = Math.abs(value);
  const format = (n: number, digits: number) =>
    numberText(n, locale, { minDecimals: 0, maxDecimals: digits, signDisplay: 'negative' });
  if (size >= 1_000_000) return `${format(value / 1_000_000, 1)}M`;
  // 999,950 would round to "1,000k": it is shown as 1M instead.
  if (size >= 1000) {
    const thousands = Math.round((value / 1000) * 10) / 10;
    if (Math.abs(thousands) >= 1000) return `${format(value / 1_000_000, 1)}M`;
    return `${format(thousands, 1)}k`;
  }
  return format(value, smallDigits);
}
