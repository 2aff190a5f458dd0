import { createHash } from 'node:crypto';
import { isAddressFormatValid, type WithdrawNetwork } from '@quantsquare/contracts';

// Address checks beyond the shape the contracts check: a TRON address is base58check of
// 0x41 + 20 bytes, so a mistyped character fails its 4-byte checksum instead of sending coins
// nowhere. (BEP20's EIP-55 checksum needs Keccak, which node:crypto lacks; the shape is checked.)

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_PREFIX = 0x41;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

function base58Decode(text: string): Buffer | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const leadingZeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(leadingZeros), Buffer.from(value === 0n ? '' : hex, 'hex')]);
}

/** Whether a TRON (TRC20) address is well formed and its base58check checksum holds. */
export function isTronAddress(address: string): boolean {
  if (!isAddressFormatValid('TRC20', address)) return false;
  const bytes = base58Decode(address);
  if (bytes?.length !== 25 || bytes[0] !== TRON_PREFIX) return false;
  const payload = bytes.subarray(0, 21);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return checksum.equals(bytes.subarray(21));
}

/** The full check of a withdrawal or deposit address on its network. */
export function isChainAddress(network: WithdrawNetwork, address: string): boolean {
  return network === 'TRC20' ? isTronAddress(address) : isAddressFormatValid('BEP20', address);
}
