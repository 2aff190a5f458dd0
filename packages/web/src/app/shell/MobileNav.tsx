import { HomeOutlined, LoginOutlined, MenuOutlined, UserAddOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLogout } from '../../api/auth';
import { useIsLoggedIn } from '../../api/tokens';

const MobileMenuDrawer = lazy(() => import('./MobileMenuDrawer'));

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
      }}
    >
      <span style={{ fontSize: 20, lineHeight: 1 }}>{icon}</span>
      {label}
    </button>
  );
}

/** Mobile bottom navigation (≤ 768 px): Home plus Login/Register, or Home plus a Menu drawer. */
export function MobileNav() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isLoggedIn = useIsLoggedIn();
  const logout = useLogout();
  const [isMenuOpen, setMenuOpen] = useState(false);
  // The drawer's code loads the first time the menu is opened.
  const [hasOpenedMenu, setHasOpenedMenu] = useState(false);

  return (
    <>
      <nav
        aria-label={t('nav.mainNavigation')}
        style={{
          position: 'fixed',
          insetInline: 0,
          bottom: 0,
          zIndex: 100,
          display: 'flex',
          background: token.colorBgContainer,
          borderTop: `1px solid ${token.colorBorderSecondary}`,
          paddingBottom: 'env(safe-area-inset-bottom)',
        }}
      >
        <NavButton
          testId="mobile-nav-home"
          icon={<HomeOutlined />}
          label={t('nav.home')}
          active={pathname === '/dashboard'}
          onClick={() => navigate('/dashboard')}
        />
        {isLoggedIn ? (
          <NavButton
            testId="mobile-menu"
            icon={<MenuOutlined />}
            label={t('nav.menu')}
            active={isMenuOpen}
            onClick={() => {
              setHasOpenedMenu(true);
              setMenuOpen(true);
            }}
          />
        ) : (
          <>
            <NavButton
              testId="mobile-nav-login"
              icon={<LoginOutlined />}
              label={t('nav.login')}
              active={pathname === '/login'}
              onClick={() => navigate('/login')}
            />
            <NavButton
              testId="mobile-nav-register"
              icon={<UserAddOutlined />}
              label={t('nav.register')}
              active={pathname === '/register'}
              onClick={() => navigate('/register')}
            />
          </>
        )}
      </nav>
      {hasOpenedMenu && (
        <Suspense fallback={null}>
          <MobileMenuDrawer
            open={isMenuOpen}
            onClose={() => setMenuOpen(false)}
            onSelect={(key) => {
              setMenuOpen(false);
              if (key === 'accounts') navigate('/my/account');
              if (key === 'apiManagement') navigate('/my/api-management');
              if (key === 'security') navigate('/my/security');
              if (key === 'logout')
                logout.mutate(undefined, { onSettled: () => navigate('/login') });
            }}
          />
        </Suspense>
      )}
    </>
  );
}
