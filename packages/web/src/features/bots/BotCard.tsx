import {
  DeleteOutlined,
  DownOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  RedoOutlined,
  UpOutlined,
} from '@ant-design/icons';
import type { Bot, BotPosition } from '@quantsquare/contracts';
import { Alert, Button, Flex, theme } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../app/shell/nav-items';
import { useAccountName } from '../../shared/data/use-account-name';
import { pnlTone } from '../../shared/format/account-format';
import { formatUtc8, positionModeKey } from '../../shared/format/bot-format';
import { formatAmount, formatMoney, formatPercent, formatPrice } from '../../shared/format/money';
import { Pill, type PresetColor, Text } from '../../shared/ui/ui';
import { LiveVsBacktestPanel } from './LiveVsBacktestPanel';

const STATUS_COLORS: Record<Bot['status'], PresetColor | 'secondary'> = {
  created: 'blue',
  stopped: 'secondary',
  running: 'green',
  error: 'red',
};

const TEXT_TONE = { up: 'success', down: 'danger', flat: 'default' } as const;

/** A P&L's text tone: gains green, losses red, zero plain. */
const pnlTextTone = (value: string) => TEXT_TONE[pnlTone(value)];

function Field({
  label,
  wide,
  children,
}: {
  label: string;
  /** Two grid columns (times, price pairs), so they stay on one line. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div style={{ minWidth: 0, gridColumn: wide ? 'span 2' : undefined }}>
      <Text tone="secondary" size={12} style={{ display: 'block' }}>
        {label}
      </Text>
      <div style={{ overflowWrap: 'anywhere' }}>{children}</div>
    </div>
  );
}

const GRID = {
  display: 'grid',
  gap: '8px 16px',
  gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))',
} as const;

/** The Live (fresh data) or Checking indicator of a running bot (§2 Bot list). */
function LiveIndicator({ fresh }: { fresh: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const color = fresh ? token.colorSuccess : token.colorWarning;
  return (
    <span
      data-testid="bot-live"
      data-fresh={fresh}
      title={t(fresh ? 'bots.liveHint' : 'bots.checkingHint')}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, color, fontSize: 12 }}
    >
      <span
        className={fresh ? undefined : 'qs-pulse'}
        style={{ width: 8, height: 8, borderRadius: '50%', background: color, flex: 'none' }}
      />
      {t(fresh ? 'bots.live' : 'bots.checking')}
    </span>
  );
}

function PositionLine({ position }: { position: BotPosition }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tone = pnlTextTone(position.unrealized_pnl);
  return (
    <div style={GRID}>
      <Field label={t('bots.positions.side')}>
        <Pill color={position.side === 'long' ? 'success' : 'danger'}>
          {t(`bots.positions.${position.side}`)}
        </Pill>
      </Field>
      <Field label={t('bots.positions.amount')}>{formatAmount(position.amount, locale)}</Field>
      <Field label={t('bots.positions.entry')}>{formatPrice(position.entry_price, locale)}</Field>
      <Field label={t('bots.positions.slTp')} wide>
        {formatPrice(position.stop_loss, locale)} / {formatPrice(position.take_profit, locale)}
      </Field>
      <Field label={t('bots.positions.pnl')} wide>
        <Text tone={tone}>
          {formatMoney(position.unrealized_pnl, locale)} (
          {formatPercent(position.unrealized_pnl_percentage, locale, true)})
        </Text>
      </Field>
    </div>
  );
}

interface Props {
  bot: Bot;
  busy: 'start' | 'stop' | 'delete' | null;
  showVip: boolean;
  onStart: (bot: Bot) => void;
  onStop: (bot: Bot) => void;
  onDelete: (bot: Bot) => void;
}

/** Start or stop, delete, and the details toggle. */
function BotActions({
  bot,
  busy,
  isOpen,
  onStart,
  onStop,
  onDelete,
  onToggle,
}: Omit<Props, 'showVip'> & { isOpen: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={8}>
      {bot.status === 'running' ? (
        <Button
          size="small"
          icon={<PauseCircleOutlined />}
          loading={busy === 'stop'}
          onClick={() => onStop(bot)}
          data-testid="bot-stop"
        >
          {t('bots.actions.stop')}
        </Button>
      ) : (
        <Button
          size="small"
          type="primary"
          icon={bot.status === 'error' ? <RedoOutlined /> : <PlayCircleOutlined />}
          loading={busy === 'start'}
          onClick={() => onStart(bot)}
          data-testid="bot-start"
        >
          {t(bot.status === 'error' ? 'bots.actions.restart' : 'bots.actions.start')}
        </Button>
      )}
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={busy === 'delete'}
        onClick={() => onDelete(bot)}
        data-testid="bot-delete"
      >
        {t('bots.actions.delete')}
      </Button>
      <Button
        size="small"
        type="text"
        icon={isOpen ? <UpOutlined /> : <DownOutlined />}
        onClick={onToggle}
        aria-expanded={isOpen}
        data-testid="bot-details"
      >
        {t(isOpen ? 'bots.actions.hideDetails' : 'bots.actions.details')}
      </Button>
    </Flex>
  );
}

/** The bot's settings and its trade statistics. */
function BotFigures({ bot }: { bot: Bot }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const nameOfAccount = useAccountName();
  const percent = (value: number | null) =>
    value === null ? t('bots.none') : formatPercent(value, locale);
  return (
    <>
      <div style={GRID}>
        <Field label={t('bots.fields.exchange')}>{t(`bots.exchanges.${bot.exchange}`)}</Field>
        <Field label={t('bots.fields.account')}>
          {nameOfAccount(bot.exchange_api, bot.exchange_api_name)}
        </Field>
        <Field label={t('bots.fields.accountType')}>
          {t(`bots.accountTypes.${bot.account_type}`)}
        </Field>
        <Field label={t('bots.fields.positionMode')}>
          {t(`bots.positionModes.${positionModeKey(bot.position_mode)}`)}
        </Field>
        <Field label={t('bots.fields.strategy')}>{bot.strategy_name}</Field>
        <Field label={t('bots.fields.timeframe')}>{bot.timeframe}</Field>
        <Field label={t('bots.fields.tradeAmount')}>
          {t('bots.usdtValue', { value: formatMoney(bot.trade_amount, locale) })}
        </Field>
        <Field label={`${t('bots.fields.stopLoss')} / ${t('bots.fields.takeProfit')}`}>
          {percent(bot.stop_loss_percentage)} / {percent(bot.take_profit_percentage)}
        </Field>
      </div>

      <div style={GRID}>
        <Field label={t('bots.stats.total')}>{bot.total_trades}</Field>
        <Field label={t('bots.stats.winning')}>
          <Text tone="success">{bot.winning_trades}</Text>
        </Field>
        <Field label={t('bots.stats.losing')}>
          <Text tone="danger">{bot.losing_trades}</Text>
        </Field>
        <Field label={t('bots.stats.winRate')}>{formatPercent(bot.win_rate, locale)}</Field>
        <Field label={t('bots.stats.totalPnl')}>
          <Text tone={pnlTextTone(bot.total_profit_loss)}>
            {formatMoney(bot.total_profit_loss, locale)}
          </Text>
        </Field>
      </div>
    </>
  );
}

/** One bot of the list with its settings, statistics, positions and actions (§2, §4). */
export function BotCard({ bot, busy, showVip, onStart, onStop, onDelete }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [isOpen, setOpen] = useState(false);
  const isRunning = bot.status === 'running';

  return (
    <article
      data-testid="bot-row"
      data-symbol={bot.symbol}
      data-status={bot.status}
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        padding: 12,
        minWidth: 0,
      }}
    >
      <Flex vertical gap={12}>
        <Flex wrap gap={8} align="center" justify="space-between">
          <Flex wrap gap={8} align="center" style={{ minWidth: 0 }}>
            <Text strong size={16} style={{ overflowWrap: 'anywhere' }}>
              {bot.symbol}
            </Text>
            <Pill color={STATUS_COLORS[bot.status]}>{t(`bots.status.${bot.status}`)}</Pill>
            {bot.is_paper && <Pill color="secondary">{t('bots.paper')}</Pill>}
            {isRunning && <LiveIndicator fresh={bot.data_fresh} />}
          </Flex>
          <BotActions
            bot={bot}
            busy={busy}
            isOpen={isOpen}
            onStart={onStart}
            onStop={onStop}
            onDelete={onDelete}
            onToggle={() => setOpen((open) => !open)}
          />
        </Flex>

        {showVip && !bot.can_start && (
          <Alert
            type="warning"
            showIcon
            title={<span data-testid="bot-vip-required">{t('bots.server.vipRequired')}</span>}
            action={
              <Link to={PATHS.vip} data-testid="bot-buy-vip">
                {t('common.buyVip')}
              </Link>
            }
          />
        )}

        <BotFigures bot={bot} />

        <Flex wrap gap="4px 24px">
          <span>
            <Text tone="secondary" size={12} style={{ marginInlineEnd: 6 }}>
              {t('bots.fields.lastErrorAt')}
            </Text>
            <Text tone={bot.last_error_at ? 'danger' : 'default'} size={13}>
              {formatUtc8(bot.last_error_at)}
            </Text>
          </span>
          <span>
            <Text tone="secondary" size={12} style={{ marginInlineEnd: 6 }}>
              {t('bots.fields.lastTradeAt')}
            </Text>
            <Text size={13}>{formatUtc8(bot.last_trade_at)}</Text>
          </span>
        </Flex>

        <Flex vertical gap={8}>
          <Text tone="secondary" size={12}>
            {t('bots.positions.title')}
          </Text>
          {bot.open_positions.length === 0 ? (
            <Text tone="secondary">{t('bots.positions.none')}</Text>
          ) : (
            bot.open_positions.map((position) => (
              <PositionLine key={position.id} position={position} />
            ))
          )}
        </Flex>

        {isOpen && (
          <div
            style={{
              ...GRID,
              borderTop: `1px dashed ${token.colorBorderSecondary}`,
              paddingTop: 8,
            }}
            data-testid="bot-details-panel"
          >
            <Field label={t('bots.fields.strategyType')}>{bot.strategy_type}</Field>
            <Field label={t('bots.fields.paperAccount')}>
              {t(bot.is_paper ? 'bots.yes' : 'bots.no')}
            </Field>
            <Field label={t('bots.fields.createdAt')} wide>
              {formatUtc8(bot.created_at)}
            </Field>
            <Field label={t('bots.fields.exchangeApiId')}>#{bot.exchange_api}</Field>
            <div style={{ gridColumn: '1 / -1', minWidth: 0 }}>
              <Field label={t('bots.fields.lastError')}>
                <Text tone={bot.last_error ? 'danger' : 'default'}>
                  {bot.last_error ?? t('bots.none')}
                </Text>
              </Field>
            </div>
            <LiveVsBacktestPanel botId={bot.id} />
          </div>
        )}
      </Flex>
    </article>
  );
}
