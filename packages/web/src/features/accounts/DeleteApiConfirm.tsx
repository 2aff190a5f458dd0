import type { ExchangeApi, ExchangeApiBot } from '@quantsquare/contracts';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountName } from '../../shared/format/account-format';

/** "BTC/USDT:USDT #12, ETH/USDT:USDT #15" for a refusal or a list of bots. */
export function runningBotsText(bots: readonly { id: number; symbol: string }[]): string {
  return bots.map((bot) => `${bot.symbol} #${bot.id}`).join(', ');
}

/**
 * The delete confirmation of an exchange API: what is deleted with it (its bots, positions
 * closed first; the copies it drives, as follower or leader, stopped and closed), and which
 * running bots must be stopped before it can go.
 */
export function DeleteApiConfirm({ api }: { api: ExchangeApi }) {
  const { t } = useTranslation();
  const running = api.bots.filter((bot) => bot.status === 'running');
  const others = api.bots.filter((bot) => bot.status !== 'running');
  const botLine = (bot: ExchangeApiBot) => (
    <li key={bot.id} data-testid="api-delete-bot" data-status={bot.status}>
      {bot.symbol} <Typography.Text type="secondary">#{bot.id}</Typography.Text>{' '}
      <Tag style={{ marginInlineEnd: 4 }}>{t(`apis.botStatus.${bot.status}`)}</Tag>
      {bot.has_open_position && (
        <Typography.Text type="warning">
          {t('apis.messages.deleteBotHoldsPosition')}
        </Typography.Text>
      )}
    </li>
  );
  const list = { margin: '4px 0 8px', paddingInlineStart: 18 } as const;
  return (
    <div data-testid="api-delete-confirm-body">
      <p style={{ margin: 0 }}>
        {t('apis.messages.deleteConfirm', { name: accountName(api, t('apis.experienceName')) })}
      </p>
      {running.length > 0 && (
        <>
          <Typography.Text type="danger">{t('apis.messages.deleteRunningBots')}</Typography.Text>
          <ul style={list}>{running.map(botLine)}</ul>
        </>
      )}
      {others.length > 0 && (
        <>
          <Typography.Text>{t('apis.messages.deleteBots')}</Typography.Text>
          <ul style={list}>{others.map(botLine)}</ul>
        </>
      )}
      <p style={{ margin: '0 0 4px' }}>{t('apis.messages.deleteCopies')}</p>
      <p style={{ margin: 0 }}>{t('apis.messages.deleteIrreversible')}</p>
    </div>
  );
}
