import { WalletOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/auth';
import { formatCoins } from './format';

function Badge({
  color,
  testId,
  children,
}: {
  color: string;
  testId: string;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  const style: CSSProperties = {
    display: 'inline-flex',
    alignItems: 'center',
    gap: 4,
    padding: '0 7px',
    fontSize: 12,
    lineHeight: '20px',
    borderRadius: token.borderRadiusSM,
    color,
    border: `1px solid ${color}`,
    background: token.colorFillQuaternary,
  };
  return (
    <span data-testid={testId} style={style}>
      {children}
    </span>
  );
}

/** "N Coins" and the VIP badge of the signed-in user (GET /auth/profile/). */
export default function BalanceAndVip() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { data: profile } = useProfile();
  if (!profile) return null;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
      <Badge color={token.colorPrimary} testId="coin-balance">
        <WalletOutlined />
        {t('nav.coins', { amount: formatCoins(profile.platform_balance, i18n.language) })}
      </Badge>
      {profile.is_vip_active && (
        <Badge color={token.colorWarning} testId="vip-badge">
          {t('nav.vip')}
        </Badge>
      )}
    </span>
  );
}
