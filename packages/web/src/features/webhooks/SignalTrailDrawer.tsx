import {
  CheckCircleFilled,
  ClockCircleOutlined,
  CloseCircleFilled,
  MinusCircleFilled,
} from '@ant-design/icons';
import type { WebhookExecution, WebhookSignal, WebhookSignalStep } from '@quantsquare/contracts';
import {
  Alert,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Skeleton,
  Tag,
  Timeline,
  Typography,
  theme,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { isPendingSignal, useWebhookSignal } from '../../api/webhooks';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatDecimal, formatUsdt } from '../../shared/format/money';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import {
  EXECUTION_STATUS_COLORS,
  failureText,
  formatLatency,
  reasonText,
  SIGNAL_STATUS_COLORS,
} from './webhook-format';
import { stepText } from './webhook-words';

const BAD_STEPS = new Set(['refused', 'failed']);
/**
 * Steps whose server detail is said elsewhere in the reader's language (the source address, the
 * translated reason); the others keep theirs as a technical line (order, quantity, price).
 */
const QUIET_DETAIL_STEPS = new Set(['received', 'refused', 'failed', 'ignored']);

function StepDot({ step }: { step: WebhookSignalStep['step'] }) {
  const { token } = theme.useToken();
  if (BAD_STEPS.has(step)) return <CloseCircleFilled style={{ color: token.colorError }} />;
  if (step === 'ignored') return <MinusCircleFilled style={{ color: token.colorTextTertiary }} />;
  return <CheckCircleFilled style={{ color: token.colorSuccess }} />;
}

