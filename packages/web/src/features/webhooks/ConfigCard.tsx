import { DeleteOutlined, EditOutlined, ExperimentOutlined } from '@ant-design/icons';
import type { WebhookConfig } from '@quantsquare/contracts';
import { Button, Card, Checkbox, Flex, Space, Switch, Tag, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccountName } from '../../shared/data/use-account-name';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatDecimal, formatUsdt } from '../../shared/format/money';
import { WebhookUrl } from './WebhookUrl';
import { SIGNAL_STATUS_COLORS } from './webhook-format';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <div style={{ overflowWrap: 'anywhere' }}>{children}</div>
    </div>
  );
}

interface Props {
  config: WebhookConfig;
  fullUrl: string | undefined;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onToggle: (enabled: boolean) => void;
  toggling: boolean;
  onEdit: () => void;
  onTest: () => void;
  onDelete: () => void;
  onRegenerate: () => void;
  regenerating: boolean;
}

/** What the configuration trades: account, symbol, amount, and its last signal. */
function ConfigFacts({ config }: { config: WebhookConfig }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const nameOfAccount = useAccountName();
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(130px, 1fr))',
        gap: 12,
      }}
    >
      <Fact label={t('webhooks.list.columns.account')}>
        {nameOfAccount(config.exchange_api, config.exchange_api_name)}{' '}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {config.exchange.toUpperCase()}
          {config.is_testnet ? ` · ${t('webhooks.form.testnet')}` : ''}
        </Typography.Text>
      </Fact>
      <Fact label={t('webhooks.list.columns.symbol')}>
        {config.symbol ?? (
          <Typography.Text type="secondary">{t('webhooks.list.fromAlert')}</Typography.Text>
        )}
      </Fact>
      <Fact label={t('webhooks.list.columns.amount')}>
        {t('webhooks.list.amountValue', {
          amount: formatUsdt(config.default_amount, locale),
          leverage: config.leverage,
        })}
        {config.max_amount !== null && (
          <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
            {t('webhooks.list.maxAmount', { amount: formatUsdt(config.max_amount, locale) })}
          </Typography.Text>
        )}
      </Fact>
      <Fact label={t('webhooks.list.columns.lastSignal')}>
        {config.last_signal_status ? (
          <Flex gap={4} align="center" wrap>
            <Tag
              color={SIGNAL_STATUS_COLORS[config.last_signal_status]}
              style={{ marginInlineEnd: 0 }}
              data-testid="webhook-config-last-status"
            >
              {t(`webhooks.statuses.${config.last_signal_status}`)}
            </Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatUtc8(config.last_signal_at)} ·{' '}
              {t('webhooks.list.signalCount', { count: config.signal_count })}
            </Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('webhooks.list.noSignal')}</Typography.Text>
        )}
      </Fact>
    </div>
  );
}

/** The actions it allows and its other settings, as tags. */
function ConfigTags({ config }: { config: WebhookConfig }) {
  const { t } = useTranslation();
  return (
    <Flex gap={4} wrap>
      {config.allowed_actions.map((action) => (
        <Tag key={action} style={{ marginInlineEnd: 0 }}>
          {t(`webhooks.actions.${action}`)}
        </Tag>
      ))}
      {config.allow_pyramiding && (
        <Tag color="purple" style={{ marginInlineEnd: 0 }}>
          {t('webhooks.form.pyramiding')}
        </Tag>
      )}
      <Tag style={{ marginInlineEnd: 0 }}>
        {t('webhooks.form.maxSignalAge')}: {config.max_signal_age}
      </Tag>
      {config.ip_allowlist.length > 0 && (
        <Tooltip title={config.ip_allowlist.join(', ')}>
          <Tag color="cyan" style={{ marginInlineEnd: 0 }}>
            {t('webhooks.form.ipAllowlist')}: {config.ip_allowlist.length}
          </Tag>
        </Tooltip>
      )}
    </Flex>
  );
}

/** Its open positions, long in green and short in red. */
function ConfigPositions({ config }: { config: WebhookConfig }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  if (config.positions.length === 0) return null;
  return (
    <Fact label={t('webhooks.list.position')}>
      {config.positions.map((p) => (
        <div key={p.symbol} data-testid="webhook-config-position">
          <Typography.Text
            style={{ color: p.side === 'long' ? token.colorSuccess : token.colorError }}
          >
            {p.symbol}{' '}
            {t('webhooks.list.positionValue', {
              side: t(`webhooks.sides.${p.side}`),
              size: formatDecimal(p.size.replace('-', ''), locale),
              price: formatDecimal(p.entry_price, locale),
            })}
          </Typography.Text>
        </div>
      ))}
    </Fact>
  );
}

/** One configuration: what it trades, its URL, its last signal and its actions. */
export function ConfigCard(props: Props) {
  const { config } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Card
      size="small"
      data-testid="webhook-config"
      data-name={config.name}
      data-enabled={String(config.enabled)}
      style={{ minWidth: 0, opacity: config.enabled ? 1 : 0.85 }}
      title={
        <Flex align="center" gap={8} style={{ minWidth: 0, paddingInlineEnd: 8 }}>
          <Checkbox
            checked={props.selected}
            onChange={(event) => props.onSelect(event.target.checked)}
            aria-label={config.name}
            data-testid="webhook-config-select"
          />
          <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
            {config.name}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Tooltip title={t('webhooks.list.columns.enabled')}>
          <Switch
            size="small"
            checked={config.enabled}
            loading={props.toggling}
            onChange={props.onToggle}
            aria-label={t('webhooks.list.columns.enabled')}
            data-testid="webhook-config-enabled"
          />
        </Tooltip>
      }
    >
      <Flex vertical gap={12}>
        <ConfigFacts config={config} />
        <ConfigTags config={config} />
        <ConfigPositions config={config} />
        <Fact label={t('webhooks.url.label')}>
          <WebhookUrl
            maskedUrl={config.webhook_url}
            fullUrl={props.fullUrl}
            onRegenerate={props.onRegenerate}
            regenerating={props.regenerating}
          />
        </Fact>
        <Space
          size={4}
          wrap
          style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, paddingTop: 8 }}
        >
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={props.onEdit}
            data-testid="webhook-config-edit"
          >
            {t('webhooks.list.edit')}
          </Button>
          <Button
            size="small"
            icon={<ExperimentOutlined />}
            onClick={props.onTest}
            data-testid="webhook-config-test"
          >
            {t('webhooks.list.test')}
          </Button>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={props.onDelete}
            data-testid="webhook-config-delete"
          >
            {t('webhooks.list.delete')}
          </Button>
        </Space>
      </Flex>
    </Card>
  );
}
