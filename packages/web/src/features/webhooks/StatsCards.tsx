import {
  WEBHOOK_SIGNAL_STATUSES,
  type WebhookStatsResponse,
  type WebhookStatsWindow,
} from '@quantsquare/contracts';
import { Card, Flex, Skeleton, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatGrouped, formatRate } from '../../shared/format/money';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { formatLatency, SIGNAL_STATUS_COLORS } from './webhook-format';

function Figure({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  const title = (
    <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
      {label}
    </Typography.Text>
  );
  return (
    <div style={{ minWidth: 0 }}>
      {hint ? <Tooltip title={hint}>{title}</Tooltip> : title}
      <div style={{ fontSize: 20, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </div>
    </div>
  );
}

function WindowCard({
  title,
  window,
  testId,
}: {
  title: string;
  window: WebhookStatsWindow;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const locale = i18n.language;
  return (
    <Card size="small" title={title} data-testid={testId} style={{ minWidth: 0 }}>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: isMobile ? 'repeat(2, minmax(0, 1fr))' : 'repeat(4, minmax(0, 1fr))',
          gap: 12,
        }}
      >
        <Figure label={t('webhooks.stats.signals')}>
          <span data-testid={`${testId}-total`}>{formatGrouped(window.total, locale)}</span>
        </Figure>
        <Figure label={t('webhooks.stats.successRate')} hint={t('webhooks.stats.successRateHint')}>
          {formatRate(window.success_rate, locale)}
        </Figure>
        <Figure label={t('webhooks.stats.medianLatency')} hint={t('webhooks.stats.latencyHint')}>
          {formatLatency(t, window.median_latency_ms)}
        </Figure>
        <Figure label={t('webhooks.stats.p99Latency')} hint={t('webhooks.stats.latencyHint')}>
          {formatLatency(t, window.p99_latency_ms)}
        </Figure>
      </div>
      <Flex wrap gap={4} style={{ marginTop: 12 }} aria-label={t('webhooks.stats.byStatus')}>
        {WEBHOOK_SIGNAL_STATUSES.map((status) => (
          <Tag
            key={status}
            color={SIGNAL_STATUS_COLORS[status]}
            style={{ marginInlineEnd: 0 }}
            data-testid={`${testId}-${status}`}
          >
            {t(`webhooks.statuses.${status}`)} {window.by_status[status] ?? 0}
          </Tag>
        ))}
      </Flex>
    </Card>
  );
}

/** Signal statistics of the last 24 hours and of all time, and how many configurations run. */
export function StatsCards({ stats }: { stats: WebhookStatsResponse | undefined }) {
  const { t } = useTranslation();
  if (!stats) {
    return (
      <Card size="small">
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  }
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 360px), 1fr))',
        gap: 12,
      }}
      data-testid="webhook-stats"
    >
      <WindowCard
        title={t('webhooks.stats.last24h')}
        window={stats.last_24h}
        testId="webhook-stats-24h"
      />
      <WindowCard
        title={t('webhooks.stats.total')}
        window={stats.total}
        testId="webhook-stats-total"
      />
    </div>
  );
}
