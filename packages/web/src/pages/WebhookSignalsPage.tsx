import '../i18n/webhooks-texts';
import { ReloadOutlined } from '@ant-design/icons';
import {
  WEBHOOK_SIGNAL_STATUSES,
  type WebhookSignal,
  type WebhookSignalStatus,
} from '@quantsquare/contracts';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Pagination,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  theme,
} from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../api/errors';
import { useWebhookConfigs, useWebhookSignals } from '../api/webhooks';
import { SignalTrailDrawer } from '../features/webhooks/SignalTrailDrawer';
import { WebhookTabs } from '../features/webhooks/WebhookTabs';
import { formatLatency, SIGNAL_STATUS_COLORS } from '../features/webhooks/webhook-format';
import { formatUtc8 } from '../shared/format/bot-format';
import { formatUsdt } from '../shared/format/money';
import { PageHeading } from '../shared/ui/PageHeading';
import { useIsMobile } from '../shared/ui/use-is-mobile';

const PAGE_SIZE = 20;

function positiveInt(text: string | null): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

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
  const [params, setParams] = useSearchParams();
  const config = positiveInt(params.get('config'));
  const statusParam = params.get('status');
  const status = WEBHOOK_SIGNAL_STATUSES.find((s) => s === statusParam);
  const page = positiveInt(params.get('page')) ?? 1;
  const openId = positiveInt(params.get('signal')) ?? null;
  const configs = useWebhookConfigs();
  const signals = useWebhookSignals({ page, pageSize: PAGE_SIZE, config, status });
  const rows = signals.data?.results ?? [];

  const change = (next: Record<string, string | number | undefined>) =>
    setParams((current) => {
      const result = new URLSearchParams(current);
      for (const [name, value] of Object.entries(next)) {
        if (value === undefined || value === '') result.delete(name);
        else result.set(name, String(value));
      }
      return result;
    });

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
    <Flex vertical gap={16} style={{ width: '100%' }}>
      <PageHeading
        title={t('webhooks.signalsTitle')}
        subtitle={t('webhooks.signalsSubtitle')}
        extra={
          <Button
            icon={<ReloadOutlined />}
            loading={signals.isFetching}
            onClick={() => void signals.refetch()}
          >
            {t('webhooks.refresh')}
          </Button>
        }
      />
      <WebhookTabs current="signals" />
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <Flex vertical gap={12}>
          <Flex gap={8} wrap>
            <Select
              allowClear
              value={config}
              onChange={(value?: number) => change({ config: value, page: undefined })}
              placeholder={t('webhooks.signals.allConfigs')}
              options={(configs.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }))}
              style={{ minWidth: 180, flex: isMobile ? '1 1 100%' : undefined }}
              data-testid="webhook-signals-config"
            />
            <Select
              allowClear
              value={status}
              onChange={(value?: WebhookSignalStatus) => change({ status: value, page: undefined })}
              placeholder={t('webhooks.signals.allStatuses')}
              options={WEBHOOK_SIGNAL_STATUSES.map((s) => ({
                value: s,
                label: t(`webhooks.statuses.${s}`),
              }))}
              style={{ minWidth: 160, flex: isMobile ? '1 1 100%' : undefined }}
              data-testid="webhook-signals-status"
            />
          </Flex>
          {signals.isError && !signals.data && (
            <Alert
              type="error"
              showIcon
              title={errorMessage(t, signals.error, t('webhooks.loadFailed'))}
              action={
                <Button size="small" onClick={() => void signals.refetch()}>
                  {t('common.retry')}
                </Button>
              }
            />
          )}
          {isMobile ? (
            signals.isPending ? (
              <Skeleton active />
            ) : rows.length === 0 ? (
              empty
            ) : (
              <SignalCards signals={rows} onOpen={(id) => change({ signal: id })} />
            )
          ) : (
            <Table<WebhookSignal>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={rows}
              loading={signals.isPending}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: signals.isPending ? ' ' : empty }}
              onRow={(signal) =>
                ({
                  onClick: () => change({ signal: signal.id }),
                  style: { cursor: 'pointer' },
                  'data-testid': 'webhook-signal',
                  'data-status': signal.status,
                }) as HTMLAttributes<HTMLElement>
              }
            />
          )}
          {(signals.data?.count ?? 0) > PAGE_SIZE && (
            <Pagination
              align="end"
              current={page}
              pageSize={PAGE_SIZE}
              total={signals.data?.count ?? 0}
              showSizeChanger={false}
              onChange={(next) => change({ page: next })}
              size={isMobile ? 'small' : undefined}
            />
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('webhooks.utc8')}
          </Typography.Text>
        </Flex>
      </Card>
      <SignalTrailDrawer id={openId} onClose={() => change({ signal: undefined })} />
    </Flex>
  );
}
