import { ReloadOutlined } from '@ant-design/icons';
import {
  STAFF_PAGE_SIZE_DEFAULT,
  type StaffDecision,
  type StaffRequest,
  type StaffStatusFilter,
} from '@quantsquare/contracts';
import { App, Button, Flex, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { type HTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client';
import { type StaffQueue as Queue, useStaffDecision, useStaffQueue } from '../../api/staff';
import { walletErrorMessage } from '../../shared/errors/wallet-errors';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatCoinAmount } from '../../shared/format/money';
import { depositProof, statusColor } from '../../shared/format/wallet-format';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { type PendingTextDecision, StaffDecisionModal } from './StaffDecisionModal';

const FILTERS: Record<Queue, readonly StaffStatusFilter[]> = {
  deposits: ['pending', 'completed', 'failed', 'all'],
  withdrawals: ['pending', 'processing', 'completed', 'failed', 'all'],
};

function Decisions({ decisions }: { decisions: readonly StaffDecision[] }) {
  const { t } = useTranslation();
  if (decisions.length === 0) return <>{t('staffConsole.noDecisions')}</>;
  return (
    <Flex vertical gap={4} data-testid="staff-decisions">
      {decisions.map((decision) => (
        <div key={decision.id} data-testid="staff-decision" data-action={decision.action}>
          <Typography.Text style={{ fontSize: 12 }}>
            {t('staffConsole.decisionBy', {
              action: t(`staffConsole.decisionNames.${decision.action}`),
              staff: decision.staff_email ?? `#${decision.staff_user_id}`,
              time: formatUtc8(decision.created_at),
            })}
          </Typography.Text>
          {(decision.reason || decision.tx_hash) && (
            <Typography.Text
              type="secondary"
              style={{ display: 'block', fontSize: 12, wordBreak: 'break-all' }}
            >
              {decision.reason ?? decision.tx_hash}
            </Typography.Text>
          )}
        </div>
      ))}
    </Flex>
  );
}

const who = (request: StaffRequest) =>
  request.user_email ?? request.user_phone ?? `#${request.user_id}`;

/** Approving a deposit or marking a withdrawal processing: a plain confirmation, then the call. */
function useConfirmPlain(decide: ReturnType<typeof useStaffDecision>) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = i18n.language;
  return (request: StaffRequest, action: 'approve' | 'processing') => {
    const amount = formatCoinAmount(request.amount, locale);
    modal.confirm({
      title:
        action === 'approve'
          ? t('staffConsole.confirm.approveTitle')
          : t('staffConsole.confirm.processingTitle'),
      content:
        action === 'approve'
          ? t('staffConsole.confirm.approve', { email: who(request), amount })
          : t('staffConsole.confirm.processing', { email: who(request), amount }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'staff-confirm-ok' },
      onOk: () =>
        decide
          .mutateAsync(
            action === 'approve'
              ? { queue: 'deposits', id: request.id, action }
              : { queue: 'withdrawals', id: request.id, action },
          )
          .then(() => void message.success(t('staffConsole.done')))
          .catch((error: unknown) => {
            if (error instanceof ApiRequestError && error.status === 409) {
              void message.warning(t('wallet.errors.notPending'));
              return;
            }
            void message.error(walletErrorMessage(t, error, t('staffConsole.failed')));
          }),
    });
  };
}

/** The decisions left on a request: buttons, or a dash when it is decided. */
function RequestActions({
  queue,
  request,
  isBusy,
  onConfirm,
  onText,
}: {
  queue: Queue;
  request: StaffRequest;
  isBusy: boolean;
  onConfirm: (request: StaffRequest, action: 'approve' | 'processing') => void;
  onText: (decision: PendingTextDecision) => void;
}) {
  const { t } = useTranslation();
  if (queue === 'deposits' && request.status === 'pending') {
    return (
      <Space wrap size={4}>
        <Button
          size="small"
          type="primary"
          loading={isBusy}
          onClick={() => onConfirm(request, 'approve')}
          data-testid="staff-approve"
        >
          {t('staffConsole.actions.approve')}
        </Button>
        <Button
          size="small"
          danger
          onClick={() => onText({ request, action: 'reject' })}
          data-testid="staff-reject"
        >
          {t('staffConsole.actions.reject')}
        </Button>
      </Space>
    );
  }
  if (
    queue === 'withdrawals' &&
    (request.status === 'pending' || request.status === 'processing')
  ) {
    return (
      <Space wrap size={4}>
        {request.status === 'pending' && (
          <Button
            size="small"
            loading={isBusy}
            onClick={() => onConfirm(request, 'processing')}
            data-testid="staff-processing"
          >
            {t('staffConsole.actions.processing')}
          </Button>
        )}
        <Button
          size="small"
          type="primary"
          onClick={() => onText({ request, action: 'complete' })}
          data-testid="staff-complete"
        >
          {t('staffConsole.actions.complete')}
        </Button>
        <Button
          size="small"
          danger
          onClick={() => onText({ request, action: 'fail' })}
          data-testid="staff-fail"
        >
          {t('staffConsole.actions.fail')}
        </Button>
      </Space>
    );
  }
  return <Typography.Text type="secondary">—</Typography.Text>;
}

