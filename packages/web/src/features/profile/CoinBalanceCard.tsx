import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { RECENT_TRANSACTIONS_SHOWN } from '@quantsquare/contracts';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTransactions } from '../../api/wallet';
import { formatCoinAmount } from '../../shared/format/money';
import { TransactionRows } from '../../shared/ui/TransactionRows';

/** The platform coin balance with Deposit and Withdraw links and the 5 latest transactions. */
export function CoinBalanceCard() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const latest = useTransactions({ page: 1, page_size: RECENT_TRANSACTIONS_SHOWN });
  const balance = latest.data?.balance;
  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <div>
          <Typography.Text type="secondary">{t('coinBalance.title')}</Typography.Text>
          <div
            style={{ fontSize: 26, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
            data-testid="profile-coin-balance"
          >
            {balance === undefined
              ? '—'
              : t('wallet.coins', { amount: formatCoinAmount(balance, i18n.language) })}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('wallet.rate')}
          </Typography.Text>
        </div>
        <Flex gap={8}>
          <Button
            type="primary"
            icon={<ArrowDownOutlined />}
            onClick={() => navigate('/deposit')}
            data-testid="profile-deposit"
          >
            {t('coinBalance.deposit')}
          </Button>
          <Button
            icon={<ArrowUpOutlined />}
            onClick={() => navigate('/withdraw')}
            data-testid="profile-withdraw"
          >
            {t('coinBalance.withdraw')}
          </Button>
        </Flex>
      </Flex>
      <Typography.Text strong>{t('coinBalance.recent')}</Typography.Text>
      <TransactionRows
        transactions={latest.data?.transactions}
        isPending={latest.isPending}
        error={latest.error}
        onRetry={() => void latest.refetch()}
        emptyText={t('wallet.empty')}
        testId="profile-transactions"
      />
    </Flex>
  );
}
