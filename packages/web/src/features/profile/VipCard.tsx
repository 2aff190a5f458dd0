import { CheckCircleFilled, CrownFilled } from '@ant-design/icons';
import { type VipInfo, WALLET_ERROR_CODES } from '@quantsquare/contracts';
import { App, Button, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiRequestError } from '../../api/client';
import { usePurchaseVip, useVipInfo } from '../../api/wallet';
import { walletErrorMessage } from '../../shared/errors/wallet-errors';
import { formatUtc8 } from '../../shared/format/bot-format';
import { compareDecimal, toRequestAmount } from '../../shared/format/decimal';
import { formatCoinAmount } from '../../shared/format/money';
import { QueryErrorAlert } from '../../shared/ui/QueryState';

const FEATURE_KEYS = {
  unlimited_bot_activation: 'vip.features.bots',
  priority_support: 'vip.features.support',
  advanced_strategies: 'vip.features.strategies',
} as const;

function Price({ info }: { info: VipInfo }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const locale = i18n.language;
  return (
    <Flex vertical gap={4}>
      <Flex align="baseline" gap={8} wrap>
        <span
          style={{ fontSize: 26, fontWeight: 700, color: token.colorWarning }}
          data-testid="vip-price"
        >
          {t('vip.price', {
            price: formatCoinAmount(info.price, locale),
            days: info.duration_days,
          })}
        </span>
        {info.is_promotional && (
          <>
            <Typography.Text delete type="secondary" data-testid="vip-original-price">
              {t('vip.originalPrice', { price: formatCoinAmount(info.original_price, locale) })}
            </Typography.Text>
            <Tag color="volcano" data-testid="vip-promo">
              {t('vip.promo')}
            </Tag>
          </>
        )}
      </Flex>
      {info.is_promotional && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('vip.promoHint', { threshold: formatCoinAmount(info.original_price, locale) })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * The VIP card (§2, §5, §8, §9): active with its expiry, or the price this user pays (the
 * promotional one under 100 coins) and a buy button that needs confirmation and is disabled with
 * 'insufficient balance' below the price. The purchase carries a request id and the confirmed
 * price, so a retry is charged once and a changed price is never charged unseen.
 */
export function VipCard({ balance }: { balance: string }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const vip = useVipInfo();
  const purchase = usePurchaseVip();
  const info = vip.data;

  if (vip.isPending) return <Skeleton active />;
  if (!info) {
    return (
      <QueryErrorAlert
        query={vip}
        failedText={t('wallet.loadFailed')}
        describe={walletErrorMessage}
      />
    );
  }

  const isActive = info.is_vip_active;
  const canAfford = compareDecimal(balance, info.price) !== -1;
  const locale = i18n.language;

  const buy = () => {
    const requestId = crypto.randomUUID();
    const price = formatCoinAmount(info.price, locale);
    modal.confirm({
      title: t('vip.confirmTitle'),
      content:
        isActive && info.vip_expires_at
          ? t('vip.confirmRenew', {
              price,
              days: info.duration_days,
              date: formatUtc8(info.vip_expires_at),
            })
          : t('vip.confirm', { price, days: info.duration_days }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'vip-confirm' },
      onOk: () =>
        purchase
          .mutateAsync({
            request_id: requestId,
            expected_price: toRequestAmount(info.price) ?? info.price,
          })
          .then(() => void message.success(t('vip.success')))
          .catch((error: unknown) => {
            if (
              error instanceof ApiRequestError &&
              error.body?.code === WALLET_ERROR_CODES.priceChanged
            ) {
              void vip.refetch();
              void message.warning(t('wallet.errors.vipPriceChanged'));
              return;
            }
            void message.error(walletErrorMessage(t, error, t('vip.failed')));
          }),
    });
  };

  return (
    <Flex vertical gap={14} data-testid="vip-card" data-active={isActive}>
      <Flex align="center" gap={8} wrap>
        <CrownFilled style={{ color: token.colorWarning, fontSize: 20 }} />
        <Typography.Text strong style={{ fontSize: 16 }}>
          {t('vip.title')}
        </Typography.Text>
        <Tag color={isActive ? 'gold' : 'default'} data-testid="vip-status">
          {isActive ? t('vip.active') : t('vip.inactive')}
        </Tag>
      </Flex>
      {isActive && info.vip_expires_at && (
        <Typography.Text data-testid="vip-expires">
          {t('vip.expires', { date: formatUtc8(info.vip_expires_at) })}
        </Typography.Text>
      )}
      <Flex vertical gap={6}>
        {info.features.map((feature) => (
          <Typography.Text key={feature}>
            <CheckCircleFilled style={{ color: token.colorSuccess, marginInlineEnd: 8 }} />
            {t(FEATURE_KEYS[feature])}
          </Typography.Text>
        ))}
      </Flex>
      <Price info={info} />
      <Flex gap={8} align="center" wrap>
        <Button
          type={isActive ? 'default' : 'primary'}
          disabled={!canAfford}
          loading={purchase.isPending}
          onClick={buy}
          data-testid="vip-buy"
        >
          {!canAfford
            ? t('vip.insufficient')
            : isActive
              ? t('vip.renew', { days: info.duration_days })
              : t('vip.buy')}
        </Button>
        {!canAfford && (
          <Link to="/deposit" data-testid="vip-deposit-link">
            {t('vip.depositLink')}
          </Link>
        )}
      </Flex>
    </Flex>
  );
}
