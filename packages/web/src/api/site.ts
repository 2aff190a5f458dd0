import { useQuery } from '@tanstack/react-query';
import { api } from './client';

// The operators' public links (footer and help centre contact), configured on the server and
// answered by GET /api/help/contact/. Nothing is hard-coded here: a link the server does not
// give is simply not shown.

/** GET /help/contact/ as answered. */
export interface SiteContact {
  support_email: string | null;
  telegram_url: string | null;
  x_url: string | null;
  website_url: string | null;
}

/** The links the app may show: only http(s) addresses and a plain e-mail address. */
export interface SiteLinks {
  supportEmail: string | null;
  telegramUrl: string | null;
  xUrl: string | null;
  websiteUrl: string | null;
}

export const NO_SITE_LINKS: SiteLinks = {
  supportEmail: null,
  telegramUrl: null,
  xUrl: null,
  websiteUrl: null,
};

const SITE_LINKS_STALE_MS = 10 * 60_000;

/** An absolute http(s) URL, or null (anything else, e.g. `javascript:`, is never a link). */
export function safeWebUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function safeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  return /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email) ? email : null;
}

/** The answer's links, each checked; a missing or malformed answer gives no links. */
export function toSiteLinks(answer: unknown): SiteLinks {
  if (typeof answer !== 'object' || answer === null) return NO_SITE_LINKS;
  const a = answer as Partial<Record<keyof SiteContact, unknown>>;
  return {
    supportEmail: safeEmail(a.support_email),
    telegramUrl: safeWebUrl(a.telegram_url),
    xUrl: safeWebUrl(a.x_url),
    websiteUrl: safeWebUrl(a.website_url),
  };
}

export const siteKeys = {
  all: ['site'] as const,
  links: () => [...siteKeys.all, 'links'] as const,
};

export const siteApi = {
  contact: (signal?: AbortSignal) => api.get<SiteContact>('/help/contact/', signal),
};

/**
 * The site's public links. Until the server answers them (or when it fails) the result is
 * NO_SITE_LINKS: the links are left out, with no error shown and no retry storm.
 */
export function useSiteLinks(): SiteLinks {
  const query = useQuery({
    queryKey: siteKeys.links(),
    queryFn: async ({ signal }) => toSiteLinks(await siteApi.contact(signal)),
    staleTime: SITE_LINKS_STALE_MS,
    retry: false,
  });
  return query.data ?? NO_SITE_LINKS;
}
