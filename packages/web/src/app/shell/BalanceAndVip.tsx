import { WalletOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { theme } from 'antd';
import { type CSSProperties, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi, authKeys } from '../../api/auth';
import { useIsLoggedIn } from '../../api/tokens';
import {
  PENDING_REQUEST_REFRESH_MS,
  refreshCoinLists,
  usePendingCoinRequest,
} from '../../api/wallet';
import { formatUsdt } from '../../shared/format/money';
import { useIsMobile } from '../../shared/ui/use-is-mobile';

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

/**
 * The profile as the header shows it. Wallet actions of this tab refresh it at once; while a
 * deposit or withdrawal awaits staff it is also re-read every 30 s, so a decision taken elsewhere
 * shows up without a reload. When the balance moves, the wallet lists are read again too.
 */
function useLiveProfile() {
  const queryClient = useQueryClient();
  const isLoggedIn = useIsLoggedIn();
  const hasPending = usePendingCoinRequest();
  const query = useQuery({
    queryKey: authKeys.profile(),
    queryFn: ({ signal }) => authApi.profile(signal),
    enabled: isLoggedIn,
    staleTime: 30_000,
    refetchInterval: hasPending ? PENDING_REQUEST_REFRESH_MS : false,
  });
  const balance = query.data?.platform_balance;
  const previous = useRef(balance);
  useEffect(() => {
    if (previous.current !== undefined && balance !== undefined && previous.current !== balance) {
      void refreshCoinLists(queryClient);
    }
    previous.current = balance;
  }, [balance, queryClient]);
  return query.data;
}

/** "N Coins" and the VIP badge of the signed-in user (GET /auth/profile/), kept live. */
export default function BalanceAndVip() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const profile = useLiveProfile();
  const isMobile = useIsMobile();
  if (!profile) return null;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
      <Badge color={token.colorPrimary} testId="coin-balance">
        <WalletOutlined />
        {/* On a phone the wallet icon says "coins": the brand keeps its room in the header. */}
        {isMobile
          ? formatUsdt(profile.platform_balance, i18n.language)
          : t('nav.coins', { amount: formatUsdt(profile.platform_balance, i18n.language) })}
      </Badge>
      {profile.is_vip_active && (
        <Badge color={token.colorWarning} testId="vip-badge">
          {t('nav.vip')}
        </Badge>
      )}
    </span>
  );
}
