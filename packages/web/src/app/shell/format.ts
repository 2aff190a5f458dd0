/** Coin balances arrive as decimal strings; shown with two decimals (1 coin = 1 USDT). */
export function formatCoins(value: string, locale: string): string {
  const amount = Number(value);
  if (!Number.isFinite(amount)) return value;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);
}
