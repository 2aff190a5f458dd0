import type { CurrencyBalance, ExchangeApi } from '@quantsquare/contracts';
import { Alert, Modal, Skeleton, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiBalance } from '../../api/accounts';
import { errorMessage } from '../../api/errors';
import { accountName } from '../../shared/format/account-format';
import { formatBalance } from '../../shared/format/money';
import { ExchangeErrorText, useExchangeErrorKindText } from './ExchangeErrorText';

interface Props {
  api: ExchangeApi | null;
  onClose: () => void;
}

interface BalanceRow extends CurrencyBalance {
  currency: string;
}

/** One API's balance per currency (document 1 §3 "Balance per currency"), 4 decimals. */
export function ApiBalanceModal({ api, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const kindText = useExchangeErrorKindText();
  const balance = useApiBalance(api?.id ?? null);
  const locale = i18n.language;
  const answer = balance.data;
  const rows: BalanceRow[] = answer?.success
    ? Object.entries(answer.balance)
        .map(([currency, amounts]) => ({ currency, ...amounts }))
        .sort((a, b) => (a.currency === 'USDT' ? -1 : b.currency === 'USDT' ? 1 : 0))
    : [];
  const failure = balance.isError
    ? errorMessage(t, balance.error, t('apis.messages.balanceFailed'))
    : answer && !answer.success
      ? kindText(answer.error_kind)
      : null;

  const amount = (field: 'total' | 'free' | 'used') => ({
    title: t(`apis.balance.${field}`),
    dataIndex: field,
    key: field,
    align: 'right' as const,
    render: (value: number, row: BalanceRow) => (
      <span
        data-testid={row.currency === 'USDT' ? `api-balance-usdt-${field}` : undefined}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {formatBalance(value, locale)}
      </span>
    ),
  });

  return (
    <Modal
      open={api !== null}
      title={
        api ? t('apis.balance.title', { name: accountName(api, t('apis.experienceName')) }) : ''
      }
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="api-balance-modal">
        {balance.isPending && <Skeleton active paragraph={{ rows: 2 }} />}
        {failure && (
          <Alert
            type="error"
            showIcon
            title={failure}
            description={
              answer && !answer.success ? (
                <ExchangeErrorText kind={answer.error_kind} detail={answer.message} detailsOnly />
              ) : undefined
            }
            data-testid="api-balance-error"
          />
        )}
        {answer?.success && (
          <Table<BalanceRow>
            size="small"
            rowKey="currency"
            pagination={false}
            dataSource={rows}
            locale={{ emptyText: t('apis.balance.empty') }}
            scroll={{ x: 'max-content' }}
            columns={[
              {
                title: t('apis.balance.currency'),
                dataIndex: 'currency',
                key: 'currency',
              },
              amount('total'),
              amount('free'),
              amount('used'),
            ]}
          />
        )}
      </div>
    </Modal>
  );
}
