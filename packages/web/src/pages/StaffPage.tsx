import '../i18n/wallet-texts';
import { LockOutlined } from '@ant-design/icons';
import { Button, Card, Result, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useProfile } from '../api/auth';
import { StaffQueue } from '../features/staff/StaffQueue';
import { walletErrorMessage } from '../shared/errors/wallet-errors';
import { PageHeading } from '../shared/ui/PageHeading';
import { QueryErrorAlert } from '../shared/ui/QueryState';

/**
 * /staff: the review queues of deposits and withdrawals (issue 10). A signed-in user who is not
 * staff sees a refusal; the server refuses their calls (403) in any case.
 */
export function StaffPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useProfile();

  if (profile.isPending) {
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  }
  if (profile.isError && !profile.data) {
    return (
      <QueryErrorAlert
        query={profile}
        failedText={t('wallet.loadFailed')}
        describe={walletErrorMessage}
      />
    );
  }
  if (!profile.data?.is_staff) {
    return (
      <div data-testid="staff-refused">
        <Result
          status="403"
          icon={<LockOutlined style={{ fontSize: 64 }} />}
          title={t('staffConsole.refused')}
          subTitle={t('staffConsole.refusedBody')}
          extra={
            <Button type="primary" onClick={() => navigate('/dashboard')}>
              {t('staffConsole.back')}
            </Button>
          }
        />
      </div>
    );
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <PageHeading title={t('staffConsole.title')} subtitle={t('staffConsole.subtitle')} />
      <Card>
        <Tabs
          destroyOnHidden
          items={[
            {
              key: 'deposits',
              label: <span data-testid="staff-tab-deposits">{t('staffConsole.deposits')}</span>,
              children: <StaffQueue queue="deposits" />,
            },
            {
              key: 'withdrawals',
              label: (
                <span data-testid="staff-tab-withdrawals">{t('staffConsole.withdrawals')}</span>
              ),
              children: <StaffQueue queue="withdrawals" />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
