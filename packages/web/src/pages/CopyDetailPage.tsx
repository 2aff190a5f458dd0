import '../i18n/copy-texts';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { CopyPosition, CopyReceipt, CopyRelation } from '@quantsquare/contracts';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiRequestError } from '../api/client';
import { useCopyDetail } from '../api/copy-trading';
import { CopyLeaderTitle, copyAccountName } from '../features/copy-trading/CopyNames';
import {
  CopyActionButtons,
  CopyBadges,
  CopyStatusTag,
  Figure,
  PercentText,
  PnlText,
} from '../features/copy-trading/CopyParts';
import { CopyPnlPanel } from '../features/copy-trading/CopyPnlPanel';
import { CopySimulatedVsActual } from '../features/copy-trading/CopySimulatedVsActual';
import { copyErrorText } from '../features/copy-trading/copy-errors';
import { EditCopyModal } from '../features/copy-trading/EditCopyModal';
import { useCopyActions } from '../features/copy-trading/use-copy-actions';
import {
  formatAmount,
  formatCoinAmount,
  formatPercent,
  formatPlain,
  formatPrice,
} from '../shared/format/money';
import { formatTradeTime, parseRouteId, toEpochMs } from '../shared/format/square-format';
import { useIsMobile } from '../shared/ui/use-is-mobile';

type CopyDetailQuery = ReturnType<typeof useCopyDetail>;

const num = (value: string | null) => (value === null ? null : Number(value));

function timeText(iso: string): string {
  const ms = toEpochMs(iso);
  return ms === null ? '—' : formatTradeTime(ms);
}

function fillText(size: string | null, price: string | null, locale: string): string {
  return size === null
    ? '—'
    : `${size} @ ${price === null ? '—' : formatPrice(num(price), locale)}`;
}

function positionColumns(t: TFunction, locale: string): TableColumnsType<CopyPosition> {
  return [
    { key: 'symbol', title: t('copy.detail.columns.symbol'), dataIndex: 'symbol' },
    {
      key: 'side',
      title: t('copy.detail.columns.side'),
      render: (_, p) => (
        <Tag color={p.side === 'long' ? 'green' : 'red'} data-testid="copy-position-side">
          {t(`copy.detail.sides.${p.side}`)}
        </Tag>
      ),
    },
    {
      key: 'size',
      title: t('copy.detail.columns.size'),
      align: 'right',
      render: (_, p) => formatAmount(Math.abs(Number(p.size)), locale),
    },
    {
      key: 'entry',
      title: t('copy.detail.columns.entryPrice'),
      align: 'right',
      render: (_, p) => formatPrice(num(p.entry_price), locale),
    },
    {
      key: 'mark',
      title: t('copy.detail.columns.markPrice'),
      align: 'right',
      render: (_, p) => formatPrice(num(p.mark_price ?? p.entry_price), locale),
    },
    {
      key: 'pnl',
      title: t('copy.detail.columns.unrealizedPnl'),
      align: 'right',
      render: (_, p) => (p.unrealized_pnl === null ? '—' : <PnlText value={p.unrealized_pnl} />),
    },
  ];
}

