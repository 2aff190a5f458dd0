import { SendOutlined } from '@ant-design/icons';
import type { WebhookConfig, WebhookTestResponse } from '@quantsquare/contracts';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Input,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { useTestWebhookAlert } from '../../api/webhooks';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatDecimal, formatUsdt } from '../../shared/format/money';
import { reasonText, sampleAlert } from './webhook-format';

function TestResult({ result }: { result: WebhookTestResponse }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const type =
    result.outcome === 'validated' ? 'success' : result.outcome === 'ignored' ? 'warning' : 'error';
  const parsed = result.parsed;
  return (
    <Flex vertical gap={12} data-testid="webhook-test-result" data-outcome={result.outcome}>
      <Alert
        type={type}
        showIcon
        title={
          <Space wrap size={6}>
            <span>
              {result.accepted ? t('webhooks.test.accepted') : t('webhooks.test.refused')}
            </span>
            <Tag style={{ marginInlineEnd: 0 }}>{t(`webhooks.test.outcome.${result.outcome}`)}</Tag>
          </Space>
        }
        description={result.reason ? reasonText(t, result.reason, result.message) : undefined}
      />
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        title={t('webhooks.test.parsed')}
        items={[
          {
            key: 'action',
            label: t('webhooks.signals.columns.action'),
            children: parsed.action ? t(`webhooks.actions.${parsed.action}`) : '—',
          },
          {
            key: 'symbol',
            label: t('webhooks.signals.columns.symbol'),
            children: parsed.symbol ?? '—',
          },
          {
            key: 'amount',
            label: t('webhooks.signals.columns.amount'),
            children: result.amount
              ? `${formatUsdt(result.amount, locale)} USDT × ${result.leverage}x`
              : '—',
          },
          {
            key: 'price',
            label: t('webhooks.test.marketPrice'),
            children: formatDecimal(result.market_price, locale),
          },
          {
            key: 'notional',
            label: t('webhooks.test.notional'),
            children: result.notional ? `${formatUsdt(result.notional, locale)} USDT` : '—',
          },
          {
            key: 'id',
            label: t('webhooks.trail.externalId'),
            children: parsed.external_id ?? '—',
          },
          {
            key: 'time',
            label: t('webhooks.trail.signalTime'),
            children: formatUtc8(parsed.signal_time),
          },
          {
            key: 'position',
            label: t('webhooks.test.currentPosition'),
            children: result.position
              ? `${t(`webhooks.sides.${result.position.side}`)} ${formatDecimal(result.position.size.replace('-', ''), locale)} @ ${formatDecimal(result.position.entry_price, locale)}`
              : t('webhooks.test.none'),
          },
        ]}
      />
      <div>
        <Typography.Text strong>{t('webhooks.test.plan')}</Typography.Text>
        {result.plan.length === 0 ? (
          <Typography.Text type="secondary" style={{ display: 'block' }}>
            {t('webhooks.test.noPlan')}
          </Typography.Text>
        ) : (
          <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }} data-testid="webhook-test-plan">
            {result.plan.map((step) => (
              <li key={`${step.action}-${step.side}-${step.quantity}`}>
                {t(`webhooks.executionActions.${step.action}`)} · {t(`webhooks.sides.${step.side}`)}{' '}
                {formatDecimal(step.quantity, locale)}
                {step.reduce_only ? ` · ${t('webhooks.test.reduceOnly')}` : ''}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Flex>
  );
}

interface Props {
  configs: readonly WebhookConfig[];
  configId: number | null;
  onConfigChange: (id: number) => void;
}

/** 'Send test': runs an alert body through the receiver's parsing and checks, ordering nothing. */
export function TestAlertCard({ configs, configId, onConfigChange }: Props) {
  const { t } = useTranslation();
  const test = useTestWebhookAlert();
  const config = configs.find((c) => c.id === configId) ?? null;
  const symbol = config?.symbol ?? null;
  // A fresh example with the configuration's symbol and the current time (the page gives each
  // configuration its own box, so choosing another one starts over).
  const [body, setBody] = useState(() => sampleAlert(symbol, new Date()));

  return (
    <Card title={t('webhooks.test.title')} data-testid="webhook-test">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('webhooks.test.subtitle')}</Typography.Text>
        {configs.length === 0 ? (
          <Typography.Text type="secondary">{t('webhooks.test.noConfigs')}</Typography.Text>
        ) : (
          <>
            <Select
              value={configId ?? undefined}
              onChange={onConfigChange}
              placeholder={t('webhooks.test.configPlaceholder')}
              aria-label={t('webhooks.test.config')}
              data-testid="webhook-test-config"
              options={configs.map((c) => ({ value: c.id, label: c.name, title: c.name }))}
              style={{ width: '100%' }}
            />
            <Input.TextArea
              value={body}
              onChange={(event) => setBody(event.target.value)}
              autoSize={{ minRows: 5, maxRows: 12 }}
              spellCheck={false}
              aria-label={t('webhooks.test.body')}
              style={{ fontFamily: 'monospace', fontSize: 12 }}
              data-testid="webhook-test-body"
            />
            <Space wrap>
              <Button
                type="primary"
                icon={<SendOutlined />}
                disabled={config === null || body.trim() === ''}
                loading={test.isPending}
                onClick={() => config && test.mutate({ id: config.id, body: { body } })}
                data-testid="webhook-test-send"
              >
                {t('webhooks.test.send')}
              </Button>
              <Button onClick={() => setBody(sampleAlert(symbol, new Date()))}>
                {t('webhooks.test.reset')}
              </Button>
            </Space>
            {test.isError && (
              <Alert
                type="error"
                showIcon
                title={errorMessage(t, test.error, t('webhooks.actionFailed'))}
              />
            )}
            {test.data && <TestResult result={test.data} />}
          </>
        )}
      </Flex>
    </Card>
  );
}
