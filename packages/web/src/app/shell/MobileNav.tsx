import {
  AppstoreOutlined,
  HomeOutlined,
  LoginOutlined,
  MenuOutlined,
  PlusOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { theme } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useProfile } from '../../api/auth';
import { useIsLoggedIn } from '../../api/tokens';
import { isActive, MOBILE_NAV_HEIGHT_PX, type NavEntry, PATHS, TOP_NAV } from './nav-items';
import { useSignOut } from './use-sign-out';

const MobileMenuDrawer = lazy(() => import('./MobileMenuDrawer'));
const QuickActionsDrawer = lazy(() => import('./QuickActionsDrawer'));

interface NavButtonProps {
  icon: ReactNode;
  label: string;
  active?: boolean;
  onClick: () => void;
  testId: string;
}

function NavButton({ icon, label, active, onClick, testId }: NavButtonProps) {
  const { token } = theme.useToken();
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      aria-current={active ? 'page' : undefined}
      style={{
        flex: 1,
        minWidth: 0,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 2,
        padding: '6px 0',
        background: 'none',
        border: 'none',
        cursor: 'pointer',
        color: active ? token.colorPrimary : token.colorTextSecondary,
        fontSize: 12,
        whiteSpace: 'nowrap',
      }}
    >
      <span style={{ fontSize: 20, lineHeight: 1 }}>{icon}</span>
      <span style={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {label}
      </span>
    </button>
  );
}

/** The raised centre '+' that opens the quick actions. */
function PlusButton({ label, onClick }: { label: string; onClick: () => void }) {
  const { token } = theme.useToken();
  return (
    <div style={{ flex: 1, display: 'flex', justifyContent: 'center' }}>
      <button
        type="button"
        onClick={onClick}
        aria-label={label}
        data-testid="mobile-nav-plus"
        style={{
          width: 48,
          height: 48,
          marginTop: -16,
          borderRadius: '50%',
          border: `3px solid ${token.colorBgContainer}`,
          background: token.colorPrimary,
          color: token.colorWhite,
          fontSize: 22,
          cursor: 'pointer',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          boxShadow: token.boxShadowSecondary,
        }}
      >
        <PlusOutlined />
      </button>
    </div>
  );
}

const byKey = (key: NavEntry['key']) => TOP_NAV.find((e) => e.key === key) as NavEntry;

/**
 * Mobile bottom navigation (≤ 768 px, document 2 §2): Home, Strategy and Help plus Login for
 * visitors; for signed-in users a centre '+' with the quick actions and a Menu.
 */
export default function MobileNav() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isLoggedIn = useIsLoggedIn();
  const { data: profile } = useProfile();
  const signOut = useSignOut();
  const [openDrawer, setOpenDrawer] = useState<'menu' | 'quick' | null>(null);
  // Each drawer's code loads the first time it is opened.
  const [loaded, setLoaded] = useState<{ menu: boolean; quick: boolean }>({
    menu: false,
    quick: false,
  });
  const open = (drawer: 'menu' | 'quick') => {
    setLoaded((current) => ({ ...current, [drawer]: true }));
    setOpenDrawer(drawer);
  };
  const go = (path: string) => {
    setOpenDrawer(null);
    navigate(path);
  };
  const tab = (key: 'home' | 'strategySquare' | 'helpCenter', icon: ReactNode, label: string) => {
    const entry = byKey(key);
    return (
      <NavButton
        testId={`mobile-nav-${key}`}
        icon={icon}
        label={label}
        active={isActive(entry, pathname)}
        onClick={() => go(entry.path)}
      />
    );
  };

  return (
    <>
      <nav
        aria-label={t('nav.mainNavigation')}
        data-testid="mobile-nav"
        style={{
          position: 'fixed',
          insetInline: 0,
          bottom: 0,
          zIndex: 100,
          height: `calc(${MOBILE_NAV_HEIGHT_PX}px + env(safe-area-inset-bottom))`,
          display: 'flex',
          alignItems: 'stretch',
          background: token.colorBgContainer,
          borderTop: `1px solid ${token.colorBorderSecondary}`,
          paddingBottom: 'env(safe-area-inset-bottom)',
        }}
      >
        {tab('home', <HomeOutlined />, t('nav.home'))}
        {tab('strategySquare', <AppstoreOutlined />, t('nav.strategy'))}
        {isLoggedIn && <PlusButton label={t('nav.quickActions')} onClick={() => open('quick')} />}
        {tab('helpCenter', <QuestionCircleOutlined />, t('nav.help'))}
        {isLoggedIn ? (
          <NavButton
            testId="mobile-menu"
            icon={<MenuOutlined />}
            label={t('nav.menu')}
            active={openDrawer === 'menu'}
            onClick={() => open('menu')}
          />
        ) : (
          <NavButton
            testId="mobile-nav-login"
            icon={<LoginOutlined />}
            label={t('nav.login')}
            active={pathname === PATHS.login || pathname === PATHS.register}
            onClick={() => go(PATHS.login)}
          />
        )}
      </nav>
      {isLoggedIn && loaded.quick && (
        <Suspense fallback={null}>
          <QuickActionsDrawer
            open={openDrawer === 'quick'}
            onClose={() => setOpenDrawer(null)}
            onSelect={go}
          />
        </Suspense>
      )}
      {isLoggedIn && loaded.menu && (
        <Suspense fallback={null}>
          <MobileMenuDrawer
            open={openDrawer === 'menu'}
            isStaff={profile?.is_staff === true}
            onClose={() => setOpenDrawer(null)}
            onSelect={go}
            onLogout={() => {
              setOpenDrawer(null);
              signOut();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
