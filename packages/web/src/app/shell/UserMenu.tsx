import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useProfile } from '../../api/auth';
import { displayName } from './display-name';
import { NAV_ICONS } from './nav-icons';
import { USER_MENU, visibleEntries } from './nav-items';
import { PopoverMenu } from './PopoverMenu';
import { useSignOut } from './use-sign-out';

const LOGOUT_KEY = 'logout';

/**
 * Desktop user menu (document 2 §2): deposit, withdraw, exchange accounts, copy management, API
 * management, account security, VIP, the staff console for staff, and logout.
 */
export default function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: profile } = useProfile();
  const signOut = useSignOut();
  const { token } = theme.useToken();
  const entries = visibleEntries(USER_MENU, {
    isLoggedIn: true,
    isStaff: profile?.is_staff === true,
  });
  return (
    <PopoverMenu
      placement="bottomRight"
      items={[
        ...entries.map((entry) => ({
          key: entry.key,
          icon: NAV_ICONS[entry.key],
          label: <span data-testid={`user-menu-${entry.key}`}>{t(`nav.items.${entry.key}`)}</span>,
        })),
        {
          key: LOGOUT_KEY,
          icon: <LogoutOutlined />,
          danger: true,
          label: <span data-testid="logout">{t('nav.logout')}</span>,
        },
      ]}
      onSelect={(key) => {
        if (key === LOGOUT_KEY) {
          signOut();
          return;
        }
        const entry = entries.find((e) => e.key === key);
        if (entry) navigate(entry.path);
      }}
    >
      <Button
        type="text"
        aria-label={t('nav.userMenu')}
        data-testid="user-menu"
        style={{ paddingInline: 6 }}
      >
        <span
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            width: 24,
            height: 24,
            borderRadius: '50%',
            overflow: 'hidden',
            background: token.colorFillSecondary,
          }}
        >
          {profile?.avatar_url ? (
            <img src={profile.avatar_url} alt="" width={24} height={24} />
          ) : (
            <UserOutlined />
          )}
        </span>
        <span className="qs-user-name" data-testid="user-name">
          {displayName(profile)}
        </span>
      </Button>
    </PopoverMenu>
  );
}
