import '../i18n/wallet-texts';
import { ReloadOutlined } from '@ant-design/icons';
import { RECENT_DEPOSITS_SHOWN } from '@quantsquare/contracts';
import { Button, Card, Flex, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../api/auth';
import { useDepositInfo, useRecentDeposits } from '../api/wallet';
import { BalancePollNotice } from '../features/wallet/BalancePollNotice';
import { DepositForm } from '../features/wallet/DepositForm';
import { useBalancePoll } from '../features/wallet/use-balance-poll';
import { walletErrorMessage } from '../shared/errors/wallet-errors';
import { PageHeading, RuleList, TwoColumns } from '../shared/ui/PageHeading';
import { QueryErrorAlert } from '../shared/ui/QueryState';
import { TransactionRows } from '../shared/ui/TransactionRows';

/**
 * /deposit (document 2 §2, §4, §5, §8, §9): network choice with its address, QR and minimum,
 * the request form, the 5 latest deposits (every 30 s) and, after a submit, the balance read
 * every 5 s until it rises or 24 reads have passed.
 */
export function DepositPage() {
  const { t } = useTranslation();
  const networks = useDepositInfo();
  const recent = useRecentDeposits(RECENT_DEPOSITS_SHOWN);
  const { data: profile } = useProfile();
  const poll = useBalancePoll();

  const startPolling = () => poll.begin(recent.data?.balance ?? profile?.platform_balance ?? null);

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1120, marginInline: 'auto', width: '100%' }}>
      <PageHeading title={t('deposit.title')} subtitle={t('deposit.subtitle')} />
      <TwoColumns>
        <Card title={t('deposit.form')}>
          <BalancePollNotice state={poll.state} />
          {networks.isPending && <Skeleton active />}
          {networks.isError && (
            <QueryErrorAlert
              query={networks}
              failedText={t('wallet.loadFailed')}
              describe={walletErrorMessage}
            />
          )}
          {networks.data && <DepositForm networks={networks.data} onSubmitted={startPolling} />}
        </Card>
        <Flex vertical gap={16}>
          <Card
            title={t('deposit.recent')}
            extra={
              <Button
                type="text"
                size="small"
                icon={<ReloadOutlined />}
                loading={recent.isFetching}
                onClick={() => void recent.refetch()}
                aria-label={t('wallet.refresh')}
              />
            }
          >
            <TransactionRows
              transactions={recent.data?.transactions}
              isPending={recent.isPending}
              error={recent.error}
              onRetry={() => void recent.refetch()}
              emptyText={t('wallet.empty')}
              testId="recent-deposits"
            />
          </Card>
          <Card title={t('deposit.rulesTitle')} size="small">
            <RuleList
              rules={[
                t('deposit.rules.network'),
                t('deposit.rules.minimum'),
                t('deposit.rules.proof'),
                t('deposit.rules.review'),
              ]}
            />
          </Card>
        </Flex>
      </TwoColumns>
    </Flex>
  );
}
