import type { AnnouncementType } from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { relativeTime } from './relative-time';

/** antd Tag colours of the three announcement types. */
export const TYPE_COLORS: Record<AnnouncementType, string> = {
  normal: 'blue',
  important: 'red',
  maintenance: 'orange',
};

/** "Just now", "5 minutes ago"… or a zh-CN date, in the reader's language. */
export function publishedText(t: TFunction, at: string, nowMs: number): string {
  const time = relativeTime(at, nowMs);
  switch (time.unit) {
    case 'justNow':
      return t('helpCenter.announcements.time.justNow');
    case 'minutes':
      return t('helpCenter.announcements.time.minutes', { count: time.count });
    case 'hours':
      return t('helpCenter.announcements.time.hours', { count: time.count });
    case 'days':
      return t('helpCenter.announcements.time.days', { count: time.count });
    case 'date':
      return time.text;
  }
}

/**
 * The current time, moved on every `intervalMs` so relative times stay true on an open page
 * (10 s: "just now" turns into "1 minute ago" at most 10 s late).
 */
export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
