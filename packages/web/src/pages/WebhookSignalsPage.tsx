import '../i18n/webhooks-texts';
import {
  WEBHOOK_SIGNAL_STATUSES,
  type WebhookSignal,
  type WebhookSignalStatus,
} from '@quantsquare/contracts';
import { Empty, Flex, Select, type TableColumnsType, Tag, Typography, theme } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useWebhookSignals } from '../api/webhooks';
import { SignalTrailDrawer } from '../features/webhooks/SignalTrailDrawer';
import {
  ConfigFilter,
  positiveInt,
  useListParams,
  WEBHOOK_LIST_PAGE_SIZE,
  WebhookListFrame,
} from '../features/webhooks/WebhookListFrame';
import { formatLatency, SIGNAL_STATUS_COLORS } from '../features/webhooks/webhook-format';
import { formatUtc8 } from '../shared/format/bot-format';
import { formatUsdt } from '../shared/format/money';
import { useIsMobile } from '../shared/ui/use-is-mobile';

function StatusTag({ status }: { status: WebhookSignalStatus }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={SIGNAL_STATUS_COLORS[status]}
      style={{ marginInlineEnd: 0 }}
      data-testid="webhook-signal-status"
    >
      {t(`webhooks.statuses.${status}`)}
    </Tag>
  );
}

/** The signals on a phone: one stacked card each, opening the trail on a tap. */
function SignalCards({
  signals,
  onOpen,
}: {
  signals: readonly WebhookSignal[];
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={8}>
      {signals.map((signal) => (
        <button
          type="button"
          key={signal.id}
          onClick={() => onOpen(signal.id)}
          data-testid="webhook-signal"
          data-status={signal.status}
          style={{
            all: 'unset',
            cursor: 'pointer',
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            padding: '8px 10px',
            minWidth: 0,
          }}
        >
          <Flex justify="space-between" align="center" gap={8}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatUtc8(signal.received_at)}
            </Typography.Text>
            <StatusTag status={signal.status} />
          </Flex>
          <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 4 }}>
            <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
              {signal.action ? t(`webhooks.actions.${signal.action}`) : '—'} ·{' '}
              {signal.symbol ?? '—'}
            </Typography.Text>
            <Typography.Text style={{ whiteSpace: 'nowrap' }}>
              {formatLatency(t, signal.total_latency_ms)}
            </Typography.Text>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {signal.config_name}
            {signal.amount ? ` · ${formatUsdt(signal.amount, i18n.language)} USDT` : ''}
          </Typography.Text>
        </button>
      ))}
    </Flex>
  );
}

/**
 * /webhook-trading/signals (issue 13 "Web"): every signal with its status, filtered by
 * configuration and status, and a drawer with one signal's whole trail.
 */
export function WebhookSignalsPage() {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const { params, page, setFilters, setParams } = useListParams();
  const config = positiveInt(params.get('config'));
  const statusParam = params.get('status');
  const status = WEBHOOK_SIGNAL_STATUSES.find((s) => s === statusParam);
  const openId = positiveInt(params.get('signal')) ?? null;
  const signals = useWebhookSignals({ page, pageSize: WEBHOOK_LIST_PAGE_SIZE, config, status });

  const columns: TableColumnsType<WebhookSignal> = [
    {
      key: 'time',
      title: t('webhooks.signals.columns.time'),
      dataIndex: 'received_at',
      width: 170,
      render: (value: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatUtc8(value)}</span>,
    },
    { key: 'config', title: t('webhooks.signals.columns.config'), dataIndex: 'config_name' },
    {
      key: 'action',
      title: t('webhooks.signals.columns.action'),
      dataIndex: 'action',
      render: (value: WebhookSignal['action']) => (value ? t(`webhooks.actions.${value}`) : '—'),
    },
    {
      key: 'symbol',
      title: t('webhooks.signals.columns.symbol'),
      dataIndex: 'symbol',
      render: (value: string | null) => value ?? '—',
    },
    {
      key: 'amount',
      title: t('webhooks.signals.columns.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (value: string | null) => (value ? formatUsdt(value, i18n.language) : '—'),
    },
    {
      key: 'status',
      title: t('webhooks.signals.columns.status'),
      dataIndex: 'status',
      render: (value: WebhookSignalStatus) => <StatusTag status={value} />,
    },
    {
      key: 'latency',
      title: t('webhooks.signals.columns.latency'),
      dataIndex: 'total_latency_ms',
      align: 'right',
      render: (value: number | null) => formatLatency(t, value),
    },
  ];

  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical gap={4}>
          <Typography.Text>{t('webhooks.signals.empty')}</Typography.Text>
          <Typography.Text type="secondary">{t('webhooks.signals.emptyHint')}</Typography.Text>
        </Flex>
      }
      data-testid="webhook-signals-empty"
    />
  );

  return (
    <WebhookListFrame<WebhookSignal>
      tab="signals"
      title={t('webhooks.signalsTitle')}
      subtitle={t('webhooks.signalsSubtitle')}
      query={signals}
      page={page}
      onPage={(next) => setParams({ page: next })}
      columns={columns}
      scrollX="max-content"
      onRow={(signal) =>
        ({
          onClick: () => setParams({ signal: signal.id }),
          style: { cursor: 'pointer' },
          'data-testid': 'webhook-signal',
          'data-status': signal.status,
        }) as HTMLAttributes<HTMLElement>
      }
      cards={(rows) => <SignalCards signals={rows} onOpen={(id) => setParams({ signal: id })} />}
      empty={empty}
      filters={
        <>
          <ConfigFilter
            value={config}
            onChange={(value) => setFilters({ config: value })}
            testId="webhook-signals-config"
          />
          <Select
            allowClear
            value={status}
            onChange={(value?: WebhookSignalStatus) => setFilters({ status: value })}
            placeholder={t('webhooks.signals.allStatuses')}
            options={WEBHOOK_SIGNAL_STATUSES.map((s) => ({
              value: s,
              label: t(`webhooks.statuses.${s}`),
            }))}
            style={{ minWidth: 160, flex: isMobile ? '1 1 100%' : undefined }}
            data-testid="webhook-signals-status"
          />
        </>
      }
    >
      <SignalTrailDrawer id={openId} onClose={() => setParams({ signal: undefined })} />
    </WebhookListFrame>
  );
}