/** The queue's columns; `actions` renders the last one. */
function queueColumns(
  t: TFunction,
  locale: string,
  queue: Queue,
  actions: (request: StaffRequest) => ReactNode,
): ColumnsType<StaffRequest> {
  return [
    { title: t('staffConsole.columns.id'), dataIndex: 'id', width: 70, fixed: 'left' },
    {
      title: t('staffConsole.columns.amount'),
      key: 'amount',
      align: 'right',
      // Staff must see the amount before deciding, whatever the width: it stays in view.
      fixed: 'left',
      render: (_, request) => (
        <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatCoinAmount(request.amount, locale)}
          {queue === 'withdrawals' && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {t('staffConsole.columns.receive')} {formatCoinAmount(request.net_amount, locale)}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('staffConsole.columns.user'),
      key: 'user',
      width: 200,
      render: (_, request) => (
        <span style={{ overflowWrap: 'anywhere' }} data-testid="staff-user">
          {who(request)}
        </span>
      ),
    },
    {
      title: t('staffConsole.columns.network'),
      key: 'network',
      render: (_, request) => (request.network ? t(`wallet.networks.${request.network}`) : '—'),
    },
    queue === 'deposits'
      ? {
          title: t('staffConsole.columns.proof'),
          key: 'proof',
          render: (_, request) => (
            <Typography.Text
              copyable={depositProof(request) ? { text: depositProof(request) ?? '' } : false}
              style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
            >
              {depositProof(request) ?? '—'}
            </Typography.Text>
          ),
        }
      : {
          title: t('staffConsole.columns.address'),
          key: 'address',
          render: (_, request) => (
            <Typography.Text
              copyable={request.address ? { text: request.address } : false}
              style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
            >
              {request.address ?? '—'}
            </Typography.Text>
          ),
        },
    {
      title: t('staffConsole.columns.created'),
      key: 'created',
      width: 170,
      render: (_, request) => (
        <span style={{ whiteSpace: 'nowrap' }}>{formatUtc8(request.created_at)}</span>
      ),
    },
    {
      title: t('staffConsole.columns.status'),
      key: 'status',
      width: 90,
      render: (_, request) => (
        <Tag color={statusColor(request.status)} data-testid="staff-status">
          {t(`wallet.statuses.${request.status}`)}
        </Tag>
      ),
    },
    {
      title: t('staffConsole.columns.decisions'),
      key: 'decisions',
      width: 240,
      render: (_, request) => <Decisions decisions={request.decisions} />,
    },
    {
      title: t('staffConsole.columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, request) => actions(request),
    },
  ];
}

/**
 * One review queue (deposits or withdrawals): status filter, server paging, the user's e-mail,
 * the request's proof or address, the decisions taken (who, when) and the decisions left.
 */
export function StaffQueue({ queue }: { queue: Queue }) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<StaffStatusFilter>('pending');
  const [page, setPage] = useState(1);
  const [textDecision, setTextDecision] = useState<PendingTextDecision | null>(null);
  const list = useStaffQueue({ queue, status, page, page_size: STAFF_PAGE_SIZE_DEFAULT }, true);
  const decide = useStaffDecision();
  const locale = i18n.language;

  const confirmPlain = useConfirmPlain(decide);
  const columns = queueColumns(t, locale, queue, (request) => (
    <RequestActions
      queue={queue}
      request={request}
      isBusy={decide.isPending && decide.variables?.id === request.id}
      onConfirm={confirmPlain}
      onText={setTextDecision}
    />
  ));

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Segmented<StaffStatusFilter>
          value={status}
          onChange={(next) => {
            setStatus(next);
            setPage(1);
          }}
          options={FILTERS[queue].map((value) => ({
            value,
            label: (
              <span data-testid={`staff-filter-${value}`}>
                {value === 'all' ? t('staffConsole.all') : t(`wallet.statuses.${value}`)}
              </span>
            ),
          }))}
          aria-label={t('staffConsole.filter')}
          style={{ maxWidth: '100%', overflowX: 'auto' }}
        />
        <Button
          icon={<ReloadOutlined />}
          loading={list.isFetching}
          onClick={() => void list.refetch()}
          aria-label={t('wallet.refresh')}
        />
      </Flex>
      {list.isError && (
        <QueryErrorAlert
          query={list}
          failedText={t('wallet.loadFailed')}
          describe={walletErrorMessage}
        />
      )}
      <Table<StaffRequest>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.results ?? []}
        loading={list.isPending || (list.isFetching && list.isPlaceholderData)}
        locale={{ emptyText: t('staffConsole.empty') }}
        className="qs-nowrap-head"
        // As wide as the columns need (the decisions were clipped at a fixed 1280).
        scroll={{ x: 'max-content' }}
        // Data attributes are valid row props; the type only lists the named ones.
        onRow={(request) =>
          ({
            'data-testid': 'staff-row',
            'data-id': request.id,
            'data-status': request.status,
          }) as HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: page,
          pageSize: STAFF_PAGE_SIZE_DEFAULT,
          total: list.data?.count ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (count) => t('staffConsole.total', { count }),
        }}
      />
      <StaffDecisionModal decision={textDecision} onClose={() => setTextDecision(null)} />
    </Flex>
  );
}
