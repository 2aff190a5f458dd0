import '../../i18n/wallet-texts';
import {
  ApiOutlined,
  CopyOutlined,
  CrownOutlined,
  ExperimentOutlined,
  LineChartOutlined,
  SafetyOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Card, Menu } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageFallback } from '../../app/shell/AppShell';
import { NAV_ICONS } from '../../app/shell/nav-icons';
import { PATHS } from '../../app/shell/nav-items';
import { useIsMobile } from '../../shared/ui/use-is-mobile';

function selectedKey(pathname: string): string {
  // The webhook logs belong to signal monitoring.
  if (pathname === `${PATHS.signalTrading}/logs`) return PATHS.signalMonitoring;
  return pathname;
}

/**
 * The /my area with its sidebar (document 2), which also frames the webhook screens. Only
 * entries whose screens work are listed.
 */
export function MyLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isMobile = useIsMobile();
  // Document 2's order: account overview, copy management, API management, VIP invitation,
  // account security; profile settings (/my/settings, the target of /profile) before VIP.
  const items = [
    { key: '/my/account', icon: <WalletOutlined />, label: t('my.accountOverview') },
    {
      key: '/my/copy-trading',
      icon: <CopyOutlined />,
      label: t('nav.items.copyManagement'),
    },
    { key: '/my/api-management', icon: <ApiOutlined />, label: t('my.apiManagement') },
    {
      key: '/my/strategy-builder',
      icon: <ExperimentOutlined />,
      label: t('my.strategyBuilder'),
    },
    { key: '/my/optimise', icon: <LineChartOutlined />, label: t('my.optimise') },
    // The webhook screens (signal trading, signal monitoring) join the management centre.
    {
      key: PATHS.signalTrading,
      icon: NAV_ICONS.signalTrading,
      label: t('nav.items.signalTrading'),
    },
    {
      key: PATHS.signalMonitoring,
      icon: NAV_ICONS.signalMonitoring,
      label: t('nav.items.signalMonitoring'),
    },
    { key: '/my/settings', icon: <UserOutlined />, label: t('settings.title') },
    { key: '/my/profile', icon: <CrownOutlined />, label: t('wallet.nav.vipInvitation') },
    { key: '/my/security', icon: <SafetyOutlined />, label: t('my.accountSecurity') },
  ];
  const menu = (
    <Menu
      aria-label={t('my.sidebarLabel')}
      mode={isMobile ? 'horizontal' : 'inline'}
      // On a phone every entry stays visible (the row wraps) instead of folding into
      // '…', which hid the current screen's entry.
      disabledOverflow={isMobile}
      selectedKeys={[selectedKey(pathname)]}
      items={items}
      onClick={({ key }) => navigate(key)}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
      data-testid="my-sidebar"
    />
  );
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: isMobile ? 'column' : 'row',
        gap: isMobile ? 12 : 24,
        alignItems: 'flex-start',
      }}
    >
      {isMobile ? (
        <div style={{ width: '100%' }}>{menu}</div>
      ) : (
        <Card
          size="small"
          style={{ width: 220, flexShrink: 0 }}
          styles={{ body: { padding: 4 } }}
          title={t('my.sidebarLabel')}
        >
          {menu}
        </Card>
      )}
      <div style={{ flex: 1, minWidth: 0, width: '100%' }}>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
