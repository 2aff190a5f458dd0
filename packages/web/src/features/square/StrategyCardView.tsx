import { TeamOutlined } from '@ant-design/icons';
import { NEW_STRATEGY_HISTORY_DAYS, type StrategyCard } from '@quantsquare/contracts';
import { Card, Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { type KeyboardEvent, type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pnlTone } from '../../shared/format/account-format';
import { abbreviateNumber, formatPercent, formatRatio } from '../../shared/format/money';
import { drawdownShown, syntheticCurve } from '../../shared/format/square-format';
import { Sparkline } from '../../shared/ui/Sparkline';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { CopyTradeButton } from './CopyTradeButton';

const SPARKLINE_HEIGHT_PX = 52;

/** The card's curve: its snapshots, or the illustrative curve when it has none (document 2 §2). */
export function useCardCurve(strategy: StrategyCard) {
  return useMemo(() => {
    const real = strategy.snapshots.map((s) => s.balance).filter((value) => Number.isFinite(value));
    if (real.length > 0) return { values: real, isIllustrative: false };
    const values = syntheticCurve(strategy.id, strategy.total_pnl_percent, Date.now()).map(
      (p) => p.value,
    );
    return { values, isIllustrative: true };
  }, [strategy]);
}

export function useToneColor() {
  const { token } = theme.useToken();
  const colors = { up: token.colorSuccess, down: token.colorError, flat: token.colorText };
  return (value: number | string) => colors[pnlTone(value)];
}

/**
 * A risk figure (Sharpe, win rate) once the strategy has the history it needs; before that a
 * dash that says why (a few hours of returns give a meaningless, huge Sharpe).
 */
export function RiskFigure({
  strategy,
  value,
  testId,
}: {
  strategy: StrategyCard;
  value: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!strategy.is_new) return <span data-testid={testId}>{value}</span>;
  return (
    <Tooltip
      title={t('square.card.riskNeedsHistory', {
        days: NEW_STRATEGY_HISTORY_DAYS,
        have: Math.floor(strategy.days_of_history),
      })}
    >
      <span data-testid={testId} data-reason="history" style={{ cursor: 'help' }}>
        —
      </span>
    </Tooltip>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <div style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 500, whiteSpace: 'nowrap' }}>
        {children}
      </div>
    </div>
  );
}

/** The owner's display name: the nickname, or Anonymous (document 2 §2). */
export function ownerName(nickname: string, anonymous: string): string {
  return nickname.trim() || anonymous;
}

export function IllustrativeTag() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('square.card.illustrativeHint')}>
      <Tag style={{ marginInlineEnd: 0, fontSize: 11 }} data-testid="strategy-illustrative">
        {t('square.card.illustrative')}
      </Tag>
    </Tooltip>
  );
}

/** Live against backtest of the account's bots: green "Honest" when it qualifies. */
export function LiveCheckTag({ check }: { check: StrategyCard['live_check'] }) {
  const { t, i18n } = useTranslation();
  if (!check) return null;
  const delta = formatPercent(check.delta_pct, i18n.language, true);
  return (
    <Tooltip title={t('square.card.liveCheckHint', { days: check.live_days.toFixed(1), delta })}>
      <Tag
        color={check.is_honest ? 'green' : 'default'}
        style={{ marginInlineEnd: 0 }}
        data-testid="strategy-live-check"
        data-honest={check.is_honest}
      >
        {check.is_honest
          ? `${t('square.card.honestTag')} ${delta}`
          : t('square.card.liveCheckTag', { delta })}
      </Tag>
    </Tooltip>
  );
}

export function NewTag() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('square.card.newHint', { days: NEW_STRATEGY_HISTORY_DAYS })}>
      <Tag color="gold" style={{ marginInlineEnd: 0 }} data-testid="strategy-new">
        {t('square.card.newTag')}
      </Tag>
    </Tooltip>
  );
}

interface Props {
  strategy: StrategyCard;
  /** The signed-in viewer's user id (null for visitors): no copy button on one's own card. */
  viewerId: number | null;
  /** Opens the copy modal for this strategy (document 2 §2). */
  onCopy: (strategy: StrategyCard) => void;
}

