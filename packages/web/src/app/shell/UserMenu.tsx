import {
  ApiOutlined,
  LogoutOutlined,
  SafetyOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout, useProfile } from '../../api/auth';
import { displayName } from './display-name';
import { PopoverMenu } from './PopoverMenu';

/**
 * Desktop user menu: only entries whose screens work (exchange accounts, API management,
 * account security, logout), in document 2's order.
 */
export default function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: profile } = useProfile();
  const logout = useLogout();
  const { token } = theme.useToken();
  return (
    <PopoverMenu
      placement="bottomRight"
      items={[
        {
          key: 'accounts',
          icon: <WalletOutlined />,
          label: <span data-testid="user-menu-accounts">{t('nav.exchangeAccounts')}</span>,
        },
        {
          key: 'apiManagement',
          icon: <ApiOutlined />,
          label: <span data-testid="user-menu-api-management">{t('nav.apiManagement')}</span>,
        },
        {
          key: 'security',
          icon: <SafetyOutlined />,
          label: <span data-testid="user-menu-security">{t('nav.accountSecurity')}</span>,
        },
        {
          key: 'logout',
          icon: <LogoutOutlined />,
          danger: true,
          label: <span data-testid="logout">{t('nav.logout')}</span>,
        },
      ]}
      onSelect={(key) => {
        if (key === 'accounts') navigate('/my/account');
        if (key === 'apiManagement') navigate('/my/api-management');
        if (key === 'security') navigate('/my/security');
        if (key === 'logout') logout.mutate(undefined, { onSettled: () => navigate('/login') });
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
        <span className="qs-user-name">{displayName(profile)}</span>
      </Button>
    </PopoverMenu>
  );
}
