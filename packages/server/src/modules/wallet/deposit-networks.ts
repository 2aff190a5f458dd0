import type {
  DepositInfoResponse,
  DepositNetwork,
  DepositNetworkInfo,
} from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import QRCode from 'qrcode';
import type { DepositNetworkConfig } from '../../config.js';
import { isTronAddress } from './chain-addresses.js';

const NETWORK_NAMES: Record<DepositNetwork, string> = {
  TRC20: 'USDT (TRC20, TRON)',
  BEP20: 'USDT (BEP20, BNB Smart Chain)',
  OFFCHAIN: 'Off-chain transfer',
};

export interface DepositNetworks {
  /** GET /auth/deposit/: the offered networks keyed by network. */
  readonly info: DepositInfoResponse;
  get(network: DepositNetwork): DepositNetworkInfo | undefined;
}

/**
 * The offered deposit networks from configuration, each with a PNG QR code of its address made
 * once at start. A TRC20 address with a bad checksum stops the start (coins sent to it are lost).
 */
export async function createDepositNetworks(
  configured: readonly DepositNetworkConfig[],
): Promise<DepositNetworks> {
  const info: DepositInfoResponse = {};
  for (const { network, address, minAmount } of configured) {
    if (network === 'TRC20' && !isTronAddress(address)) {
      throw new Error('DEPOSIT_TRC20_ADDRESS fails its base58check checksum');
    }
    info[network] = {
      network,
      network_name: NETWORK_NAMES[network],
      address,
      qr_code: await QRCode.toDataURL(address, {
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 240,
      }),
      min_amount: new Decimal(minAmount).toFixed(8),
      is_offchain: network === 'OFFCHAIN',
    };
  }
  Object.freeze(info);
  return { info, get: (network) => info[network] };
}
