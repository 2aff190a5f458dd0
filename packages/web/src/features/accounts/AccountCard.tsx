import { ReloadOutlined } from '@ant-design/icons';
import type { AccountOverview } from '@quantsquare/contracts';
import { Alert, Button, Card, Flex, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiStatus, pnlTone } from '../../shared/format/account-format';
import {
  formatAmount,
  formatBalance,
  formatPercent,
  formatPrice,
  formatSignedMoney,
} from '../../shared/format/money';
import { ShareControls } from '../../shared/share/ShareControls';
import { AccountLabel } from './AccountLabel';
import { BalanceChart } from './BalanceChart';
import { ExchangeErrorText, useExchangeErrorKindText } from './ExchangeErrorText';
import { RiskControls } from './RiskControls';

interface Props {
  account: AccountOverview;
  onRetry: (id: number) => void;
  isRetrying: boolean;
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <div style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>{children}</div>
    </div>
  );
}

/** The account's name, venue, kind and mode, and its status when it is not normal. */
function AccountTitle({ account }: { account: AccountOverview }) {
  const { t } = useTranslation();
  const status = apiStatus(account);
  return (
    <Flex gap={6} align="center" wrap style={{ paddingBlock: 8 }}>
      <AccountLabel account={account} testIdPrefix="account" />
      <Tag>{t(`apis.exchanges.${account.exchange}`)}</Tag>
      <Tag>{t(`apis.accountTypes.${account.account_type}`)}</Tag>
      <Tag>{t(`apis.positionModes.${account.position_mode}`)}</Tag>
      {account.is_testnet && <Tag color="orange">{t('apis.testnet')}</Tag>}
      {status !== 'normal' && (
        <Tag color={status === 'disabled' ? 'default' : 'error'} data-testid="account-status">
          {t(
            status === 'disabled'
              ? 'accounts.inactive'
              : status === 'unchecked'
                ? 'apis.unchecked'
                : 'accounts.abnormal',
          )}
        </Tag>
      )}
    </Flex>
  );
}

/** The account's open positions at the venue, with their unrealised P&L. */
function AccountPositions({ account }: { account: AccountOverview }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  const toneColor = { up: token.colorSuccess, down: token.colorError, flat: undefined };
  return (
    <div data-testid="account-positions">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('accounts.positions')}
      </Typography.Text>
      {account.positions.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {t('accounts.positionsEmpty')}
        </Typography.Paragraph>
      ) : (
        <Flex vertical gap={4} style={{ marginTop: 4 }}>
          {account.positions.map((position) => (
            <Flex
              key={position.id}
              justify="space-between"
              gap={8}
              wrap
              data-testid="account-position"
            >
              <span>
                <Typography.Text strong>{position.symbol}</Typography.Text>{' '}
                <Tag color={position.side === 'long' ? 'success' : 'error'}>
                  {t(`accounts.sides.${position.side}`)}
                </Tag>
                <Typography.Text type="secondary">
                  {formatAmount(position.contracts, locale)} @{' '}
                  {formatPrice(position.entry_price, locale)}
                </Typography.Text>
              </span>
              <span
                style={{
                  color: toneColor[pnlTone(position.pnl)],
                  fontVariantNumeric: 'tabular-nums',
                }}
              >
                {formatSignedMoney(position.pnl, locale)}
              </span>
            </Flex>
          ))}
        </Flex>
      )}
    </div>
  );
}

/** One exchange account of the overview (document 1 §2 "Account overview"). */
export function AccountCard({ account, onRetry, isRetrying }: Props) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  const toneColor = { up: token.colorSuccess, down: token.colorError, flat: undefined };
  const pnlColor = toneColor[pnlTone(account.daily_pnl)];
  const hasFailed = account.error !== null && account.balance === null;
  const kindText = useExchangeErrorKindText();

  return (
    <Card
      title={<AccountTitle account={account} />}
      size="small"
      data-testid="account-card"
      data-name={account.name}
      styles={{ header: { minHeight: 0 } }}
    >
      {account.error !== null && (
        <Alert
          type={hasFailed ? 'error' : 'warning'}
          showIcon
          title={t('accounts.accountLoadFailedWith', { reason: kindText(account.error_kind) })}
          description={
            <ExchangeErrorText kind={account.error_kind} detail={account.error} detailsOnly />
          }
          style={{ marginBottom: 12 }}
          data-testid="account-error"
          action={
            <Button
              size="small"
              icon={<ReloadOutlined />}
              loading={isRetrying}
              onClick={() => onRetry(account.id)}
              data-testid="account-retry"
            >
              {t('accounts.retry')}
            </Button>
          }
        />
      )}
      {!hasFailed && (
        <Flex vertical gap={12}>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))',
              gap: 12,
            }}
          >
            <Figure label={`${t('accounts.balance')} · ${t('accounts.total')}`}>
              <Typography.Text strong style={{ fontSize: 18 }} data-testid="account-balance-total">
                {formatBalance(account.balance?.total, locale)}
              </Typography.Text>
            </Figure>
            <Figure label={t('accounts.free')}>
              <span data-testid="account-balance-free">
                {formatBalance(account.balance?.free, locale)}
              </span>
            </Figure>
            <Figure label={t('accounts.used')}>
              <span data-testid="account-balance-used">
                {formatBalance(account.balance?.used, locale)}
              </span>
            </Figure>
            <Figure label={t('accounts.dailyPnl')}>
              <span style={{ color: pnlColor }} data-testid="account-daily-pnl">
                {formatSignedMoney(account.daily_pnl, locale)} (
                {formatPercent(account.daily_pnl_percent, locale, true)})
              </span>
            </Figure>
            <Figure label={t('accounts.leverage')}>
              {t('apis.leverageValue', { leverage: account.default_leverage })}
            </Figure>
          </div>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('accounts.chartTitle')}
            </Typography.Text>
            <BalanceChart snapshots={account.snapshots} />
          </div>
          <AccountPositions account={account} />
        </Flex>
      )}
      <RiskControls accountId={account.id} accountName={account.name} />
      <ShareControls accountId={account.id} />
    </Card>
  );
}
