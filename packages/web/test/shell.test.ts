import { describe, expect, it } from 'vitest';
import { NO_SITE_LINKS, safeWebUrl, toSiteLinks } from '../src/api/site';
import { displayName } from '../src/app/shell/display-name';
import {
  isActive,
  MOBILE_MENU,
  QUICK_ACTIONS,
  TOP_NAV,
  USER_MENU,
  visibleEntries,
} from '../src/app/shell/nav-items';

const keys = (entries: readonly { key: string }[]) => entries.map((e) => e.key);
const paths = (entries: readonly { path: string }[]) => entries.map((e) => e.path);

describe('shell navigation (document 2 §2)', () => {
  it('shows the management centre only when signed in', () => {
    expect(keys(visibleEntries(TOP_NAV, { isLoggedIn: false, isStaff: false }))).toEqual([
      'home',
      'strategySquare',
      'helpCenter',
    ]);
    expect(paths(visibleEntries(TOP_NAV, { isLoggedIn: true, isStaff: false }))).toEqual([
      '/dashboard',
      '/strategy-square',
      '/my/account',
      '/help-center',
    ]);
  });

  it('lists the user menu in the spec order, with the staff console for staff only', () => {
    const user = visibleEntries(USER_MENU, { isLoggedIn: true, isStaff: false });
    expect(paths(user)).toEqual([
      '/deposit',
      '/withdraw',
      '/my/account',
      '/my/copy-trading',
      '/my/api-management',
      '/my/security',
      '/my/profile',
    ]);
    const staff = visibleEntries(USER_MENU, { isLoggedIn: true, isStaff: true });
    expect(paths(staff).at(-1)).toBe('/staff');
  });

  it('has the four quick actions and the mobile menu entries with their routes', () => {
    expect(paths(QUICK_ACTIONS)).toEqual([
      '/my/strategies/create',
      '/strategy-square',
      '/deposit',
      '/withdraw',
    ]);
    expect(paths(visibleEntries(MOBILE_MENU, { isLoggedIn: true, isStaff: false }))).toEqual([
      '/deposit',
      '/withdraw',
      '/my/account',
      '/my/copy-trading',
      '/webhook-trading',
      '/webhook-trading/signals',
      '/dashboard#operation-log',
    ]);
  });

  it('marks the entry whose area the page is in', () => {
    const [home, square, centre, help] = TOP_NAV;
    if (!home || !square || !centre || !help) throw new Error('top nav incomplete');
    expect(isActive(home, '/dashboard')).toBe(true);
    expect(isActive(square, '/strategy/12')).toBe(true);
    expect(isActive(centre, '/my/security')).toBe(true);
    expect(isActive(centre, '/my')).toBe(true);
    expect(isActive(centre, '/mystery')).toBe(false);
    expect(isActive(help, '/dashboard')).toBe(false);
  });
});

describe('the signed-in name in the header', () => {
  it('masks the middle four digits of a phone user', () => {
    expect(displayName({ username: '13800138000', phone: '13800138000', nickname: '' })).toBe(
      '138****8000',
    );
  });

  it('shows a nickname or an e-mail username as they are', () => {
    expect(displayName({ username: '13800138000', phone: '13800138000', nickname: 'Ann' })).toBe(
      'Ann',
    );
    expect(displayName({ username: 'a@example.com', phone: null, nickname: ' ' })).toBe(
      'a@example.com',
    );
    expect(displayName(undefined)).toBe('');
  });
});

describe('site links', () => {
  it('keeps only http(s) links and a plain e-mail address', () => {
    expect(
      toSiteLinks({
        support_email: 'support@example.com',
        telegram_url: 'https://t.me/example',
        x_url: 'javascript:alert(1)',
        website_url: 'ftp://example.com',
      }),
    ).toEqual({
      supportEmail: 'support@example.com',
      telegramUrl: 'https://t.me/example',
      xUrl: null,
      websiteUrl: null,
    });
    expect(safeWebUrl('http://example.com/a')).toBe('http://example.com/a');
    expect(safeWebUrl('not a url')).toBeNull();
  });

  it('gives no links for a missing or malformed answer', () => {
    expect(toSiteLinks(null)).toEqual(NO_SITE_LINKS);
    expect(toSiteLinks('oops')).toEqual(NO_SITE_LINKS);
    expect(toSiteLinks({ telegram_url: 42, support_email: 'not an address' })).toEqual(
      NO_SITE_LINKS,
    );
  });
});
