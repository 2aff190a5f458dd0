import { Button, theme } from 'antd';
import { type CSSProperties, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useIsLoggedIn } from '../../api/tokens';
import { Spinner } from '../../shared/ui/Spinner';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { useMediaQuery } from '../../shared/ui/use-media-query';
import { AppFooter } from './AppFooter';
import { LanguageSwitch, ThemeToggle } from './HeaderControls';
import { isActive, MOBILE_NAV_HEIGHT_PX, PATHS, TOP_NAV, visibleEntries } from './nav-items';
import { useShellNotice } from './shell-notice';

// Signed-in parts of the header load only for signed-in users.
const BalanceAndVip = lazy(() => import('./BalanceAndVip'));
const UserMenu = lazy(() => import('./UserMenu'));
const ShellNoticeView = lazy(() => import('./ShellNoticeView'));
const NotificationBell = lazy(() => import('../../features/notifications/NotificationBell'));
// The bottom navigation loads on phones only.
const MobileNav = lazy(() => import('./MobileNav'));

const TopNavIcon = lazy(() => import('./TopNavIcon'));

/**
 * Below this width the desktop navigation shows icons (named by title and accessible name), so it
 * never runs under the header's balance, VIP badge and user menu; wider, it shows words only.
 */
const COMPACT_NAV_QUERY = '(max-width: 1240px)';

/** Desktop top navigation: Home, Strategy Square, Management Center (signed in), Help Center. */
function TopNav({ isLoggedIn }: { isLoggedIn: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const isCompact = useMediaQuery(COMPACT_NAV_QUERY);
  return (
    <nav
      aria-label={t('nav.mainNavigation')}
      style={{
        flex: 1,
        minWidth: 0,
        display: 'flex',
        alignItems: 'center',
        gap: 4,
        // Clipped rather than running under the header's controls, whatever the labels' length.
        overflow: 'hidden',
      }}
    >
      {visibleEntries(TOP_NAV, { isLoggedIn, isStaff: false }).map((entry) => {
        const active = isActive(entry, pathname);
        return (
          <Link
            key={entry.key}
            to={entry.path}
            data-testid={`nav-${entry.key}`}
            aria-current={active ? 'page' : undefined}
            title={t(`nav.items.${entry.key}`)}
            aria-label={isCompact ? t(`nav.items.${entry.key}`) : undefined}
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 6,
              padding: isCompact ? '5px 10px' : '5px 12px',
              borderRadius: token.borderRadius,
              whiteSpace: 'nowrap',
              color: active ? token.colorPrimary : token.colorText,
              background: active ? token.colorPrimaryBg : undefined,
            }}
          >
            {isCompact ? (
              <Suspense fallback={<span style={{ width: 14, height: 14 }} />}>
                <TopNavIcon navKey={entry.key} />
              </Suspense>
            ) : (
              t(`nav.items.${entry.key}`)
            )}
          </Link>
        );
      })}
    </nav>
  );
}

/** The shell's notice (e.g. after registering), above the page until closed or timed out. */
function ShellNoticeSlot() {
  const notice = useShellNotice();
  if (!notice) return null;
  return (
    <Suspense fallback={null}>
      <ShellNoticeView key={notice.id} notice={notice} />
    </Suspense>
  );
}

function Logo({ isCompact }: { isCompact: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Link
      to="/dashboard"
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 8,
        color: token.colorText,
        fontWeight: 700,
        fontSize: isCompact ? 16 : 18,
        // On a narrow screen the name gives way (ellipsis) to the header's controls, e.g. a VIP
        // user's coin and VIP badges at 375 px.
        flexShrink: isCompact ? 1 : 0,
        minWidth: 0,
      }}
    >
      <img src="/favicon.svg" alt="" width={26} height={26} style={{ flex: 'none' }} />
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {t('app.name')}
      </span>
    </Link>
  );
}

export function PageFallback() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
      <Spinner />
    </div>
  );
}

/**
 * Application shell (document 2 §2): header with the top navigation, balance, VIP badge and user
 * menu; content; footer; on mobile (≤ 768 px) a bottom navigation instead of the top one.
 */
export function AppShell() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const isLoggedIn = useIsLoggedIn();
  const navigate = useNavigate();

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: token.colorBgLayout,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        ...({
          '--qs-link': token.colorLink,
          '--qs-link-hover': token.colorLinkHover,
          '--qs-link-active': token.colorLinkActive,
        } as CSSProperties),
      }}
    >
      <header
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 100,
          display: 'flex',
          alignItems: 'center',
          gap: isMobile ? 4 : 24,
          paddingInline: isMobile ? 12 : 24,
          height: isMobile ? 52 : 64,
          lineHeight: 'normal',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Logo isCompact={isMobile} />
        {!isMobile && <TopNav isLoggedIn={isLoggedIn} />}
        <div
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: isMobile ? 2 : 8,
            marginInlineStart: 'auto',
            flexShrink: 0,
          }}
        >
          {isLoggedIn && (
            <Suspense fallback={null}>
              <BalanceAndVip />
            </Suspense>
          )}
          {isLoggedIn && (
            <Suspense fallback={null}>
              <NotificationBell />
            </Suspense>
          )}
          <LanguageSwitch />
          <ThemeToggle />
          {!isMobile && isLoggedIn && (
            <Suspense fallback={null}>
              <UserMenu />
            </Suspense>
          )}
          {!isMobile && !isLoggedIn && (
            <>
              <Button onClick={() => navigate(PATHS.login)} data-testid="header-login">
                {t('nav.login')}
              </Button>
              <Button
                type="primary"
                onClick={() => navigate(PATHS.register)}
                data-testid="header-register"
              >
                {t('nav.register')}
              </Button>
            </>
          )}
        </div>
      </header>
      <main
        style={{
          flex: 'auto',
          width: '100%',
          maxWidth: 1200,
          margin: '0 auto',
          padding: isMobile ? '16px 12px' : '24px',
        }}
      >
        <ShellNoticeSlot />
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <div style={{ paddingBottom: isMobile ? MOBILE_NAV_HEIGHT_PX : 0 }}>
        <AppFooter />
      </div>
      {isMobile && (
        <Suspense fallback={null}>
          <MobileNav />
        </Suspense>
      )}
    </div>
  );
}
