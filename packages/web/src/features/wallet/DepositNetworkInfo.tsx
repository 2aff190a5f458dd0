import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import type { DepositNetworkInfo as NetworkInfo } from '@quantsquare/contracts';
import { App, Button, Flex, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCoinAmount } from '../../shared/format/money';
import { useCopy } from '../../shared/ui/use-copy';

/**
 * The chosen network's deposit details (§3 Deposit network info): name, address with copy and
 * the 2 s "copied" notice, the QR code (hidden when the image is broken) and the minimum.
 */
export function DepositNetworkInfo({ info }: { info: NetworkInfo }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const { copied, copy } = useCopy();
  // Keyed by the image, so another network's QR gets its own chance to load.
  const [brokenQr, setBrokenQr] = useState<string | null>(null);
  // Off-chain, the "address" is the account or instructions to pay to: no QR code for it.
  const showQr = !info.is_offchain && info.qr_code !== '' && brokenQr !== info.qr_code;

  const copyAddress = async () => {
    const ok = await copy(info.address);
    if (ok) void message.success(t('deposit.addressCopied'));
    else void message.error(t('deposit.copyAddressFailed'));
  };

  return (
    <Flex
      gap={20}
      wrap
      align="center"
      data-testid="deposit-info"
      data-network={info.network}
      style={{
        padding: 16,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {showQr && (
        <img
          src={info.qr_code}
          alt={t('deposit.qrAlt', { network: info.network_name })}
          width={148}
          height={148}
          onError={() => setBrokenQr(info.qr_code)}
          style={{ background: '#fff', padding: 6, borderRadius: 8, flex: 'none' }}
          data-testid="deposit-qr"
        />
      )}
      <Flex vertical gap={10} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('deposit.networkName')}
          </Typography.Text>
          <div data-testid="deposit-network-name">
            {t(`wallet.networks.${info.network}`)}
            {/* The configured name, when it says more than ours (e.g. the token). */}
            {info.network_name !== t(`wallet.networks.${info.network}`) && (
              <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 8 }}>
                {info.network_name}
              </Typography.Text>
            )}
          </div>
        </div>
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {info.is_offchain ? t('deposit.account') : t('deposit.address')}
          </Typography.Text>
          <Typography.Paragraph
            style={{
              fontFamily: info.is_offchain ? undefined : token.fontFamilyCode,
              overflowWrap: 'anywhere',
              margin: 0,
            }}
            data-testid="deposit-address"
          >
            {info.address}
          </Typography.Paragraph>
          <Button
            size="small"
            icon={copied ? <CheckOutlined /> : <CopyOutlined />}
            onClick={() => void copyAddress()}
            style={{ marginTop: 6 }}
            data-testid="deposit-copy-address"
          >
            {copied
              ? t('wallet.copied')
              : info.is_offchain
                ? t('deposit.copyAccount')
                : t('deposit.copyAddress')}
          </Button>
        </div>
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('deposit.minAmount')}
          </Typography.Text>
          <div data-testid="deposit-min-amount">
            {t('wallet.usdt', { amount: formatCoinAmount(info.min_amount, i18n.language) })}
          </div>
        </div>
      </Flex>
    </Flex>
  );
}
