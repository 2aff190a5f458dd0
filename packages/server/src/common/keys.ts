import { hkdfSync } from 'node:crypto';

/** Derives a 32-byte purpose-bound key from SECRET_KEY, so one secret never serves two uses. */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'quantsquare', purpose, 32));
}
