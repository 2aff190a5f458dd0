import '../i18n/webhooks-texts';
import { WEBHOOK_LOG_LEVELS, type WebhookLog, type WebhookLogLevel } from '@quantsquare/contracts';
import {
  Button,
  DatePicker,
  Empty,
  Flex,
  Select,
  type TableColumnsType,
  Tag,
  Typography,
  theme,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useWebhookLogs } from '../api/webhooks';
import {
  ConfigFilter,
  positiveInt,
  useListParams,
  WEBHOOK_LIST_PAGE_SIZE,
  WebhookListFrame,
} from '../features/webhooks/WebhookListFrame';
import { WEBHOOK_PATHS } from '../features/webhooks/WebhookTabs';
import { LOG_LEVEL_COLORS } from '../features/webhooks/webhook-format';
import { logText } from '../features/webhooks/webhook-words';
import { formatUtc8 } from '../shared/format/bot-format';
import { useIsMobile } from '../shared/ui/use-is-mobile';

function isoOrUndefined(text: string | null): string | undefined {
  if (!text) return undefined;
  return Number.isFinite(Date.parse(text)) ? text : undefined;
}

function LevelTag({ level }: { level: WebhookLogLevel }) {
  const { t } = useTranslation();
  return (
    <Tag color={LOG_LEVEL_COLORS[level]} style={{ marginInlineEnd: 0 }}>
      {t(`webhooks.logs.levels.${level}`)}
    </Tag>
  );
}

function SignalLink({ id }: { id: number | null }) {
  const { t } = useTranslation();
  if (id === null) return <>—</>;
  return (
    <Link to={`${WEBHOOK_PATHS.signals}?signal=${id}`}>
      {t('webhooks.logs.openSignal', { id })}
    </Link>
  );
}

/** The log on a phone: one stacked card per entry. */
function LogCards({ logs }: { logs: readonly WebhookLog[] }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={8}>
      {logs.map((log) => (
        <article
          key={log.id}
          data-testid="webhook-log"
          data-event={log.event}
          style={{
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            padding: '8px 10px',
            minWidth: 0,
          }}
        >
          <Flex justify="space-between" align="center" gap={8}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatUtc8(log.created_at)}
            </Typography.Text>
            <LevelTag level={log.level} />
          </Flex>
          <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 4 }}>
            <Typography.Text strong>{t(`webhooks.logs.events.${log.event}`)}</Typography.Text>
            <SignalLink id={log.signal_id} />
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
            {[log.config_name, log.source_ip, logText(t, log, i18n.language)]
              .filter(Boolean)
              .join(' · ')}
          </Typography.Text>
        </article>
      ))}
    </Flex>
  );
}

/** The desktop table's columns. */
function logColumns(t: TFunction, locale: string): TableColumnsType<WebhookLog> {
  return [
    {
      key: 'time',
      title: t('webhooks.logs.columns.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (value: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatUtc8(value)}</span>,
    },
    {
      key: 'level',
      title: t('webhooks.logs.columns.level'),
      dataIndex: 'level',
      width: 90,
      render: (value: WebhookLogLevel) => <LevelTag level={value} />,
    },
    {
      key: 'event',
      title: t('webhooks.logs.columns.event'),
      dataIndex: 'event',
      render: (value: WebhookLog['event']) => (
        <span style={{ whiteSpace: 'nowrap' }}>{t(`webhooks.logs.events.${value}`)}</span>
      ),
    },
    {
      key: 'config',
      title: t('webhooks.logs.columns.config'),
      dataIndex: 'config_name',
      render: (value: string | null) => value ?? '—',
    },
    {
      key: 'message',
      title: t('webhooks.logs.columns.message'),
      width: 280,
      render: (_: unknown, log: WebhookLog) => (
        <Typography.Text
          type="secondary"
          style={{ overflowWrap: 'anywhere' }}
          data-testid="webhook-log-text"
        >
          {logText(t, log, locale)}
        </Typography.Text>
      ),
    },
    {
      key: 'ip',
      title: t('webhooks.logs.columns.sourceIp'),
      dataIndex: 'source_ip',
      render: (value: string | null) => value ?? '—',
    },
    {
      key: 'signal',
      title: t('webhooks.logs.columns.signal'),
      dataIndex: 'signal_id',
      render: (value: number | null) => <SignalLink id={value} />,
    },
  ];
}

/**
 * /webhook-trading/logs (issue 13 "Web"): receipts, refusals, orders and configuration changes,
 * filtered by configuration, level and time, paged.
 */
export function WebhookLogsPage() {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const { params, page, setFilters, setParams } = useListParams();
  const config = positiveInt(params.get('config'));
  const levelParam = params.get('status');
  const level = WEBHOOK_LOG_LEVELS.find((l) => l === levelParam);
  const since = isoOrUndefined(params.get('since'));
  const until = isoOrUndefined(params.get('until'));
  const logs = useWebhookLogs({
    page,
    pageSize: WEBHOOK_LIST_PAGE_SIZE,
    config,
    status: level,
    since,
    until,
  });
  const hasFilters = config !== undefined || level !== undefined || since || until;

  const columns = logColumns(t, i18n.language);

  const range: [Dayjs | null, Dayjs | null] = [
    since ? dayjs(since) : null,
    until ? dayjs(until) : null,
  ];
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={t('webhooks.logs.empty')}
      data-testid="webhook-logs-empty"
    />
  );

  return (
    <WebhookListFrame<WebhookLog>
      tab="logs"
      title={t('webhooks.logsTitle')}
      subtitle={t('webhooks.logsSubtitle')}
      query={logs}
      page={page}
      onPage={(next) => setParams({ page: next })}
      columns={columns}
      scrollX={860}
      onRow={(log) =>
        ({
          'data-testid': 'webhook-log',
          'data-event': log.event,
        }) as HTMLAttributes<HTMLElement>
      }
      cards={(rows) => <LogCards logs={rows} />}
      empty={empty}
      filters={
        <>
          <ConfigFilter
            value={config}
            onChange={(value) => setFilters({ config: value })}
            testId="webhook-logs-config"
          />
          <Select
            allowClear
            value={level}
            onChange={(value?: WebhookLogLevel) => setFilters({ status: value })}
            placeholder={t('webhooks.logs.allLevels')}
            options={WEBHOOK_LOG_LEVELS.map((l) => ({
              value: l,
              label: t(`webhooks.logs.levels.${l}`),
            }))}
            style={{ minWidth: 140, flex: isMobile ? '1 1 100%' : undefined }}
            data-testid="webhook-logs-level"
          />
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowEmpty={[true, true]}
            value={range}
            placeholder={[t('webhooks.logs.since'), t('webhooks.logs.until')]}
            onChange={(values) =>
              setFilters({
                since: values?.[0]?.toISOString(),
                until: values?.[1]?.toISOString(),
              })
            }
            style={{ flex: isMobile ? '1 1 100%' : undefined }}
            data-testid="webhook-logs-range"
          />
          {hasFilters && (
            <Button
              onClick={() =>
                setFilters({
                  config: undefined,
                  status: undefined,
                  since: undefined,
                  until: undefined,
                })
              }
            >
              {t('webhooks.logs.clear')}
            </Button>
          )}
        </>
      }
    />
  );
}
