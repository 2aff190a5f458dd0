import { ApiOutlined, LogoutOutlined, SafetyOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import { useTranslation } from 'react-i18next';

export type MobileMenuKey = 'accounts' | 'apiManagement' | 'security' | 'logout';

interface Props {
  open: boolean;
  onClose: () => void;
  onSelect: (key: MobileMenuKey) => void;
}

/**
 * The signed-in user's mobile menu (exchange accounts, API management, account security,
 * logout), loaded on first open.
 */
export default function MobileMenuDrawer({ open, onClose, onSelect }: Props) {
  const { t } = useTranslation();
  const itemStyle = { justifyContent: 'flex-start', height: 48 } as const;
  return (
    <Drawer
      placement="bottom"
      size="auto"
      open={open}
      onClose={onClose}
      title={t('nav.menu')}
      styles={{ body: { padding: 8 } }}
    >
      <div role="menu" style={{ display: 'flex', flexDirection: 'column' }}>
        <Button
          role="menuitem"
          type="text"
          block
          icon={<WalletOutlined />}
          style={itemStyle}
          onClick={() => onSelect('accounts')}
        >
          <span data-testid="mobile-menu-accounts">{t('nav.exchangeAccounts')}</span>
        </Button>
        <Button
          role="menuitem"
          type="text"
          block
          icon={<ApiOutlined />}
          style={itemStyle}
          onClick={() => onSelect('apiManagement')}
        >
          <span data-testid="mobile-menu-api-management">{t('nav.apiManagement')}</span>
        </Button>
        <Button
          role="menuitem"
          type="text"
          block
          icon={<SafetyOutlined />}
          style={itemStyle}
          onClick={() => onSelect('security')}
        >
          <span data-testid="mobile-menu-security">{t('nav.accountSecurity')}</span>
        </Button>
        <Button
          role="menuitem"
          type="text"
          danger
          block
          icon={<LogoutOutlined />}
          style={itemStyle}
          onClick={() => onSelect('logout')}
        >
          <span data-testid="logout">{t('nav.logout')}</span>
        </Button>
      </div>
    </Drawer>
  );
}
