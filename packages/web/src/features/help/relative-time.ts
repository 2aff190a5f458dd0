// How announcements say when they were published (document 2 §9): just now under a minute, then
// minutes, hours and days up to 7 days, then a zh-CN date.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const DAYS_SHOWN = 7;

export type RelativeTime =
  | { readonly unit: 'justNow' }
  | { readonly unit: 'minutes' | 'hours' | 'days'; readonly count: number }
  | { readonly unit: 'date'; readonly text: string };

/** `at` (an ISO time) as seen at `nowMs`; a time slightly ahead of this device's clock is "just now". */
export function relativeTime(at: string, nowMs: number): RelativeTime {
  const time = new Date(at);
  const elapsedMs = nowMs - time.getTime();
  if (Number.isNaN(elapsedMs)) return { unit: 'date', text: at };
  if (elapsedMs < MINUTE_MS) return { unit: 'justNow' };
  if (elapsedMs < HOUR_MS) return { unit: 'minutes', count: Math.floor(elapsedMs / MINUTE_MS) };
  if (elapsedMs < DAY_MS) return { unit: 'hours', count: Math.floor(elapsedMs / HOUR_MS) };
  const days = Math.floor(elapsedMs / DAY_MS);
  if (days < DAYS_SHOWN) return { unit: 'days', count: days };
  return { unit: 'date', text: time.toLocaleDateString('zh-CN') };
}
