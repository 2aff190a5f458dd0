import { LogoutOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAV_ICONS } from './nav-icons';
import { MOBILE_MENU, visibleEntries } from './nav-items';

interface Props {
  open: boolean;
  isStaff: boolean;
  onClose: () => void;
  onSelect: (path: string) => void;
  onLogout: () => void;
}

/**
 * The signed-in user's mobile menu (document 2 §2): deposit, withdraw, account, copy management,
 * signal trading, signal monitoring, API operation log, logout; staff also see the staff
 * console. Loaded on first open.
 */
export default function MobileMenuDrawer({ open, isStaff, onClose, onSelect, onLogout }: Props) {
  const { t } = useTranslation();
  const itemStyle = { justifyContent: 'flex-start', height: 44 } as const;
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
        {visibleEntries(MOBILE_MENU, { isLoggedIn: true, isStaff }).map((entry) => (
          <Button
            key={entry.key}
            role="menuitem"
            type="text"
            block
            icon={NAV_ICONS[entry.key]}
            style={itemStyle}
            onClick={() => onSelect(entry.path)}
            data-testid={`mobile-menu-${entry.key}`}
          >
            {t(`nav.items.${entry.key}`)}
          </Button>
        ))}
        <Button
          role="menuitem"
          type="text"
          danger
          block
          icon={<LogoutOutlined />}
          style={itemStyle}
          onClick={onLogout}
          data-testid="logout"
        >
          {t('nav.logout')}
        </Button>
      </div>
    </Drawer>
  );
}
