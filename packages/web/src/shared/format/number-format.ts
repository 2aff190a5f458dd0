// Number display rules of document 1 §9.

function fixed(value: number, digits: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    // A loss that rounds to zero shows 0.00, never -0.00.
    signDisplay: 'negative',
  }).format(value);
}

/** Whether a value shows as zero at `digits` decimals. */
const roundsToZero = (value: number, digits: number) => Math.abs(value) < 0.5 * 10 ** -digits;

/** Decimals for an amount: at least 1000 → 2, at least 1 → 4, otherwise 8. */
export function amountDecimals(value: number): number {
  const size = Math.abs(value);
  if (size >= 1000) return 2;
  if (size >= 1) return 4;
  return 8;
}

/** An amount (price, quantity) with the §9 decimals; '—' when not a number. */
export function formatAmount(value: number | null | undefined, locale: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return fixed(value, amountDecimals(value), locale);
}

/** A price shows 2 decimals (document 1 §9 "price precision 2 decimals"). */
export function formatPrice(value: number | null | undefined, locale: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return fixed(value, 2, locale);
}

/** Money shows 2 decimals. */
export function formatMoney(value: number | null | undefined, locale: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return fixed(value, 2, locale);
}

/** A value already in percent, with 2 decimals and a % sign (sign shown when asked). */
export function formatPercent(
  value: number | null | undefined,
  locale: string,
  withSign = false,
): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  const text = `${fixed(value, 2, locale)}%`;
  return withSign && value > 0 && !roundsToZero(value, 2) ? `+${text}` : text;
}

/** A plain ratio (Sharpe, profit factor) with 2 decimals. */
export function formatRatio(value: number | null | undefined, locale: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return fixed(value, 2, locale);
}
