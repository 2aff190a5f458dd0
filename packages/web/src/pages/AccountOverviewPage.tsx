import '../i18n/accounts-texts';
import { ApiOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccountsOverview, useRefreshAccount } from '../api/accounts';
import { errorMessage } from '../api/errors';
import { AccountCard } from '../features/accounts/AccountCard';
import { pnlTone } from '../shared/format/account-format';
import { formatMoney, formatPercent, formatSignedMoney } from '../shared/format/money';
import { QueryErrorAlert } from '../shared/ui/QueryState';

function Total({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card size="small" style={{ flex: '1 1 160px', minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <div style={{ fontSize: 22, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </div>
    </Card>
  );
}

/** /my/account: every exchange account with totals, refreshed every 30 s (document 1 §2, §4). */
export function AccountOverviewPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const overview = useAccountsOverview();
  const refresh = useRefreshAccount();
  const locale = i18n.language;
  const data = overview.data;
  // Counted by the server: enabled accounts whose latest check (this load) succeeded.
  const activeCount = data?.total.active_count ?? 0;
  const totalTone = data ? pnlTone(data.total.daily_pnl) : 'flat';
  const totalColor =
    totalTone === 'up' ? token.colorSuccess : totalTone === 'down' ? token.colorError : undefined;

  const retry = (id: number) =>
    refresh.mutate(id, {
      onError: (error) => void message.error(errorMessage(t, error, t('accounts.retryFailed'))),
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('accounts.title')}
        </Typography.Title>
        <Button
          icon={<ReloadOutlined />}
          loading={overview.isFetching}
          onClick={() => void overview.refetch()}
          data-testid="accounts-refresh"
        >
          {t('accounts.refresh')}
        </Button>
      </Flex>
      {overview.isPending && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {overview.isError && !data && (
        <QueryErrorAlert query={overview} failedText={t('accounts.loadFailed')} />
      )}
      {data && (
        <Flex gap={12} wrap>
          <Total label={t('accounts.totalBalance')}>
            <span data-testid="accounts-total-balance">
              {formatMoney(data.total.balance, locale)}
            </span>
          </Total>
          <Total label={t('accounts.dailyPnl')}>
            <span style={{ color: totalColor }} data-testid="accounts-daily-pnl">
              {formatSignedMoney(data.total.daily_pnl, locale)}
            </span>
            <span style={{ color: totalColor, fontSize: 14, marginInlineStart: 8 }}>
              {formatPercent(data.total.daily_pnl_percent, locale, true)}
            </span>
          </Total>
          <Total label={t('accounts.activeAccounts')}>
            <span data-testid="accounts-active-count">{activeCount}</span>
          </Total>
        </Flex>
      )}
      {data && data.accounts.length === 0 && (
        <Card>
          <Empty description={t('accounts.empty')} data-testid="accounts-empty">
            <Button
              type="primary"
              icon={<ApiOutlined />}
              onClick={() => navigate('/my/api-management')}
              data-testid="accounts-empty-action"
            >
              {t('accounts.emptyAction')}
            </Button>
          </Empty>
        </Card>
      )}
      {data && data.accounts.length > 0 && (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))',
            gap: 16,
          }}
        >
          {data.accounts.map((account) => (
            <AccountCard
              key={account.id}
              account={account}
              onRetry={retry}
              isRetrying={refresh.isPending && refresh.variables === account.id}
            />
          ))}
        </div>
      )}
    </Flex>
  );
}