function ExecutionItem({ execution }: { execution: WebhookExecution }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      data-testid="webhook-trail-execution"
      data-status={execution.status}
      title={
        <Flex gap={6} align="center" wrap>
          <span>
            {t(`webhooks.executionActions.${execution.action}`)} · {execution.symbol}
          </span>
          <Tag color={EXECUTION_STATUS_COLORS[execution.status]} style={{ marginInlineEnd: 0 }}>
            {t(`webhooks.executionStatuses.${execution.status}`)}
          </Tag>
        </Flex>
      }
      items={[
        {
          key: 'quantity',
          label: t('webhooks.test.quantity'),
          children: `${t(`webhooks.sides.${execution.side}`)} ${formatDecimal(execution.quantity, locale)} · ${execution.leverage}x`,
        },
        {
          key: 'filled',
          label: t('webhooks.trail.filledQuantity'),
          children: formatDecimal(execution.filled_quantity, locale),
        },
        {
          key: 'price',
          label: t('webhooks.trail.price'),
          children: formatDecimal(execution.price, locale),
        },
        { key: 'fee', label: t('webhooks.trail.fee'), children: formatUsdt(execution.fee, locale) },
        {
          key: 'latency',
          label: t('webhooks.trail.receiveToFill'),
          children: formatLatency(t, execution.receive_to_fill_ms),
        },
        {
          key: 'order',
          label: t('webhooks.trail.orderId'),
          children: execution.exchange_order_id ?? '—',
        },
        {
          key: 'intent',
          label: t('webhooks.trail.intentKey'),
          children: (
            <Typography.Text style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
              {execution.intent_key}
            </Typography.Text>
          ),
        },
        ...(execution.status === 'failed'
          ? [
              {
                key: 'error',
                label: t('webhooks.trail.reason'),
                children: (
                  <Typography.Text type="danger" title={execution.error ?? undefined}>
                    {failureText(t, execution.error_kind, execution.error)}
                  </Typography.Text>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

/** The signal's steps with their latencies, and a pending one while it runs. */
function TrailSteps({ signal }: { signal: WebhookSignal }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  const pending = isPendingSignal(signal.status);
  return (
    <div>
      <Typography.Title level={5}>{t('webhooks.trail.steps')}</Typography.Title>
      <Timeline
        items={[
          ...signal.steps.map((step) => ({
            key: `${step.step}-${step.at}`,
            icon: <StepDot step={step.step} />,
            content: (
              <div data-testid="webhook-trail-step" data-step={step.step}>
                <Flex gap={8} wrap align="baseline">
                  <Typography.Text strong>
                    {t(`webhooks.trail.stepNames.${step.step}`)}
                  </Typography.Text>
                  {step.step !== 'received' && (
                    <Typography.Text style={{ color: token.colorPrimary, fontSize: 12 }}>
                      {t('webhooks.trail.latency', { ms: step.latency_ms })}
                    </Typography.Text>
                  )}
                </Flex>
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                  {formatUtc8(step.at)}
                  {step.step !== 'received'
                    ? ` · ${t('webhooks.trail.sinceReceived', { ms: step.since_received_ms })}`
                    : ''}
                </Typography.Text>
                {!QUIET_DETAIL_STEPS.has(step.step) && stepText(t, step, signal, locale) && (
                  <Typography.Text
                    type="secondary"
                    style={{ fontSize: 12, display: 'block', overflowWrap: 'anywhere' }}
                    data-testid="webhook-trail-step-text"
                  >
                    {stepText(t, step, signal, locale)}
                  </Typography.Text>
                )}
              </div>
            ),
          })),
          ...(pending
            ? [
                {
                  key: 'pending',
                  icon: <ClockCircleOutlined />,
                  loading: true,
                  content: (
                    <Typography.Text type="secondary">
                      {t('webhooks.signals.pending')}
                    </Typography.Text>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

/** What the signal asked for, and where and when it came from. */
function SignalFacts({ signal }: { signal: WebhookSignal }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        {
          key: 'config',
          label: t('webhooks.signals.columns.config'),
          children: signal.config_name,
        },
        {
          key: 'action',
          label: t('webhooks.signals.columns.action'),
          children: signal.action ? t(`webhooks.actions.${signal.action}`) : '—',
        },
        {
          key: 'symbol',
          label: t('webhooks.signals.columns.symbol'),
          children: signal.symbol ?? '—',
        },
        {
          key: 'amount',
          label: t('webhooks.signals.columns.amount'),
          children: signal.amount ? `${formatUsdt(signal.amount, locale)} USDT` : '—',
        },
        { key: 'id', label: t('webhooks.trail.externalId'), children: signal.external_id ?? '—' },
        {
          key: 'time',
          label: t('webhooks.trail.signalTime'),
          children: formatUtc8(signal.signal_time),
        },
        {
          key: 'received',
          label: t('webhooks.signals.columns.time'),
          children: formatUtc8(signal.received_at),
        },
        { key: 'ip', label: t('webhooks.trail.sourceIp'), children: signal.source_ip },
      ]}
    />
  );
}

function Trail({ signal }: { signal: WebhookSignal }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Only refusals, failures and ignored signals have a reason; a fill's message is its order.
  const why =
    signal.status === 'failed'
      ? failureText(t, signal.error_kind, signal.message)
      : signal.status === 'refused' || signal.status === 'ignored'
        ? reasonText(t, signal.reason, signal.message)
        : '';
  return (
    <Flex vertical gap={16} data-testid="webhook-trail" data-status={signal.status}>
      <Flex gap={8} align="center" wrap>
        <Tag
          color={SIGNAL_STATUS_COLORS[signal.status]}
          data-testid="webhook-trail-status"
          style={{ marginInlineEnd: 0 }}
        >
          {t(`webhooks.statuses.${signal.status}`)}
        </Tag>
        <Typography.Text type="secondary">
          {t('webhooks.trail.total')} {formatLatency(t, signal.total_latency_ms)}
        </Typography.Text>
      </Flex>
      {why && (
        <Alert
          type={signal.status === 'ignored' ? 'info' : 'error'}
          showIcon
          title={why}
          data-testid="webhook-trail-reason"
        />
      )}
      <TrailSteps signal={signal} />
      <SignalFacts signal={signal} />
      <div>
        <Typography.Title level={5}>{t('webhooks.trail.executions')}</Typography.Title>
        {signal.executions.length === 0 ? (
          <Typography.Text type="secondary">{t('webhooks.trail.noExecutions')}</Typography.Text>
        ) : (
          <Flex vertical gap={12}>
            {signal.executions.map((execution) => (
              <ExecutionItem key={execution.id} execution={execution} />
            ))}
          </Flex>
        )}
      </div>
      <div>
        <Typography.Title level={5}>
          {t('webhooks.trail.rawBody')}
          {signal.raw_body_truncated ? ` ${t('webhooks.trail.truncated')}` : ''}
        </Typography.Title>
        <pre
          style={{
            margin: 0,
            padding: 12,
            background: token.colorFillQuaternary,
            borderRadius: token.borderRadius,
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            maxHeight: 240,
            overflow: 'auto',
          }}
          data-testid="webhook-trail-raw"
        >
          {signal.raw_body}
        </pre>
      </div>
    </Flex>
  );
}

/** One signal's whole trail, read every 2 s until it is final (`id` null: closed). */
export function SignalTrailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const signal = useWebhookSignal(id);
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={id !== null ? t('webhooks.trail.title', { id }) : ''}
      size={isMobile ? '100%' : 560}
      destroyOnHidden
    >
      {signal.isPending && <Skeleton active />}
      {signal.isError && (
        <QueryErrorAlert query={signal} failedText={t('webhooks.trail.loadFailed')} hideRetry />
      )}
      {signal.data && <Trail signal={signal.data} />}
      {!signal.isPending && !signal.isError && !signal.data && <Empty />}
    </Drawer>
  );
}
