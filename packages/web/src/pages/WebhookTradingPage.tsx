import '../i18n/webhooks-texts';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { WebhookConfig } from '@quantsquare/contracts';
import { App, Button, Card, Flex, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWebhookConfigs, useWebhookStats } from '../api/webhooks';
import { AlertFormatCard } from '../features/webhooks/AlertFormatCard';
import { ConfigFormModal } from '../features/webhooks/ConfigFormModal';
import { ConfigList } from '../features/webhooks/ConfigList';
import { StatsCards } from '../features/webhooks/StatsCards';
import { TestAlertCard } from '../features/webhooks/TestAlertCard';
import { WebhookTabs } from '../features/webhooks/WebhookTabs';
import { RevealedUrlModal } from '../features/webhooks/WebhookUrl';
import { PageHeading, TwoColumns } from '../shared/ui/PageHeading';
import { QueryErrorAlert, QueryState } from '../shared/ui/QueryState';
import { useIsMobile } from '../shared/ui/use-is-mobile';

/**
 * /webhook-trading (issue 13 "Web"): signal statistics, the configurations with their URLs and
 * actions, the alert format and the dry-run 'send test' box.
 */
export function WebhookTradingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isMobile = useIsMobile();
  const configs = useWebhookConfigs();
  const stats = useWebhookStats();
  const [formTarget, setFormTarget] = useState<WebhookConfig | 'new' | null>(null);
  // The full URL is only in the create and regenerate answers: kept here until the page reloads.
  const [revealed, setRevealed] = useState<Record<number, string>>({});
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [testConfigId, setTestConfigId] = useState<number | null>(null);
  const testRef = useRef<HTMLDivElement>(null);
  const list = configs.data?.results ?? [];
  const testId = testConfigId ?? list[0]?.id ?? null;

  const reveal = (config: WebhookConfig) => {
    if (!config.key_visible) return;
    setRevealed((current) => ({ ...current, [config.id]: config.webhook_url }));
    setShownUrl(config.webhook_url);
  };

  return (
    <Flex vertical gap={16} style={{ width: '100%' }}>
      <PageHeading
        title={t('webhooks.title')}
        subtitle={t('webhooks.subtitle')}
        extra={
          <Space wrap>
            <Button
              icon={<ReloadOutlined />}
              loading={configs.isFetching || stats.isFetching}
              onClick={() => {
                void configs.refetch();
                void stats.refetch();
              }}
            >
              {t('webhooks.refresh')}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setFormTarget('new')}
              data-testid="webhook-create"
            >
              {t('webhooks.create')}
            </Button>
          </Space>
        }
      />
      <WebhookTabs current="configs" />
      {stats.isError && !stats.data ? (
        <QueryErrorAlert query={stats} failedText={t('webhooks.loadFailed')} hideRetry />
      ) : (
        <StatsCards stats={stats.data} />
      )}
      <Card
        title={t('webhooks.list.title')}
        styles={{ body: { padding: isMobile ? 12 : undefined } }}
        extra={
          stats.data && (
            <Typography.Text type="secondary" data-testid="webhook-configs-count">
              {t('webhooks.stats.configsValue', {
                enabled: stats.data.configs.enabled,
                total: stats.data.configs.total,
              })}
            </Typography.Text>
          )
        }
      >
        <QueryState query={configs} failedText={t('webhooks.loadFailed')}>
          {() => (
            <ConfigList
              configs={list}
              revealed={revealed}
              onRevealed={reveal}
              onEdit={(config) => setFormTarget(config)}
              onTest={(config) => {
                setTestConfigId(config.id);
                testRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
              }}
              onCreate={() => setFormTarget('new')}
            />
          )}
        </QueryState>
      </Card>
      <TwoColumns>
        <AlertFormatCard />
        <div ref={testRef}>
          <TestAlertCard
            key={testId ?? 'none'}
            configs={list}
            configId={testId}
            onConfigChange={setTestConfigId}
          />
        </div>
      </TwoColumns>
      <ConfigFormModal
        target={formTarget}
        onClose={() => setFormTarget(null)}
        onCreated={(config) => {
          reveal(config);
          setTestConfigId(config.id);
        }}
        onSaved={() => void message.success(t('webhooks.done.saved'))}
      />
      <RevealedUrlModal url={shownUrl} onClose={() => setShownUrl(null)} />
    </Flex>
  );
}