/** The card's figures: returns, drawdown, balance, win rate, Sharpe and copiers. */
function CardFigures({ strategy }: { strategy: StrategyCard }) {
  const { t, i18n } = useTranslation();
  const tone = useToneColor();
  const locale = i18n.language;
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 8 }}>
      <Figure label={t('square.card.totalReturn')}>
        <span style={{ color: tone(strategy.total_pnl_percent) }}>
          {formatPercent(strategy.total_pnl_percent, locale, true)}
        </span>
      </Figure>
      <Figure label={t('square.card.maxDrawdown')}>
        <span data-testid="strategy-card-drawdown">
          {formatPercent(drawdownShown(strategy.max_drawdown), locale)}
        </span>
      </Figure>
      <Figure label={t('square.card.balance')}>{abbreviateNumber(strategy.balance, locale)}</Figure>
      <Figure label={t('square.card.winRate')}>
        <RiskFigure
          strategy={strategy}
          value={
            strategy.metrics.win_rate === null
              ? '—'
              : formatPercent(strategy.metrics.win_rate, locale)
          }
        />
      </Figure>
      <Figure label={t('square.card.sharpe')}>
        <RiskFigure
          strategy={strategy}
          value={formatRatio(strategy.metrics.sharpe_ratio, locale)}
          testId="strategy-card-sharpe"
        />
      </Figure>
      <Figure label={t('square.card.copiers')}>
        <span data-testid="strategy-card-copiers">
          {abbreviateNumber(strategy.share_settings.copiers_count, locale, 0)}
        </span>
      </Figure>
    </div>
  );
}

/** The owner, with avatar and followers, linking to their profile (not opening the card). */
function OwnerLink({ owner }: { owner: StrategyCard['user_profile'] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const name = ownerName(owner.nickname, t('square.anonymous'));
  return (
    <Link
      to={`/user/${owner.user_id}`}
      onClick={(event) => event.stopPropagation()}
      style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}
      data-testid="strategy-card-owner"
    >
      <UserAvatar url={owner.avatar_url} name={name} />
      <span style={{ minWidth: 0 }}>
        <Typography.Text ellipsis style={{ display: 'block', maxWidth: 150 }}>
          {name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <TeamOutlined />{' '}
          {t('square.card.followers', {
            count: owner.followers_count,
            followers: abbreviateNumber(owner.followers_count, locale, 0),
          })}
        </Typography.Text>
      </span>
    </Link>
  );
}

/** A strategy of the square as a card (document 2 §2); the whole card opens /strategy/{id}. */
export function StrategyCardView({ strategy, viewerId, onCopy }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const tone = useToneColor();
  const locale = i18n.language;
  const curve = useCardCurve(strategy);
  const owner = strategy.user_profile;
  const open = () => navigate(`/strategy/${strategy.id}`);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') open();
  };
  const period = t(`square.periodShort.${strategy.period}`);

  return (
    <Card
      size="small"
      hoverable
      className="qs-strategy-card"
      onClick={open}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="link"
      aria-label={strategy.name}
      data-testid="strategy-card"
      data-id={strategy.id}
      data-name={strategy.name}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 10, height: '100%' } }}
    >
      <Flex justify="space-between" align="start" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text
            strong
            ellipsis={{ tooltip: strategy.name }}
            style={{ fontSize: 15, display: 'block' }}
            data-testid="strategy-card-name"
          >
            {strategy.name}
          </Typography.Text>
          <Flex gap={4} wrap style={{ marginTop: 4 }}>
            <Tag style={{ marginInlineEnd: 0 }}>{strategy.exchange.toUpperCase()}</Tag>
            {strategy.is_new && <NewTag />}
            <LiveCheckTag check={strategy.live_check} />
          </Flex>
        </div>
        <div style={{ textAlign: 'end', flex: 'none' }}>
          <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
            {t('square.card.periodReturn', { period })}
          </Typography.Text>
          <span
            style={{
              fontSize: 20,
              fontWeight: 700,
              color: tone(strategy.total_profit_rate),
              fontVariantNumeric: 'tabular-nums',
            }}
            data-testid="strategy-card-period-return"
          >
            {formatPercent(strategy.total_profit_rate, locale, true)}
          </span>
        </div>
      </Flex>

      <div style={{ position: 'relative' }}>
        <Sparkline
          values={curve.values}
          height={SPARKLINE_HEIGHT_PX}
          isIllustrative={curve.isIllustrative}
          sign={strategy.total_profit_rate}
        />
        {curve.isIllustrative && (
          <div style={{ position: 'absolute', top: 0, insetInlineEnd: 0 }}>
            <IllustrativeTag />
          </div>
        )}
      </div>

      <CardFigures strategy={strategy} />

      <Flex
        justify="space-between"
        align="center"
        gap={8}
        style={{ marginTop: 'auto', minWidth: 0 }}
      >
        <OwnerLink owner={owner} />
        <CopyTradeButton
          variant="card"
          acceptsCopy={strategy.share_settings.accept_copy}
          isOwner={viewerId !== null && viewerId === strategy.user_id}
          isCopying={false}
          onCopy={() => onCopy(strategy)}
        />
      </Flex>
    </Card>
  );
}