function receiptColumns(t: TFunction, locale: string): TableColumnsType<CopyReceipt> {
  return [
    {
      key: 'time',
      title: t('copy.detail.columns.time'),
      render: (_, r) => (
        <span style={{ whiteSpace: 'nowrap' }}>{timeText(r.leader_filled_at)}</span>
      ),
    },
    { key: 'symbol', title: t('copy.detail.columns.symbol'), dataIndex: 'symbol' },
    {
      key: 'leader',
      title: t('copy.detail.columns.leader'),
      render: (_, r) => fillText(r.leader_size_delta, r.leader_price, locale),
    },
    {
      key: 'follower',
      title: t('copy.detail.columns.follower'),
      render: (_, r) => fillText(r.follower_size_delta, r.follower_price, locale),
    },
    {
      key: 'slippage',
      title: t('copy.detail.columns.slippage'),
      align: 'right',
      render: (_, r) => formatPlain(r.slippage_bps, 1),
    },
    {
      key: 'delay',
      title: t('copy.detail.columns.delay'),
      align: 'right',
      render: (_, r) => (r.delay_ms === null ? '—' : t('copy.detail.delayMs', { ms: r.delay_ms })),
    },
    {
      key: 'result',
      title: t('copy.detail.columns.result'),
      render: (_, r) =>
        r.status === 'copied' ? (
          <Tag color="success" data-testid="copy-receipt-status">
            {t('copy.detail.copied')}
          </Tag>
        ) : (
          <Tooltip title={r.error_kind ?? undefined}>
            <Tag color="warning" data-testid="copy-receipt-status">
              {t('copy.detail.missed')}
              {r.miss_reason ? ` · ${t(`copy.missReasons.${r.miss_reason}`)}` : ''}
            </Tag>
          </Tooltip>
        ),
    },
  ];
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link to="/my/copy-trading">
      <ArrowLeftOutlined /> {t('copy.detail.back')}
    </Link>
  );
}

/** A relation that could not be read: not found, or a failure with a retry. */
function CopyDetailFailure({
  isNotFound,
  detail,
}: {
  isNotFound: boolean;
  detail: CopyDetailQuery;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <BackLink />
      <Alert
        type="error"
        showIcon
        title={
          isNotFound
            ? t('copy.detail.notFound')
            : copyErrorText(t, detail.error, t('copy.detail.loadFailed'))
        }
        action={
          isNotFound ? undefined : (
            <Button size="small" onClick={() => void detail.refetch()}>
              {t('common.retry')}
            </Button>
          )
        }
        data-testid="copy-detail-error"
      />
    </Flex>
  );
}

function CopyDetailLoading() {
  return (
    <Flex vertical gap={16}>
      <BackLink />
      <Card>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    </Flex>
  );
}

/** The leader, the follower account and mode, why it stopped or paused, and its actions. */
function CopyDetailHeading({
  relation,
  actions,
}: {
  relation: CopyRelation;
  actions: ReturnType<typeof useCopyActions>;
}) {
  const { t } = useTranslation();
  return (
    <Flex justify="space-between" align="flex-start" gap={8} wrap>
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <CopyLeaderTitle
          relation={relation}
          isHeading
          extra={
            <>
              <Tag style={{ marginInlineEnd: 0 }}>{relation.leader_exchange.toUpperCase()}</Tag>
              <CopyBadges relation={relation} />
              <CopyStatusTag status={relation.status} />
            </>
          }
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('copy.detail.follower')}: {copyAccountName(relation.follower_account_name, t)} (
          {relation.follower_exchange.toUpperCase()}) · {t(`copy.modes.${relation.copy_mode}`)}
        </Typography.Text>
        {relation.status === 'stopped' && relation.stop_reason && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`copy.stopReasons.${relation.stop_reason}`)}
          </Typography.Text>
        )}
        {relation.status === 'paused' && relation.pause_reason && (
          <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="copy-pause-reason">
            {t(`copy.pauseReasons.${relation.pause_reason}`)}
          </Typography.Text>
        )}
      </Flex>
      <CopyActionButtons
        relation={relation}
        busy={actions.busyId === relation.id}
        onAction={actions.run}
      />
    </Flex>
  );
}

