import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  WEBHOOK_HOOK_PATH_PREFIX,
  WEBHOOK_KEY_BYTES,
  WEBHOOK_KEY_HEX_LENGTH,
} from '@quantsquare/contracts';

// Receiver keys: 32 random bytes (hex in the URL), stored as their sha256 only. The receiver
// looks a key up by its hash and compares the stored hash in constant time.

export const newWebhookKey = (): string => randomBytes(WEBHOOK_KEY_BYTES).toString('hex');

export const hashWebhookKey = (key: string): string =>
  createHash('sha256').update(key).digest('hex');

export const isKeyShaped = (key: string): boolean =>
  key.length === WEBHOOK_KEY_HEX_LENGTH && /^[0-9a-f]+$/.test(key);

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export const keyHintOf = (key: string): string => key.slice(-4);

/** The full receiver URL (create and regenerate-key answers only). */
export const webhookUrl = (baseUrl: string, key: string): string =>
  `${baseUrl}${WEBHOOK_HOOK_PATH_PREFIX}${key}/`;

/** The URL as every other answer shows it: the key masked but for its last 4 characters. */
export const maskedWebhookUrl = (baseUrl: string, hint: string): string =>
  `${baseUrl}${WEBHOOK_HOOK_PATH_PREFIX}${'•'.repeat(12)}${hint}/`;
