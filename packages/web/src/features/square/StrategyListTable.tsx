import type { SquarePeriod, StrategyCard } from '@quantsquare/contracts';
import { Flex, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { abbreviateNumber, formatPercent, formatRatio } from '../../shared/format/money';
import { drawdownShown } from '../../shared/format/square-format';
import { Sparkline } from '../../shared/ui/Sparkline';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { CopyTradeButton } from './CopyTradeButton';
import {
  IllustrativeTag,
  NewTag,
  ownerName,
  RiskFigure,
  useCardCurve,
  useToneColor,
} from './StrategyCardView';

function CurveCell({ strategy }: { strategy: StrategyCard }) {
  const curve = useCardCurve(strategy);
  return (
    <Flex vertical gap={2} style={{ width: 110 }}>
      <Sparkline
        values={curve.values}
        height={32}
        isIllustrative={curve.isIllustrative}
        sign={strategy.total_profit_rate}
      />
      {curve.isIllustrative && <IllustrativeTag />}
    </Flex>
  );
}

interface Props {
  strategies: StrategyCard[];
  period: SquarePeriod;
  viewerId: number | null;
  isLoading: boolean;
  /** Opens the copy modal for a strategy (document 2 §2). */
  onCopy: (strategy: StrategyCard) => void;
}

/** The strategy's name, its owner, venue and the new tag. */
function StrategyNameCell({ strategy: s }: { strategy: StrategyCard }) {
  const { t } = useTranslation();
  const name = ownerName(s.user_profile.nickname, t('square.anonymous'));
  return (
    <Flex gap={8} align="center" style={{ minWidth: 0 }}>
      <UserAvatar url={s.user_profile.avatar_url} name={name} size={28} />
      <div style={{ minWidth: 0 }}>
        <Typography.Text strong ellipsis style={{ display: 'block', maxWidth: 170 }}>
          {s.name}
        </Typography.Text>
        <Flex gap={4} align="center" wrap>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 90 }}>
            {name}
          </Typography.Text>
          <Tag style={{ marginInlineEnd: 0, fontSize: 11 }}>{s.exchange.toUpperCase()}</Tag>
          {s.is_new && <NewTag />}
        </Flex>
      </div>
    </Flex>
  );
}

/** The square in list view: one row per strategy, the same figures as the cards. */
export function StrategyListTable({ strategies, period, viewerId, isLoading, onCopy }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const tone = useToneColor();
  const locale = i18n.language;
  const numeric = { fontVariantNumeric: 'tabular-nums' as const, whiteSpace: 'nowrap' as const };

  const columns: TableColumnsType<StrategyCard> = [
    {
      key: 'strategy',
      title: t('square.card.strategy'),
      fixed: 'left',
      width: 220,
      render: (_, s) => <StrategyNameCell strategy={s} />,
    },
    {
      key: 'period',
      title: t('square.card.periodReturn', { period: t(`square.periodShort.${period}`) }),
      align: 'right',
      render: (_, s) => (
        <span style={{ ...numeric, color: tone(s.total_profit_rate), fontWeight: 600 }}>
          {formatPercent(s.total_profit_rate, locale, true)}
        </span>
      ),
    },
    {
      key: 'total',
      title: t('square.card.totalReturn'),
      align: 'right',
      render: (_, s) => (
        <span style={{ ...numeric, color: tone(s.total_pnl_percent) }}>
          {formatPercent(s.total_pnl_percent, locale, true)}
        </span>
      ),
    },
    {
      key: 'drawdown',
      title: t('square.card.maxDrawdown'),
      align: 'right',
      render: (_, s) => (
        <span style={numeric}>{formatPercent(drawdownShown(s.max_drawdown), locale)}</span>
      ),
    },
    {
      key: 'winRate',
      title: t('square.card.winRate'),
      align: 'right',
      render: (_, s) => (
        <span style={numeric}>
          {s.metrics.win_rate === null ? '—' : formatPercent(s.metrics.win_rate, locale)}
        </span>
      ),
    },
    {
      key: 'sharpe',
      title: t('square.card.sharpe'),
      align: 'right',
      render: (_, s) => (
        <span style={numeric}>
          <RiskFigure strategy={s} value={formatRatio(s.metrics.sharpe_ratio, locale)} />
        </span>
      ),
    },
    {
      key: 'balance',
      title: t('square.card.balance'),
      align: 'right',
      render: (_, s) => <span style={numeric}>{abbreviateNumber(s.balance, locale)}</span>,
    },
    {
      key: 'copiers',
      title: t('square.card.copiers'),
      align: 'right',
      render: (_, s) => (
        <span style={numeric}>{abbreviateNumber(s.share_settings.copiers_count, locale, 0)}</span>
      ),
    },
    { key: 'curve', title: '', render: (_, s) => <CurveCell strategy={s} /> },
    {
      key: 'action',
      title: '',
      align: 'right',
      render: (_, s) => (
        <CopyTradeButton
          variant="card"
          acceptsCopy={s.share_settings.accept_copy}
          isOwner={viewerId !== null && viewerId === s.user_id}
          isCopying={false}
          onCopy={() => onCopy(s)}
        />
      ),
    },
  ];

  return (
    <Table<StrategyCard>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={strategies}
      loading={isLoading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('square.empty') }}
      onRow={(s) => ({
        onClick: () => navigate(`/strategy/${s.id}`),
        style: { cursor: 'pointer' },
        'data-testid': 'strategy-row',
        'data-name': s.name,
      })}
      data-testid="strategy-table"
    />
  );
}
