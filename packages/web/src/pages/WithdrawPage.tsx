import '../i18n/wallet-texts';
import { ReloadOutlined } from '@ant-design/icons';
import {
  RECENT_WITHDRAWALS_SHOWN,
  WITHDRAW_FEE_USDT,
  WITHDRAW_MIN_AMOUNT,
} from '@quantsquare/contracts';
import { Alert, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTransactions } from '../api/wallet';
import { WithdrawForm } from '../features/wallet/WithdrawForm';
import { walletErrorMessage } from '../shared/errors/wallet-errors';
import { compareDecimal } from '../shared/format/decimal';
import { formatCoinAmount } from '../shared/format/money';
import { PageHeading, RuleList, TwoColumns } from '../shared/ui/PageHeading';
import { QueryErrorAlert } from '../shared/ui/QueryState';
import { TransactionRows } from '../shared/ui/TransactionRows';

/**
 * /withdraw (document 2 §2, §5, §8, §9): the balance, the form with its rules and confirmation,
 * and the 5 latest withdrawals.
 */
export function WithdrawPage() {
  const { t, i18n } = useTranslation();
  const recent = useTransactions({
    page: 1,
    page_size: RECENT_WITHDRAWALS_SHOWN,
    type: 'withdraw',
  });
  const balance = recent.data?.balance;
  const isBelowMinimum =
    balance !== undefined && compareDecimal(balance, WITHDRAW_MIN_AMOUNT) === -1;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1120, marginInline: 'auto', width: '100%' }}>
      <PageHeading title={t('withdraw.title')} subtitle={t('withdraw.subtitle')} />
      <TwoColumns>
        <Card>
          {recent.isPending && <Skeleton active />}
          {recent.isError && !recent.data && (
            <QueryErrorAlert
              query={recent}
              failedText={t('wallet.loadFailed')}
              describe={walletErrorMessage}
            />
          )}
          {balance !== undefined && (
            <>
              <Typography.Text type="secondary">{t('withdraw.balance')}</Typography.Text>
              <div
                style={{
                  fontSize: 28,
                  fontWeight: 600,
                  fontVariantNumeric: 'tabular-nums',
                  marginBottom: 16,
                }}
                data-testid="withdraw-balance"
              >
                {t('wallet.coins', { amount: formatCoinAmount(balance, i18n.language) })}
              </div>
              {isBelowMinimum && (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 16 }}
                  title={t('withdraw.noBalance', { min: WITHDRAW_MIN_AMOUNT })}
                />
              )}
              <WithdrawForm balance={balance} />
            </>
          )}
        </Card>
        <Flex vertical gap={16}>
          <Card
            title={t('withdraw.recent')}
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
              testId="recent-withdrawals"
            />
          </Card>
          <Card title={t('withdraw.rulesTitle')} size="small">
            <RuleList
              rules={[
                t('withdraw.rules.minimum', { min: WITHDRAW_MIN_AMOUNT, fee: WITHDRAW_FEE_USDT }),
                t('withdraw.rules.networks'),
                t('withdraw.rules.debit'),
                t('withdraw.rules.review'),
              ]}
            />
          </Card>
        </Flex>
      </TwoColumns>
    </Flex>
  );
}
