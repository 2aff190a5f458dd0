/** Daily P&L days run in UTC+8 (the product's time zone): a day starts at 16:00 UTC. */
const UTC8_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The start (as a UTC instant) of the UTC+8 day containing `at`. */
export function tradingDayStart(at: Date): Date {
  const shifted = at.getTime() + UTC8_OFFSET_MS;
  return new Date(Math.floor(shifted / DAY_MS) * DAY_MS - UTC8_OFFSET_MS);
}