/** The relation's figures: amounts, P&L, trades, efficiency, fee and protections. */
function CopyDetailFigures({ relation }: { relation: CopyRelation }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const maxLoss = num(relation.max_loss);
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))',
        gap: 12,
      }}
    >
      <Figure label={t('copy.page.copyAmount')}>
        {formatCoinAmount(relation.copy_amount, locale)} USDT
      </Figure>
      <Figure label={t('copy.page.maxLoss')}>
        {maxLoss === null || maxLoss === 0
          ? t('copy.page.noLimit')
          : `${formatCoinAmount(relation.max_loss, locale)} USDT`}
      </Figure>
      <Figure label={t('copy.page.pnl')}>
        <span data-testid="copy-detail-pnl">
          <PnlText value={relation.total_profit_loss} strong />
        </span>
      </Figure>
      <Figure label={t('copy.page.profitPercent')}>
        <PercentText value={relation.profit_percent} />
      </Figure>
      <Figure label={t('copy.page.trades')}>
        <span data-testid="copy-detail-trades">{relation.total_copied_trades}</span>
      </Figure>
      <Figure label={t('copy.detail.efficiency')}>
        <Tooltip title={t('copy.detail.efficiencyHint')}>
          <span>
            {relation.copy_efficiency === null
              ? '—'
              : formatPercent(relation.copy_efficiency * 100, locale)}
          </span>
        </Tooltip>
      </Figure>
      <Figure label={t('copy.detail.fee')}>{formatCoinAmount(relation.fee_paid, locale)}</Figure>
      <Figure label={t('copy.detail.slippage')}>
        <span data-testid="copy-detail-slippage">
          {relation.max_slippage_percent === null
            ? t('copy.modal.byDefault')
            : formatPercent(relation.max_slippage_percent, locale)}
        </span>
      </Figure>
      <Figure label={t('copy.detail.drift')}>
        <span data-testid="copy-detail-drift">
          {relation.leader_drawdown_limit_percent === null
            ? t('copy.modal.off')
            : formatPercent(relation.leader_drawdown_limit_percent, locale)}
        </span>
      </Figure>
    </div>
  );
}

function CopyLastError({ relation }: { relation: CopyRelation }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={t('copy.detail.lastError')}
      description={
        <>
          {relation.last_error_at && (
            <Typography.Text type="secondary" style={{ marginInlineEnd: 8 }}>
              {timeText(relation.last_error_at)}
            </Typography.Text>
          )}
          {relation.last_error}
        </>
      }
      data-testid="copy-last-error"
    />
  );
}

/** The open positions and the receipts of the leader's fills, each a table or an empty state. */
function CopyDetailTables({
  positions,
  receipts,
}: {
  positions: CopyPosition[];
  receipts: CopyReceipt[];
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <>
      <Card size="small" title={t('copy.detail.positions')} data-testid="copy-positions">
        {positions.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('copy.detail.positionsEmpty')}
          />
        ) : (
          <Table<CopyPosition>
            rowKey="symbol"
            size="small"
            columns={positionColumns(t, locale)}
            dataSource={positions}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        )}
      </Card>
      <Card size="small" title={t('copy.detail.receipts')} data-testid="copy-receipts">
        {receipts.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('copy.detail.receiptsEmpty')}
          />
        ) : (
          <Table<CopyReceipt>
            rowKey="id"
            size="small"
            columns={receiptColumns(t, locale)}
            dataSource={receipts}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
          />
        )}
      </Card>
    </>
  );
}

/** /copy-trading/{id}: one copy relation, its receipts, positions, P&L and last error. */
export function CopyDetailPage() {
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const id = parseRouteId(useParams().id);
  const detail = useCopyDetail(id);
  const actions = useCopyActions({ onDeleted: () => navigate('/my/copy-trading') });

  if (id === null || (detail.isError && !detail.data)) {
    const isNotFound =
      id === null || (detail.error instanceof ApiRequestError && detail.error.status === 404);
    return <CopyDetailFailure isNotFound={isNotFound} detail={detail} />;
  }
  if (!detail.data) return <CopyDetailLoading />;

  const { relation, receipts, positions, pnl_series } = detail.data;
  return (
    <Flex vertical gap={16} data-testid="copy-detail" data-status={relation.status}>
      <BackLink />
      <Card size="small">
        <Flex vertical gap={12}>
          <CopyDetailHeading relation={relation} actions={actions} />
          <CopyDetailFigures relation={relation} />
        </Flex>
      </Card>
      {relation.last_error && <CopyLastError relation={relation} />}
      {relation.status !== 'stopped' && <CopySimulatedVsActual relation={relation} />}
      <CopyPnlPanel series={pnl_series} isMobile={isMobile} />
      <CopyDetailTables positions={positions} receipts={receipts} />
      <EditCopyModal relation={actions.editing} onClose={actions.closeEdit} />
    </Flex>
  );
}
