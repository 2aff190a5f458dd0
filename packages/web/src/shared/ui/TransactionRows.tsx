import type { TransactionType, WalletTransaction } from '@quantsquare/contracts';
import { Alert, Button, Empty, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { walletErrorMessage } from '../errors/wallet-errors';
import { formatUtc8 } from '../format/bot-format';
import { formatCoinAmount } from '../format/money';
import {
  depositProof,
  explorerTxUrl,
  shortHash,
  signedAmount,
  statusColor,
} from '../format/wallet-format';

interface TransactionRowsProps {
  transactions: readonly WalletTransaction[] | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  emptyText: string;
  testId: string;
}

const NOTE_TYPES: ReadonlySet<TransactionType> = new Set(['deposit', 'withdraw', 'adjustment']);

function Detail({ transaction }: { transaction: WalletTransaction }) {
  const { t, i18n } = useTranslation();
  const parts: string[] = [];
  if (transaction.network) parts.push(t(`wallet.networks.${transaction.network}`));
  if (transaction.type === 'deposit') {
    const proof = depositProof(transaction);
    if (proof) parts.push(shortHash(proof));
  }
  if (transaction.type === 'withdraw') {
    if (transaction.address) parts.push(shortHash(transaction.address));
    parts.push(
      t('wallet.receives', { amount: formatCoinAmount(transaction.net_amount, i18n.language) }),
    );
  }
  // Notes people wrote (a staff reason, a support correction) are shown as written; the ones the
  // server composes for other rows are not, as they would read in English only.
  const note = NOTE_TYPES.has(transaction.type) ? transaction.note : null;
  // The payout's hash staff entered on completion, linked to the network's explorer.
  const payoutHash = transaction.type === 'withdraw' ? transaction.tx_hash : null;
  const payoutUrl = explorerTxUrl(transaction.network, payoutHash);
  if (parts.length === 0 && !note && !payoutHash) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
      {parts.join(' · ')}
      {payoutHash && (
        <>
          {parts.length > 0 && ' · '}
          {t('wallet.payoutTxid')}{' '}
          {payoutUrl ? (
            <Typography.Link
              href={payoutUrl}
              target="_blank"
              rel="noopener noreferrer"
              title={payoutHash}
              style={{ fontSize: 12 }}
              data-testid="withdraw-txid"
            >
              {shortHash(payoutHash)}
            </Typography.Link>
          ) : (
            <span title={payoutHash} data-testid="withdraw-txid">
              {shortHash(payoutHash)}
            </span>
          )}
        </>
      )}
      {note && (
        <>
          {(parts.length > 0 || payoutHash) && ' · '}
          <span data-testid="transaction-note">{note}</span>
        </>
      )}
    </Typography.Text>
  );
}

/**
 * A short list of ledger rows (recent deposits, withdrawals, latest transactions): type, time,
 * signed amount, status, and the row's network, proof, address or note. Fits 375 px.
 */
export function TransactionRows({
  transactions,
  isPending,
  error,
  onRetry,
  emptyText,
  testId,
}: TransactionRowsProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  if (isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (error && !transactions) {
    return (
      <Alert
        type="error"
        showIcon
        title={walletErrorMessage(t, error, t('wallet.loadFailed'))}
        action={
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (!transactions || transactions.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={emptyText}
        data-testid={`${testId}-empty`}
      />
    );
  }
  return (
    <div data-testid={testId}>
      {transactions.map((transaction, index) => (
        <Flex
          key={transaction.id}
          justify="space-between"
          align="flex-start"
          gap={12}
          data-testid={`${testId}-row`}
          data-type={transaction.type}
          data-status={transaction.status}
          style={{
            padding: '10px 0',
            borderTop: index === 0 ? undefined : `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Flex vertical gap={2} style={{ minWidth: 0 }}>
            <Typography.Text strong>{t(`wallet.types.${transaction.type}`)}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatUtc8(transaction.created_at)}
            </Typography.Text>
            <Detail transaction={transaction} />
          </Flex>
          <Flex vertical align="flex-end" gap={4} style={{ flexShrink: 0 }}>
            <Typography.Text
              strong
              style={{
                fontVariantNumeric: 'tabular-nums',
                // Only a credit that happened is green; a pending or failed one is not money yet.
                color:
                  transaction.status === 'failed'
                    ? token.colorTextTertiary
                    : transaction.direction === 'credit' && transaction.status === 'completed'
                      ? token.colorSuccess
                      : token.colorText,
                textDecoration: transaction.status === 'failed' ? 'line-through' : undefined,
              }}
              data-testid={`${testId}-amount`}
            >
              {signedAmount(transaction, i18n.language)}
            </Typography.Text>
            <Tag color={statusColor(transaction.status)} style={{ marginInlineEnd: 0 }}>
              {t(`wallet.statuses.${transaction.status}`)}
            </Tag>
          </Flex>
        </Flex>
      ))}
    </div>
  );
}
